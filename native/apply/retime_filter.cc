// SPDX-License-Identifier: EPL-2.0
#include "apply/retime_filter.h"

#include <quadmath.h>

#include <deque>
#include <map>
#include <vector>

namespace tracesync::apply {
namespace {

constexpr model::Quad kNsPerSecond = 1'000'000'000;

// ---- Fields ---------------------------------------------------------------

// Copies `from` into the empty field `to` of the same class. Returns false
// on a babeltrace2 failure (out of memory).
bool copy_field(const bt_field* from, bt_field* to) {
  const bt_field_class_type type = bt_field_get_class_type(from);
  if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_BOOL)) {
    bt_field_bool_set_value(to, bt_field_bool_get_value(from));
  } else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_BIT_ARRAY)) {
    bt_field_bit_array_set_value_as_integer(to, bt_field_bit_array_get_value_as_integer(from));
  } else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER)) {
    bt_field_integer_unsigned_set_value(to, bt_field_integer_unsigned_get_value(from));
  } else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER)) {
    bt_field_integer_signed_set_value(to, bt_field_integer_signed_get_value(from));
  } else if (type == BT_FIELD_CLASS_TYPE_SINGLE_PRECISION_REAL) {
    bt_field_real_single_precision_set_value(to, bt_field_real_single_precision_get_value(from));
  } else if (type == BT_FIELD_CLASS_TYPE_DOUBLE_PRECISION_REAL) {
    bt_field_real_double_precision_set_value(to, bt_field_real_double_precision_get_value(from));
  } else if (type == BT_FIELD_CLASS_TYPE_STRING) {
    bt_field_string_clear(to);
    if (bt_field_string_append_with_length(to, bt_field_string_get_value(from), bt_field_string_get_length(from)) !=
        BT_FIELD_STRING_APPEND_STATUS_OK) {
      return false;
    }
  } else if (type == BT_FIELD_CLASS_TYPE_STRUCTURE) {
    const uint64_t members = bt_field_class_structure_get_member_count(bt_field_borrow_class_const(from));
    for (uint64_t i = 0; i < members; ++i) {
      if (!copy_field(bt_field_structure_borrow_member_field_by_index_const(from, i),
                      bt_field_structure_borrow_member_field_by_index(to, i))) {
        return false;
      }
    }
  } else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_ARRAY)) {
    const uint64_t length = bt_field_array_get_length(from);
    if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_DYNAMIC_ARRAY) &&
        bt_field_array_dynamic_set_length(to, length) != BT_FIELD_DYNAMIC_ARRAY_SET_LENGTH_STATUS_OK) {
      return false;
    }
    for (uint64_t i = 0; i < length; ++i) {
      if (!copy_field(bt_field_array_borrow_element_field_by_index_const(from, i),
                      bt_field_array_borrow_element_field_by_index(to, i))) {
        return false;
      }
    }
  } else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_OPTION)) {
    const bt_field* content = bt_field_option_borrow_field_const(from);
    bt_field_option_set_has_field(to, content != nullptr ? BT_TRUE : BT_FALSE);
    if (content != nullptr && !copy_field(content, bt_field_option_borrow_field(to))) return false;
  } else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_VARIANT)) {
    const uint64_t option = bt_field_variant_get_selected_option_index(from);
    if (bt_field_variant_select_option_by_index(to, option) != BT_FIELD_VARIANT_SELECT_OPTION_STATUS_OK) return false;
    if (!copy_field(bt_field_variant_borrow_selected_option_field_const(from),
                    bt_field_variant_borrow_selected_option_field(to))) {
      return false;
    }
  }
  return true;
}

bool copy_optional_field(const bt_field* from, bt_field* to) { return from == nullptr || copy_field(from, to); }

// ---- Clock values ---------------------------------------------------------

// Maps cycle values of one clock class through the transform. Within a
// piece, ns = origin + c * 1e9 / freq and t_ref = slope * ns + offset, so
// the new cycle value is slope * c + ((slope - 1) * origin + offset) *
// freq / 1e9: one multiply-add per message, in quad precision.
class ClockRetimer {
 public:
  ClockRetimer(const bt_clock_class* clock, const PiecewiseTransform& transform) {
    const auto freq = static_cast<model::Quad>(bt_clock_class_get_frequency(clock));
    int64_t seconds = 0;
    uint64_t cycles = 0;
    bt_clock_class_get_offset(clock, &seconds, &cycles);
    const model::Quad origin =
        static_cast<model::Quad>(seconds) * kNsPerSecond + static_cast<model::Quad>(cycles) * kNsPerSecond / freq;
    for (const TransformPiece& p : transform.pieces()) {
      const model::Quad last_cycles = floorq((static_cast<model::Quad>(p.last_ns) - origin) * freq / kNsPerSecond);
      pieces_.push_back({last_cycles < 0 ? 0 : last_cycles >= 0x1p64Q ? UINT64_MAX : static_cast<uint64_t>(last_cycles),
                         p.line.slope, ((p.line.slope - 1) * origin + p.line.offset) * freq / kNsPerSecond});
    }
  }

  // False when the new time falls before the clock's origin (a cycle value
  // is unsigned).
  bool map(uint64_t cycles, uint64_t* mapped) {
    // Times go forward within a stream: start from the piece used last.
    if (cycles < first_cycle_of(last_)) last_ = 0;
    while (last_ + 1 < pieces_.size() && cycles > pieces_[last_].last_cycles) ++last_;
    const Piece& p = pieces_[last_];
    const model::Quad out = roundq(p.slope * static_cast<model::Quad>(cycles) + p.intercept);
    if (out < 0 || out >= 0x1p64Q) return false;
    *mapped = static_cast<uint64_t>(out);
    return true;
  }

 private:
  struct Piece {
    uint64_t last_cycles;
    model::Quad slope;
    model::Quad intercept;  // in cycles
  };
  uint64_t first_cycle_of(std::size_t piece) const { return piece == 0 ? 0 : pieces_[piece - 1].last_cycles + 1; }

  std::vector<Piece> pieces_;
  std::size_t last_ = 0;
};

// ---- The component and its message iterator -------------------------------

struct FilterState {
  RetimeSettings* settings = nullptr;
  bt_self_component_filter* self = nullptr;
};

struct IteratorState {
  FilterState* filter = nullptr;
  bt_self_message_iterator* self = nullptr;
  std::vector<bt::MessageIteratorRef> upstream;  // null once ended
  std::size_t next_upstream = 0;
  std::deque<const bt_message*> ready;  // owned references
  std::map<const bt_clock_class*, ClockRetimer> retimers;
  const bt_clock_class* last_clock = nullptr;  // most messages share one clock
  ClockRetimer* last_retimer = nullptr;

  ~IteratorState() { drop_ready(); }

  // Messages we created go back to the graph's pools when put: put them
  // while the graph is whole (when failing), not from finalization.
  void drop_ready() {
    for (const bt_message* m : ready) bt_message_put_ref(m);
    ready.clear();
  }

  ClockRetimer& retimer(const bt_clock_snapshot* snapshot) {
    const bt_clock_class* clock = bt_clock_snapshot_borrow_clock_class_const(snapshot);
    if (clock == last_clock) return *last_retimer;
    auto it = retimers.find(clock);
    if (it == retimers.end()) it = retimers.emplace(clock, ClockRetimer(clock, *filter->settings->transform)).first;
    last_clock = clock;
    last_retimer = &it->second;
    return it->second;
  }

  bool fail(const std::string& why) {
    if (filter->settings->error.empty()) filter->settings->error = why;
    return false;
  }

  bool mapped(const bt_clock_snapshot* snapshot, uint64_t* value) {
    if (retimer(snapshot).map(bt_clock_snapshot_get_value(snapshot), value)) return true;
    return fail("a time maps before its clock's origin (cycle values cannot be negative)");
  }

  // The retimed copy of `m` (a new reference), or null on failure.
  const bt_message* retimed(const bt_message* m) {
    switch (bt_message_get_type(m)) {
      case BT_MESSAGE_TYPE_EVENT:
        return retimed_event(m);
      case BT_MESSAGE_TYPE_PACKET_BEGINNING:
      case BT_MESSAGE_TYPE_PACKET_END:
        return retimed_packet_boundary(m);
      case BT_MESSAGE_TYPE_STREAM_BEGINNING:
      case BT_MESSAGE_TYPE_STREAM_END:
        return retimed_stream_boundary(m);
      case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
      case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
        return retimed_discarded(m);
      default:
        bt_message_get_ref(m);
        return m;
    }
  }

  const bt_message* retimed_event(const bt_message* m) {
    const bt_event* event = bt_message_event_borrow_event_const(m);
    const bt_stream* stream = bt_event_borrow_stream_const(event);
    const bt_stream_class* stream_class = bt_stream_borrow_class_const(stream);
    if (bt_stream_class_borrow_default_clock_class_const(stream_class) == nullptr) {
      bt_message_get_ref(m);
      return m;
    }
    uint64_t value = 0;
    if (!mapped(bt_message_event_borrow_default_clock_snapshot_const(m), &value)) return nullptr;
    const bt_event_class* event_class = bt_event_borrow_class_const(event);
    const bt_packet* packet = bt_event_borrow_packet_const(event);
    // The new message takes its own references to the upstream class,
    // stream and packet.
    bt_message* out = packet != nullptr
                          ? bt_message_event_create_with_packet_and_default_clock_snapshot(self, event_class, packet, value)
                          : bt_message_event_create_with_default_clock_snapshot(self, event_class, stream, value);
    if (out == nullptr) return fail("out of memory"), nullptr;
    bt_event* copy = bt_message_event_borrow_event(out);
    if (!copy_optional_field(bt_event_borrow_common_context_field_const(event), bt_event_borrow_common_context_field(copy)) ||
        !copy_optional_field(bt_event_borrow_specific_context_field_const(event),
                             bt_event_borrow_specific_context_field(copy)) ||
        !copy_optional_field(bt_event_borrow_payload_field_const(event), bt_event_borrow_payload_field(copy))) {
      bt_message_put_ref(out);
      return fail("cannot copy the fields of a '" + std::string(bt_event_class_get_name(event_class)) + "' event"),
             nullptr;
    }
    return out;
  }

  const bt_message* retimed_packet_boundary(const bt_message* m) {
    const bool beginning = bt_message_get_type(m) == BT_MESSAGE_TYPE_PACKET_BEGINNING;
    const bt_packet* packet =
        beginning ? bt_message_packet_beginning_borrow_packet_const(m) : bt_message_packet_end_borrow_packet_const(m);
    const bt_stream_class* stream_class = bt_stream_borrow_class_const(bt_packet_borrow_stream_const(packet));
    const bool has_time = beginning ? bt_stream_class_packets_have_beginning_default_clock_snapshot(stream_class)
                                    : bt_stream_class_packets_have_end_default_clock_snapshot(stream_class);
    if (!has_time) {
      bt_message_get_ref(m);
      return m;
    }
    uint64_t value = 0;
    const bt_clock_snapshot* snapshot = beginning ? bt_message_packet_beginning_borrow_default_clock_snapshot_const(m)
                                                  : bt_message_packet_end_borrow_default_clock_snapshot_const(m);
    if (!mapped(snapshot, &value)) return nullptr;
    bt_message* out = beginning ? bt_message_packet_beginning_create_with_default_clock_snapshot(self, packet, value)
                                : bt_message_packet_end_create_with_default_clock_snapshot(self, packet, value);
    if (out == nullptr) return fail("out of memory"), nullptr;
    return out;
  }

  const bt_message* retimed_stream_boundary(const bt_message* m) {
    const bool beginning = bt_message_get_type(m) == BT_MESSAGE_TYPE_STREAM_BEGINNING;
    const bt_clock_snapshot* snapshot = nullptr;
    const bt_message_stream_clock_snapshot_state state =
        beginning ? bt_message_stream_beginning_borrow_default_clock_snapshot_const(m, &snapshot)
                  : bt_message_stream_end_borrow_default_clock_snapshot_const(m, &snapshot);
    if (state != BT_MESSAGE_STREAM_CLOCK_SNAPSHOT_STATE_KNOWN) {
      bt_message_get_ref(m);
      return m;
    }
    uint64_t value = 0;
    if (!mapped(snapshot, &value)) return nullptr;
    const bt_stream* stream =
        beginning ? bt_message_stream_beginning_borrow_stream_const(m) : bt_message_stream_end_borrow_stream_const(m);
    bt_message* out = beginning ? bt_message_stream_beginning_create(self, stream) : bt_message_stream_end_create(self, stream);
    if (out == nullptr) return fail("out of memory"), nullptr;
    if (beginning) {
      bt_message_stream_beginning_set_default_clock_snapshot(out, value);
    } else {
      bt_message_stream_end_set_default_clock_snapshot(out, value);
    }
    return out;
  }

  const bt_message* retimed_discarded(const bt_message* m) {
    const bool events = bt_message_get_type(m) == BT_MESSAGE_TYPE_DISCARDED_EVENTS;
    const bt_stream* stream =
        events ? bt_message_discarded_events_borrow_stream_const(m) : bt_message_discarded_packets_borrow_stream_const(m);
    const bt_stream_class* stream_class = bt_stream_borrow_class_const(stream);
    const bool has_times = events ? bt_stream_class_discarded_events_have_default_clock_snapshots(stream_class)
                                  : bt_stream_class_discarded_packets_have_default_clock_snapshots(stream_class);
    if (!has_times) {
      bt_message_get_ref(m);
      return m;
    }
    uint64_t begin = 0;
    uint64_t end = 0;
    if (!mapped(events ? bt_message_discarded_events_borrow_beginning_default_clock_snapshot_const(m)
                       : bt_message_discarded_packets_borrow_beginning_default_clock_snapshot_const(m),
                &begin) ||
        !mapped(events ? bt_message_discarded_events_borrow_end_default_clock_snapshot_const(m)
                       : bt_message_discarded_packets_borrow_end_default_clock_snapshot_const(m),
                &end)) {
      return nullptr;
    }
    uint64_t count = 0;
    bt_message* out = nullptr;
    if (events) {
      out = bt_message_discarded_events_create_with_default_clock_snapshots(self, stream, begin, end);
      if (out != nullptr && bt_message_discarded_events_get_count(m, &count) == BT_PROPERTY_AVAILABILITY_AVAILABLE) {
        bt_message_discarded_events_set_count(out, count);
      }
    } else {
      out = bt_message_discarded_packets_create_with_default_clock_snapshots(self, stream, begin, end);
      if (out != nullptr && bt_message_discarded_packets_get_count(m, &count) == BT_PROPERTY_AVAILABILITY_AVAILABLE) {
        bt_message_discarded_packets_set_count(out, count);
      }
    }
    if (out == nullptr) return fail("out of memory"), nullptr;
    return out;
  }
};

bt_component_class_initialize_method_status filter_initialize(bt_self_component_filter* self,
                                                              bt_self_component_filter_configuration*, const bt_value*,
                                                              void* data) {
  auto* settings = static_cast<RetimeSettings*>(data);
  auto* state = new FilterState{settings, self};
  bt_self_component_set_data(bt_self_component_filter_as_self_component(self), state);
  for (uint64_t i = 0; i < settings->inputs; ++i) {
    if (bt_self_component_filter_add_input_port(self, ("in" + std::to_string(i)).c_str(), nullptr, nullptr) !=
        BT_SELF_COMPONENT_ADD_PORT_STATUS_OK) {
      return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
    }
  }
  if (bt_self_component_filter_add_output_port(self, "out", nullptr, nullptr) != BT_SELF_COMPONENT_ADD_PORT_STATUS_OK) {
    return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
  }
  return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

void filter_finalize(bt_self_component_filter* self) {
  delete static_cast<FilterState*>(bt_self_component_get_data(bt_self_component_filter_as_self_component(self)));
}

bt_message_iterator_class_initialize_method_status iterator_initialize(bt_self_message_iterator* self,
                                                                       bt_self_message_iterator_configuration*,
                                                                       bt_self_component_port_output*) {
  auto* filter = static_cast<FilterState*>(bt_self_component_get_data(bt_self_message_iterator_borrow_component(self)));
  auto* state = new IteratorState;
  state->filter = filter;
  state->self = self;
  bt_self_message_iterator_set_data(self, state);
  for (uint64_t i = 0; i < filter->settings->inputs; ++i) {
    bt_message_iterator* upstream = nullptr;
    if (bt_message_iterator_create_from_message_iterator(
            self, bt_self_component_filter_borrow_input_port_by_index(filter->self, i), &upstream) !=
        BT_MESSAGE_ITERATOR_CREATE_FROM_MESSAGE_ITERATOR_STATUS_OK) {
      return BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_ERROR;
    }
    state->upstream.emplace_back(upstream);
  }
  return BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

void iterator_finalize(bt_self_message_iterator* self) {
  delete static_cast<IteratorState*>(bt_self_message_iterator_get_data(self));
}

bt_message_iterator_class_next_method_status iterator_next(bt_self_message_iterator* self,
                                                           bt_message_array_const messages, uint64_t capacity,
                                                           uint64_t* count) {
  auto& state = *static_cast<IteratorState*>(bt_self_message_iterator_get_data(self));
  // Streams are independent in a CTF trace: take each upstream port's
  // messages in turn, keeping each stream's own order.
  while (state.ready.empty()) {
    bool any = false;
    for (std::size_t tried = 0; tried < state.upstream.size() && state.ready.empty(); ++tried) {
      bt::MessageIteratorRef& upstream = state.upstream[state.next_upstream];
      state.next_upstream = (state.next_upstream + 1) % state.upstream.size();
      if (!upstream) continue;
      any = true;
      bt_message_array_const batch = nullptr;
      uint64_t n = 0;
      switch (bt_message_iterator_next(upstream.get(), &batch, &n)) {
        case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK:
          break;
        case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
          upstream.reset();
          continue;
        case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
          return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_AGAIN;
        case BT_MESSAGE_ITERATOR_NEXT_STATUS_MEMORY_ERROR:
          return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_MEMORY_ERROR;
        default:
          return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_ERROR;
      }
      bool failed = false;
      for (uint64_t i = 0; i < n; ++i) {
        if (!failed) {
          const bt_message* out = state.retimed(batch[i]);
          if (out == nullptr) {
            failed = true;
          } else {
            state.ready.push_back(out);
          }
        }
        bt_message_put_ref(batch[i]);
      }
      if (failed) {
        state.drop_ready();
        return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_ERROR;
      }
    }
    if (!any) return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_END;
  }
  uint64_t n = 0;
  while (n < capacity && !state.ready.empty()) {
    messages[n++] = state.ready.front();
    state.ready.pop_front();
  }
  *count = n;
  return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_OK;
}

}  // namespace

bt::FilterClassRef make_retime_filter_class() {
  const bt::IteratorClassRef iterator_class(bt_message_iterator_class_create(iterator_next));
  if (!iterator_class) return nullptr;
  bt_message_iterator_class_set_initialize_method(iterator_class.get(), iterator_initialize);
  bt_message_iterator_class_set_finalize_method(iterator_class.get(), iterator_finalize);
  bt::FilterClassRef filter(bt_component_class_filter_create("tracesync-retime", iterator_class.get()));
  if (!filter) return nullptr;
  bt_component_class_filter_set_initialize_method(filter.get(), filter_initialize);
  bt_component_class_filter_set_finalize_method(filter.get(), filter_finalize);
  return filter;
}

}  // namespace tracesync::apply
