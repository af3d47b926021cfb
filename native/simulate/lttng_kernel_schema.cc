// SPDX-License-Identifier: EPL-2.0
#include "simulate/lttng_kernel_schema.h"

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "simulate/simulation_error.h"

namespace tracesync::simulate {
namespace {

constexpr int64_t kNsPerS = 1'000'000'000;

template <typename T>
T* created(T* object, const char* what) {
  if (object == nullptr) throw SimulationError(std::string("babeltrace2 could not create ") + what);
  return object;
}

void check(int status, const std::string& what) {
  if (status != 0) throw SimulationError("babeltrace2 refused " + what);
}

// Builds the field classes of one trace class. Integer sizes and display
// bases mirror lttng-modules' declarations, bit fields included.
class FieldClasses {
 public:
  explicit FieldClasses(bt_trace_class* trace_class) : tc_(trace_class) {}

  bt::FieldClassRef unsigned_int(uint64_t bits, bool hex = false) const {
    bt::FieldClassRef fc(created(bt_field_class_integer_unsigned_create(tc_), "an integer field class"));
    bt_field_class_integer_set_field_value_range(fc.get(), bits);
    if (hex) {
      bt_field_class_integer_set_preferred_display_base(fc.get(),
                                                        BT_FIELD_CLASS_INTEGER_PREFERRED_DISPLAY_BASE_HEXADECIMAL);
    }
    return fc;
  }

  bt::FieldClassRef signed_int(uint64_t bits) const {
    bt::FieldClassRef fc(created(bt_field_class_integer_signed_create(tc_), "an integer field class"));
    bt_field_class_integer_set_field_value_range(fc.get(), bits);
    return fc;
  }

  bt::FieldClassRef string() const { return bt::FieldClassRef(created(bt_field_class_string_create(tc_), "a string class")); }

  bt::FieldClassRef array(const bt::FieldClassRef& element, uint64_t length) const {
    return bt::FieldClassRef(
        created(bt_field_class_array_static_create(tc_, element.get(), length), "an array field class"));
  }

  bt::FieldClassRef structure() const {
    return bt::FieldClassRef(created(bt_field_class_structure_create(tc_), "a structure field class"));
  }

  // An 8-bit unsigned enumeration; a label may map several ranges.
  struct Mapping {
    const char* label;
    std::vector<std::pair<uint64_t, uint64_t>> ranges;
  };
  bt::FieldClassRef enumeration(const std::vector<Mapping>& mappings) const {
    bt::FieldClassRef fc(created(bt_field_class_enumeration_unsigned_create(tc_), "an enumeration field class"));
    bt_field_class_integer_set_field_value_range(fc.get(), 8);
    for (const Mapping& m : mappings) {
      const bt::RangeSetRef ranges = range_set(m.ranges);
      check(bt_field_class_enumeration_unsigned_add_mapping(fc.get(), m.label, ranges.get()),
            std::string("the enumeration label ") + m.label);
    }
    return fc;
  }

  // A variant selected by `tag`, which must be appended to the same
  // structure first. Option i is chosen by the value options[i].value.
  struct Option {
    const char* name;
    uint64_t value;
    bt::FieldClassRef content;
  };
  bt::FieldClassRef variant(const bt::FieldClassRef& tag, std::vector<Option> options) const {
    bt::FieldClassRef fc(created(bt_field_class_variant_create(tc_, tag.get()), "a variant field class"));
    for (Option& option : options) {
      const bt::RangeSetRef ranges = range_set({{option.value, option.value}});
      check(bt_field_class_variant_with_selector_field_integer_unsigned_append_option(
                fc.get(), option.name, option.content.get(), ranges.get()),
            std::string("the variant option ") + option.name);
    }
    return fc;
  }

  static bt::RangeSetRef range_set(const std::vector<std::pair<uint64_t, uint64_t>>& ranges) {
    bt::RangeSetRef set(created(bt_integer_range_set_unsigned_create(), "an integer range set"));
    for (const auto& [low, high] : ranges) {
      check(bt_integer_range_set_unsigned_add_range(set.get(), low, high), "an integer range");
    }
    return set;
  }

  static void member(const bt::FieldClassRef& structure, const char* name, const bt::FieldClassRef& member) {
    check(bt_field_class_structure_append_member(structure.get(), name, member.get()),
          std::string("the structure member ") + name);
  }

 private:
  bt_trace_class* tc_;
};

// The header-type enumerations. As in LTTng's metadata the labels carry a
// leading underscore ("_ipv4") while the variant options do not ("ipv4");
// sink.ctf.fs pairs them by range and writes both as "_ipv4", as LTTng does.
bt::FieldClassRef network_header_type(const FieldClasses& f) {
  return f.enumeration({{"_unknown", {{kNetworkHeaderUnknown, kNetworkHeaderUnknown}}},
                        {"_ipv4", {{kNetworkHeaderIpv4, kNetworkHeaderIpv4}}},
                        {"_ipv6", {{kNetworkHeaderIpv6, kNetworkHeaderIpv6}}}});
}

bt::FieldClassRef transport_header_type(const FieldClasses& f) {
  return f.enumeration({{"_unknown", {{kTransportHeaderUnknown, kTransportHeaderUnknown}}},
                        {"_tcp", {{kTransportHeaderTcp, kTransportHeaderTcp}}}});
}

// The IP protocol number as an enumeration (proto_transport_header_type).
bt::FieldClassRef ip_protocol(const FieldClasses& f) {
  return f.enumeration({{"_unknown", {{0, kIpProtocolTcp - 1}, {kIpProtocolTcp + 1, 255}}},
                        {"_tcp", {{kIpProtocolTcp, kIpProtocolTcp}}}});
}

bt::FieldClassRef tcp_header(const FieldClasses& f) {
  bt::FieldClassRef s = f.structure();
  f.member(s, "source_port", f.unsigned_int(16));
  f.member(s, "dest_port", f.unsigned_int(16));
  f.member(s, "seq", f.unsigned_int(32));
  f.member(s, "ack_seq", f.unsigned_int(32));
  f.member(s, "data_offset", f.unsigned_int(4));
  f.member(s, "reserved", f.unsigned_int(3));
  f.member(s, "flags", f.unsigned_int(9, true));
  f.member(s, "window_size", f.unsigned_int(16));
  f.member(s, "checksum", f.unsigned_int(16, true));
  f.member(s, "urg_ptr", f.unsigned_int(16));
  return s;
}

// transport_header_type + transport_header, the tail of both IP headers.
void append_transport_header(const FieldClasses& f, const bt::FieldClassRef& ip_header) {
  bt::FieldClassRef tag = transport_header_type(f);
  f.member(ip_header, "transport_header_type", tag);
  std::vector<FieldClasses::Option> options;
  options.push_back({"unknown", kTransportHeaderUnknown, f.structure()});
  options.push_back({"tcp", kTransportHeaderTcp, tcp_header(f)});
  f.member(ip_header, "transport_header", f.variant(tag, std::move(options)));
}

bt::FieldClassRef ipv4_header(const FieldClasses& f) {
  bt::FieldClassRef s = f.structure();
  f.member(s, "version", f.unsigned_int(4));
  f.member(s, "ihl", f.unsigned_int(4));
  f.member(s, "tos", f.unsigned_int(8));
  f.member(s, "tot_len", f.unsigned_int(16));
  f.member(s, "id", f.unsigned_int(16, true));
  f.member(s, "frag_off", f.unsigned_int(16));
  f.member(s, "ttl", f.unsigned_int(8));
  f.member(s, "protocol", ip_protocol(f));
  f.member(s, "checksum", f.unsigned_int(16, true));
  f.member(s, "saddr", f.array(f.unsigned_int(8), 4));
  f.member(s, "daddr", f.array(f.unsigned_int(8), 4));
  append_transport_header(f, s);
  return s;
}

bt::FieldClassRef ipv6_header(const FieldClasses& f) {
  bt::FieldClassRef s = f.structure();
  f.member(s, "version", f.unsigned_int(4));
  f.member(s, "prio", f.unsigned_int(4));
  f.member(s, "flow_lbl", f.array(f.unsigned_int(8, true), 3));
  f.member(s, "payload_len", f.unsigned_int(16));
  f.member(s, "nexthdr", ip_protocol(f));
  f.member(s, "hop_limit", f.unsigned_int(8));
  f.member(s, "saddr", f.array(f.unsigned_int(16, true), 8));
  f.member(s, "daddr", f.array(f.unsigned_int(16, true), 8));
  append_transport_header(f, s);
  return s;
}

// net_dev_template: net_dev_queue and net_if_receive_skb.
bt::FieldClassRef net_dev_payload(const FieldClasses& f) {
  bt::FieldClassRef s = f.structure();
  f.member(s, "skbaddr", f.unsigned_int(64, true));
  f.member(s, "len", f.unsigned_int(32));
  f.member(s, "name", f.string());
  bt::FieldClassRef tag = network_header_type(f);
  f.member(s, "network_header_type", tag);
  std::vector<FieldClasses::Option> options;
  options.push_back({"unknown", kNetworkHeaderUnknown, f.structure()});
  options.push_back({"ipv4", kNetworkHeaderIpv4, ipv4_header(f)});
  options.push_back({"ipv6", kNetworkHeaderIpv6, ipv6_header(f)});
  f.member(s, "network_header", f.variant(tag, std::move(options)));
  return s;
}

// An application's message events (tsapp:msg_send, tsapp:msg_recv): its own
// message id, the channel (link) it travels on, its length.
bt::FieldClassRef app_message_payload(const FieldClasses& f) {
  bt::FieldClassRef s = f.structure();
  f.member(s, "msg_id", f.unsigned_int(64));
  f.member(s, "channel", f.string());
  f.member(s, "len", f.unsigned_int(32));
  return s;
}

// Task names are `char comm[16]` arrays in LTTng's metadata, which readers
// decode as strings; babeltrace2 writes them as strings.
bt::FieldClassRef sched_switch_payload(const FieldClasses& f) {
  bt::FieldClassRef s = f.structure();
  f.member(s, "prev_comm", f.string());
  f.member(s, "prev_tid", f.signed_int(32));
  f.member(s, "prev_prio", f.signed_int(32));
  f.member(s, "prev_state", f.signed_int(64));
  f.member(s, "next_comm", f.string());
  f.member(s, "next_tid", f.signed_int(32));
  f.member(s, "next_prio", f.signed_int(32));
  return s;
}

bt::FieldClassRef sched_wakeup_payload(const FieldClasses& f) {
  bt::FieldClassRef s = f.structure();
  f.member(s, "comm", f.string());
  f.member(s, "tid", f.signed_int(32));
  f.member(s, "prio", f.signed_int(32));
  f.member(s, "target_cpu", f.signed_int(32));
  return s;
}

bt::FieldClassRef irq_entry_payload(const FieldClasses& f) {
  bt::FieldClassRef s = f.structure();
  f.member(s, "irq", f.signed_int(32));
  f.member(s, "name", f.string());
  return s;
}

bt::FieldClassRef irq_exit_payload(const FieldClasses& f) {
  bt::FieldClassRef s = f.structure();
  f.member(s, "irq", f.signed_int(32));
  f.member(s, "ret", f.signed_int(32));
  return s;
}

bt::FieldClassRef softirq_payload(const FieldClasses& f) {
  bt::FieldClassRef s = f.structure();
  f.member(s, "vec", f.unsigned_int(32));
  return s;
}

}  // namespace

LttngKernelSchema::LttngKernelSchema(bt_self_component* component, const SimulatedHost& host,
                                     bool plain_receive_name, bool user_space)
    : trace_class_(created(bt_trace_class_create(component), "a trace class")),
      clock_class_(created(bt_clock_class_create(component), "a clock class")),
      stream_class_(created(bt_stream_class_create(trace_class_.get()), "a stream class")) {
  bt_clock_class* clock = clock_class_.get();
  check(bt_clock_class_set_name(clock, "monotonic"), "the clock class name");
  check(bt_clock_class_set_description(clock, "Monotonic Clock"), "the clock class description");
  bt_clock_class_set_frequency(clock, kNsPerS);
  bt_clock_class_set_offset(clock, host.boot_epoch_ns / kNsPerS, static_cast<uint64_t>(host.boot_epoch_ns % kNsPerS));
  bt_clock_class_set_origin_is_unix_epoch(clock, BT_TRUE);
  bt_clock_class_set_uuid(clock, host.boot_id.data());

  const FieldClasses f(trace_class_.get());
  bt_stream_class* sc = stream_class_.get();
  check(bt_stream_class_set_default_clock_class(sc, clock), "the stream class clock");
  bt_stream_class_set_supports_packets(sc, BT_TRUE, BT_TRUE, BT_TRUE);
  bt_stream_class_set_supports_discarded_events(sc, BT_TRUE, BT_TRUE);
  bt::FieldClassRef packet_context = f.structure();
  f.member(packet_context, "cpu_id", f.unsigned_int(32));
  check(bt_stream_class_set_packet_context_field_class(sc, packet_context.get()), "the packet context");

  if (user_space) {
    add_event_class(EventKind::kNetDevQueue, kAppSendEvent, app_message_payload(f));
    add_event_class(EventKind::kNetIfReceiveSkb, kAppReceiveEvent, app_message_payload(f));
  } else {
    add_event_class(EventKind::kNetDevQueue, "net_dev_queue", net_dev_payload(f));
    add_event_class(EventKind::kNetIfReceiveSkb, plain_receive_name ? "netif_receive_skb" : "net_if_receive_skb",
                    net_dev_payload(f));
  }
  add_event_class(EventKind::kSchedSwitch, "sched_switch", sched_switch_payload(f));
  add_event_class(EventKind::kSchedWaking, "sched_waking", sched_wakeup_payload(f));
  add_event_class(EventKind::kSchedWakeup, "sched_wakeup", sched_wakeup_payload(f));
  add_event_class(EventKind::kIrqHandlerEntry, "irq_handler_entry", irq_entry_payload(f));
  add_event_class(EventKind::kIrqHandlerExit, "irq_handler_exit", irq_exit_payload(f));
  add_event_class(EventKind::kSoftirqRaise, "softirq_raise", softirq_payload(f));
  add_event_class(EventKind::kSoftirqEntry, "softirq_entry", softirq_payload(f));
  add_event_class(EventKind::kSoftirqExit, "softirq_exit", softirq_payload(f));
}

void LttngKernelSchema::add_event_class(EventKind kind, const char* name, bt::FieldClassRef payload) {
  bt::EventClassRef event_class(created(bt_event_class_create(stream_class_.get()), "an event class"));
  check(bt_event_class_set_name(event_class.get(), name), std::string("the event class name ") + name);
  check(bt_event_class_set_payload_field_class(event_class.get(), payload.get()),
        std::string("the payload of ") + name);
  event_classes_[static_cast<int>(kind)] = std::move(event_class);
}

}  // namespace tracesync::simulate
