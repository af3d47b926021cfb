// SPDX-License-Identifier: EPL-2.0
#include "simulate/ctf_trace_writer.h"

#include <ctime>
#include <exception>
#include <optional>

#include "bt/error.h"
#include "simulate/host_timeline.h"
#include "simulate/lttng_kernel_schema.h"
#include "simulate/lttng_payloads.h"
#include "simulate/simulation_error.h"
#include "simulate/trace_uuid_stamp.h"

namespace tracesync::simulate {
namespace {

using model::Nanoseconds;

// Packets of ~100-200 KiB, the size of LTTng sub-buffers. sink.ctf.fs grows a
// packet's file mapping 32 KiB at a time (unmap, fallocate, map again), so
// much larger packets only cost more.
constexpr uint64_t kEventsPerPacket = 4096;
constexpr uint64_t kProgressEvery = 65'536;

// The epoch time as LTTng's trace_creation_datetime writes it (ISO 8601 basic, UTC).
std::string creation_datetime(Nanoseconds epoch_ns) {
  const std::time_t seconds = epoch_ns / 1'000'000'000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y%m%dT%H%M%S+0000", &utc);
  return text;
}

// One host's trace as the messages of our source component: all its CPU
// streams through one output port, in time order. Lives for one graph run;
// babeltrace2 reaches it through the component's and iterator's data.
class HostSource {
 public:
  HostSource(const Experiment& experiment, const std::vector<Transmission>& transmissions,
             const SimulationOptions& options, uint32_t host, const EventProgress& progress)
      : experiment_(experiment),
        options_(options),
        host_(experiment.hosts[host]),
        progress_(progress),
        timeline_(experiment, transmissions, options, host),
        payloads_(experiment, transmissions, host, timeline_.processes(), options.user_space),
        last_time_(host_.clock.local_ns(experiment.start_ns)) {}

  void build_schema(bt_self_component* component) {
    schema_.emplace(component, host_, options_.plain_receive_name, options_.user_space);
  }

  void create_trace() {
    trace_.reset(bt_trace_create(schema_->trace_class()));
    if (!trace_) throw SimulationError("babeltrace2 could not create a trace");
    bt_trace* trace = trace_.get();
    if (bt_trace_set_name(trace, host_.name.c_str()) != 0) throw SimulationError("babeltrace2 refused the trace name");
    bt_trace_set_uuid(trace, host_.trace_uuid.data());
    // The environment lttng-modules 2.12 writes, or lttng-ust 2.13's.
    set_env(trace, "hostname", host_.name);
    if (options_.user_space) {
      set_env(trace, "domain", "ust");
      set_env(trace, "tracer_name", "lttng-ust");
      set_env(trace, "tracer_major", 2);
      set_env(trace, "tracer_minor", 13);
      set_env(trace, "tracer_patchlevel", 5);
      set_env(trace, "tracer_buffering_scheme", "uid");
      set_env(trace, "tracer_buffering_id", 1000);
      set_env(trace, "architecture_bit_width", 64);
    } else {
      set_env(trace, "domain", "kernel");
      set_env(trace, "sysname", "Linux");
      set_env(trace, "kernel_release", "6.1.0-18-amd64");
      set_env(trace, "kernel_version", "#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)");
      set_env(trace, "tracer_name", "lttng-modules");
      set_env(trace, "tracer_major", 2);
      set_env(trace, "tracer_minor", 12);
      set_env(trace, "tracer_patchlevel", 14);
      set_env(trace, "trace_buffering_scheme", "global");
    }
    set_env(trace, "trace_name", "tracesync-simulation");
    set_env(trace, "trace_creation_datetime", creation_datetime(experiment_.start_ns));

    for (uint32_t cpu = 0; cpu < options_.cpus_per_host; ++cpu) {
      bt::StreamRef stream(bt_stream_create(schema_->stream_class(), trace));
      if (!stream) throw SimulationError("babeltrace2 could not create a stream");
      const std::string name = "channel0_" + std::to_string(cpu);
      if (bt_stream_set_name(stream.get(), name.c_str()) != 0) throw SimulationError("babeltrace2 refused " + name);
      Stream& s = streams_.emplace_back();
      s.stream = std::move(stream);
    }
  }

  bt_message_iterator_class_next_method_status next(bt_self_message_iterator* iterator,
                                                    bt_message_array_const messages, uint64_t capacity,
                                                    uint64_t* count) {
    iterator_ = iterator;
    messages_ = messages;
    count_ = count;
    *count = 0;
    while (*count < capacity && phase_ != Phase::kDone) step();
    return *count > 0 ? BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_OK : BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_END;
  }

  uint64_t events() const { return events_; }
  bool cancelled() const { return cancelled_; }
  std::string error;  // what went wrong inside a babeltrace2 callback

 private:
  enum class Phase { kBeginStreams, kEvents, kCloseStreams, kDone };

  struct Stream {
    bt::StreamRef stream;
    bt::PacketRef packet;  // the open packet, if any
    uint64_t packet_events = 0;
    bool had_packet = false;
  };

  static void set_env(bt_trace* trace, const char* name, const std::string& value) {
    if (bt_trace_set_environment_entry_string(trace, name, value.c_str()) != 0) {
      throw SimulationError(std::string("babeltrace2 refused the environment entry ") + name);
    }
  }
  static void set_env(bt_trace* trace, const char* name, int64_t value) {
    if (bt_trace_set_environment_entry_integer(trace, name, value) != 0) {
      throw SimulationError(std::string("babeltrace2 refused the environment entry ") + name);
    }
  }

  // Emits exactly one message per call, so any capacity works.
  void step() {
    switch (phase_) {
      case Phase::kBeginStreams:
        emit(bt_message_stream_beginning_create(iterator_, streams_[cursor_].stream.get()));
        if (++cursor_ == streams_.size()) phase_ = Phase::kEvents;
        return;
      case Phase::kEvents:
        event_step();
        return;
      case Phase::kCloseStreams:
        close_step();
        return;
      case Phase::kDone:
        return;
    }
  }

  void event_step() {
    if (!pending_) {
      KernelEvent event;
      if (!timeline_.next(event)) {
        start_closing();
        return;
      }
      pending_ = event;
    }
    Stream& s = streams_[pending_->cpu];
    // A full packet ends where the stream's next event begins the next one.
    if (s.packet && s.packet_events == kEventsPerPacket) {
      end_packet(s, pending_->time);
      return;
    }
    if (!s.packet) {
      begin_packet(s, pending_->cpu, pending_->time);
      return;
    }
    bt_message* message = bt_message_event_create_with_packet_and_default_clock_snapshot(
        iterator_, schema_->event_class(pending_->kind), s.packet.get(), clock_value(pending_->time));
    if (message == nullptr) throw SimulationError("babeltrace2 could not create an event message");
    payloads_.fill(bt_event_borrow_payload_field(bt_message_event_borrow_event(message)), *pending_);
    emit(message);
    last_time_ = pending_->time;
    pending_.reset();
    ++s.packet_events;
    if (++events_ % kProgressEvery == 0 && progress_ && !progress_(events_)) {
      cancelled_ = true;
      start_closing();
    }
  }

  void start_closing() {
    phase_ = Phase::kCloseStreams;
    cursor_ = 0;
  }

  // Every stream gets at least one packet, as LTTng writes, then its end.
  void close_step() {
    Stream& s = streams_[cursor_];
    if (s.packet) {
      end_packet(s, last_time_);
      return;
    }
    if (!s.had_packet) {
      begin_packet(s, static_cast<uint32_t>(cursor_), last_time_);
      return;
    }
    emit(bt_message_stream_end_create(iterator_, s.stream.get()));
    if (++cursor_ == streams_.size()) {
      phase_ = Phase::kDone;
      streams_.clear();  // our references: the sink writes the metadata once the trace goes
      trace_.reset();
    }
  }

  void begin_packet(Stream& s, uint32_t cpu, Nanoseconds time) {
    s.packet.reset(bt_packet_create(s.stream.get()));
    if (!s.packet) throw SimulationError("babeltrace2 could not create a packet");
    bt_field* context = bt_packet_borrow_context_field(s.packet.get());
    bt_field_integer_unsigned_set_value(
        bt_field_structure_borrow_member_field_by_index(context, LttngKernelSchema::kCpuIdMember), cpu);
    s.packet_events = 0;
    s.had_packet = true;
    emit(bt_message_packet_beginning_create_with_default_clock_snapshot(iterator_, s.packet.get(), clock_value(time)));
  }

  void end_packet(Stream& s, Nanoseconds time) {
    emit(bt_message_packet_end_create_with_default_clock_snapshot(iterator_, s.packet.get(), clock_value(time)));
    s.packet.reset();
  }

  // Clock values count ns since the host's boot, the clock class offset.
  uint64_t clock_value(Nanoseconds local) const { return static_cast<uint64_t>(local - host_.boot_epoch_ns); }

  void emit(bt_message* message) {
    if (message == nullptr) throw SimulationError("babeltrace2 could not create a message");
    messages_[(*count_)++] = message;
  }

  const Experiment& experiment_;
  const SimulationOptions& options_;
  const SimulatedHost& host_;
  const EventProgress& progress_;
  HostTimeline timeline_;
  LttngPayloads payloads_;
  std::optional<LttngKernelSchema> schema_;
  bt::TraceRef trace_;
  std::vector<Stream> streams_;

  Phase phase_ = Phase::kBeginStreams;
  std::size_t cursor_ = 0;
  std::optional<KernelEvent> pending_;
  Nanoseconds last_time_;
  uint64_t events_ = 0;
  bool cancelled_ = false;

  // The current next() call's output.
  bt_self_message_iterator* iterator_ = nullptr;
  bt_message_array_const messages_ = nullptr;
  uint64_t* count_ = nullptr;
};

HostSource* source_of(bt_self_component* component) {
  return static_cast<HostSource*>(bt_self_component_get_data(component));
}

// The babeltrace2 callbacks: no exception may cross into C.
bt_component_class_initialize_method_status source_initialize(bt_self_component_source* self,
                                                              bt_self_component_source_configuration*,
                                                              const bt_value*, void* data) {
  auto* source = static_cast<HostSource*>(data);
  bt_self_component* component = bt_self_component_source_as_self_component(self);
  bt_self_component_set_data(component, source);
  try {
    source->build_schema(component);
  } catch (const std::exception& e) {
    source->error = e.what();
    return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_ERROR;
  }
  if (bt_self_component_source_add_output_port(self, "out", nullptr, nullptr) != BT_SELF_COMPONENT_ADD_PORT_STATUS_OK) {
    return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_ERROR;
  }
  return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

bt_message_iterator_class_initialize_method_status iterator_initialize(bt_self_message_iterator* self,
                                                                      bt_self_message_iterator_configuration*,
                                                                      bt_self_component_port_output*) {
  HostSource* source = source_of(bt_self_message_iterator_borrow_component(self));
  try {
    source->create_trace();
  } catch (const std::exception& e) {
    source->error = e.what();
    return BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_ERROR;
  }
  return BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

bt_message_iterator_class_next_method_status iterator_next(bt_self_message_iterator* self,
                                                          bt_message_array_const messages, uint64_t capacity,
                                                          uint64_t* count) {
  HostSource* source = source_of(bt_self_message_iterator_borrow_component(self));
  try {
    return source->next(self, messages, capacity, count);
  } catch (const std::exception& e) {
    source->error = e.what();
  } catch (...) {
    source->error = "unexpected failure while generating events";
  }
  // Messages already handed over would leak with an error status: put them.
  for (uint64_t i = 0; i < *count; ++i) bt_message_put_ref(messages[i]);
  *count = 0;
  return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_ERROR;
}

}  // namespace

CtfTraceWriter::CtfTraceWriter() {
  const bt_plugin* plugin = nullptr;
  const bt_plugin_find_status found = bt_plugin_find("ctf", BT_TRUE, BT_FALSE, BT_TRUE, BT_TRUE, BT_FALSE, &plugin);
  if (found != BT_PLUGIN_FIND_STATUS_OK) {
    const std::string causes = bt::take_bt_error_causes();
    throw SimulationError("babeltrace2's ctf plugin was not found (is babeltrace2 installed?)" +
                          (causes.empty() ? "" : ": " + causes));
  }
  ctf_plugin_.reset(plugin);
  sink_class_ = bt_plugin_borrow_sink_component_class_by_name_const(plugin, "fs");
  if (sink_class_ == nullptr) throw SimulationError("babeltrace2's ctf plugin has no sink.ctf.fs component class");

  iterator_class_.reset(bt_message_iterator_class_create(iterator_next));
  if (!iterator_class_) throw SimulationError("babeltrace2 could not create a message iterator class");
  bt_message_iterator_class_set_initialize_method(iterator_class_.get(), iterator_initialize);
  source_class_.reset(bt_component_class_source_create("tracesync-simulate", iterator_class_.get()));
  if (!source_class_) throw SimulationError("babeltrace2 could not create a source component class");
  bt_component_class_source_set_initialize_method(source_class_.get(), source_initialize);
}

HostTraceResult CtfTraceWriter::write_host(const Experiment& experiment, const std::vector<Transmission>& transmissions,
                                           const SimulationOptions& options, uint32_t host,
                                           const std::string& directory, const EventProgress& progress) {
  HostSource source(experiment, transmissions, options, host, progress);
  const std::string where = "writing the trace of " + experiment.hosts[host].name + " to " + directory;
  auto fail = [&](const std::string& what) {
    std::string causes = bt::take_bt_error_causes();
    std::string message = where + ": " + what;
    if (!source.error.empty()) message += ": " + source.error;
    if (!causes.empty()) message += " (babeltrace2: " + causes + ")";
    return SimulationError(message);
  };
  {
    bt::GraphRef graph(bt_graph_create(0));
    if (!graph) throw fail("cannot create a babeltrace2 graph");
    const bt_component_source* source_component = nullptr;
    if (bt_graph_add_source_component_with_initialize_method_data(graph.get(), source_class_.get(), "simulation",
                                                                  nullptr, &source, BT_LOGGING_LEVEL_NONE,
                                                                  &source_component) != BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
      throw fail("cannot add the simulation source");
    }
    bt::ValueRef params(bt_value_map_create());
    if (!params || bt_value_map_insert_string_entry(params.get(), "path", directory.c_str()) != 0 ||
        bt_value_map_insert_bool_entry(params.get(), "assume-single-trace", BT_TRUE) != 0 ||
        bt_value_map_insert_bool_entry(params.get(), "quiet", BT_TRUE) != 0) {
      throw fail("cannot build the sink.ctf.fs parameters");
    }
    const bt_component_sink* sink_component = nullptr;
    if (bt_graph_add_sink_component(graph.get(), sink_class_, "ctf-fs", params.get(), BT_LOGGING_LEVEL_NONE,
                                    &sink_component) != BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
      throw fail("cannot add sink.ctf.fs");
    }
    if (bt_graph_connect_ports(graph.get(), bt_component_source_borrow_output_port_by_index_const(source_component, 0),
                               bt_component_sink_borrow_input_port_by_name_const(sink_component, "in"),
                               nullptr) != BT_GRAPH_CONNECT_PORTS_STATUS_OK) {
      throw fail("cannot connect the simulation source to sink.ctf.fs");
    }
    bt_graph_run_status status;
    do {
      status = bt_graph_run(graph.get());
    } while (status == BT_GRAPH_RUN_STATUS_AGAIN);
    if (status != BT_GRAPH_RUN_STATUS_OK) throw fail("the babeltrace2 graph failed");
  }  // the sink finalizes here and writes the metadata
  stamp_trace_uuid(directory, experiment.hosts[host].trace_uuid);
  return {source.events(), source.cancelled()};
}

}  // namespace tracesync::simulate
