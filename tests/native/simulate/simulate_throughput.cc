// SPDX-License-Identifier: EPL-2.0
// Figures, not a test: how fast traces are written through babeltrace2.
//
//   simulate_throughput OUTPUT_DIR [HOSTS [DURATION_S [RATE [FILLER_RATIO]]]]
//       simulate::run end to end (generation, babeltrace2 and sink.ctf.fs,
//       truth file), with the default options otherwise.
//   simulate_throughput --sink-ceiling OUTPUT_DIR [EVENTS]
//       sink.ctf.fs alone: a source that emits trivial events (one 32-bit
//       integer each) in packets of 4096, the ceiling of any writer.
// OUTPUT_DIR is removed first, before the clock starts.
#include <babeltrace2/babeltrace.h>

#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "simulate/simulate.h"

namespace {

// CPU time of the process: what one core spent, whatever else the machine runs.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

struct TrivialSource {
  uint64_t events = 0;
  uint64_t emitted = 0;
  int phase = 0;  // 0 stream beginning, 1 events, 2 packet end, 3 stream end, 4 done
  bt_trace* trace = nullptr;
  bt_stream* stream = nullptr;
  bt_packet* packet = nullptr;
  bt_event_class* event_class = nullptr;
};

bt_component_class_initialize_method_status trivial_initialize(bt_self_component_source* self,
                                                               bt_self_component_source_configuration*,
                                                               const bt_value*, void* data) {
  auto* source = static_cast<TrivialSource*>(data);
  bt_self_component* component = bt_self_component_source_as_self_component(self);
  bt_self_component_set_data(component, source);
  bt_trace_class* trace_class = bt_trace_class_create(component);
  bt_stream_class* stream_class = bt_stream_class_create(trace_class);
  bt_clock_class* clock = bt_clock_class_create(component);
  bt_stream_class_set_default_clock_class(stream_class, clock);
  bt_stream_class_set_supports_packets(stream_class, BT_TRUE, BT_TRUE, BT_TRUE);
  source->event_class = bt_event_class_create(stream_class);
  bt_event_class_set_name(source->event_class, "trivial");
  bt_field_class* payload = bt_field_class_structure_create(trace_class);
  bt_field_class* value = bt_field_class_integer_unsigned_create(trace_class);
  bt_field_class_structure_append_member(payload, "value", value);
  bt_event_class_set_payload_field_class(source->event_class, payload);
  source->trace = bt_trace_create(trace_class);
  source->stream = bt_stream_create(stream_class, source->trace);
  bt_field_class_put_ref(value);
  bt_field_class_put_ref(payload);
  bt_clock_class_put_ref(clock);
  bt_stream_class_put_ref(stream_class);
  bt_trace_class_put_ref(trace_class);
  bt_self_component_source_add_output_port(self, "out", nullptr, nullptr);
  return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

bt_message_iterator_class_next_method_status trivial_next(bt_self_message_iterator* self,
                                                         bt_message_array_const messages, uint64_t capacity,
                                                         uint64_t* count) {
  auto* s = static_cast<TrivialSource*>(
      bt_self_component_get_data(bt_self_message_iterator_borrow_component(self)));
  *count = 0;
  while (*count < capacity && s->phase != 4) {
    if (s->phase == 0) {
      messages[(*count)++] = bt_message_stream_beginning_create(self, s->stream);
      s->phase = 1;
    } else if (s->phase == 1 && s->emitted == s->events) {
      s->phase = s->packet != nullptr ? 2 : 3;
    } else if (s->phase == 1 && s->packet == nullptr) {
      s->packet = bt_packet_create(s->stream);
      messages[(*count)++] = bt_message_packet_beginning_create_with_default_clock_snapshot(self, s->packet, s->emitted);
    } else if (s->phase == 1) {
      bt_message* m = bt_message_event_create_with_packet_and_default_clock_snapshot(self, s->event_class, s->packet,
                                                                                     s->emitted);
      bt_field* payload = bt_event_borrow_payload_field(bt_message_event_borrow_event(m));
      bt_field_integer_unsigned_set_value(bt_field_structure_borrow_member_field_by_index(payload, 0), s->emitted);
      messages[(*count)++] = m;
      if (++s->emitted % 4096 == 0) s->phase = 2;
    } else if (s->phase == 2) {
      messages[(*count)++] = bt_message_packet_end_create_with_default_clock_snapshot(self, s->packet, s->emitted);
      bt_packet_put_ref(s->packet);
      s->packet = nullptr;
      s->phase = s->emitted == s->events ? 3 : 1;
    } else {
      messages[(*count)++] = bt_message_stream_end_create(self, s->stream);
      s->phase = 4;
    }
  }
  return *count > 0 ? BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_OK : BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_END;
}

int sink_ceiling(const std::string& output, uint64_t events) {
  TrivialSource source;
  source.events = events;
  const bt_plugin* ctf = nullptr;
  if (bt_plugin_find("ctf", BT_TRUE, BT_FALSE, BT_TRUE, BT_TRUE, BT_FALSE, &ctf) != BT_PLUGIN_FIND_STATUS_OK) {
    std::fprintf(stderr, "no ctf plugin\n");
    return 1;
  }
  bt_message_iterator_class* iterator_class = bt_message_iterator_class_create(trivial_next);
  bt_component_class_source* source_class = bt_component_class_source_create("trivial", iterator_class);
  bt_component_class_source_set_initialize_method(source_class, trivial_initialize);
  bt_graph* graph = bt_graph_create(0);
  const bt_component_source* src = nullptr;
  const bt_component_sink* sink = nullptr;
  bt_value* params = bt_value_map_create();
  bt_value_map_insert_string_entry(params, "path", output.c_str());
  bt_value_map_insert_bool_entry(params, "assume-single-trace", BT_TRUE);
  bt_value_map_insert_bool_entry(params, "quiet", BT_TRUE);
  bt_graph_add_source_component_with_initialize_method_data(graph, source_class, "trivial", nullptr, &source,
                                                            BT_LOGGING_LEVEL_NONE, &src);
  bt_graph_add_sink_component(graph, bt_plugin_borrow_sink_component_class_by_name_const(ctf, "fs"), "sink", params,
                              BT_LOGGING_LEVEL_NONE, &sink);
  bt_graph_connect_ports(graph, bt_component_source_borrow_output_port_by_index_const(src, 0),
                         bt_component_sink_borrow_input_port_by_name_const(sink, "in"), nullptr);
  const auto begin = std::chrono::steady_clock::now();
  const double cpu_begin = cpu_seconds();
  bt_graph_run_status status;
  do {
    status = bt_graph_run(graph);
  } while (status == BT_GRAPH_RUN_STATUS_AGAIN);
  bt_stream_put_ref(source.stream);
  bt_trace_put_ref(source.trace);
  bt_event_class_put_ref(source.event_class);
  bt_graph_put_ref(graph);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  const double cpu = cpu_seconds() - cpu_begin;
  bt_value_put_ref(params);
  bt_component_class_source_put_ref(source_class);
  bt_message_iterator_class_put_ref(iterator_class);
  bt_plugin_put_ref(ctf);
  if (status != BT_GRAPH_RUN_STATUS_OK) {
    std::fprintf(stderr, "the graph failed\n");
    return 1;
  }
  std::printf("sink.ctf.fs ceiling: %llu trivial events in %.3f s wall, %.3f s CPU: %.0f events/s wall, %.0f per CPU s\n",
              static_cast<unsigned long long>(source.emitted), seconds, cpu,
              static_cast<double>(source.emitted) / seconds, static_cast<double>(source.emitted) / cpu);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  using tracesync::simulate::SimulationOptions;
  if (argc >= 3 && std::string(argv[1]) == "--sink-ceiling") {
    std::filesystem::remove_all(argv[2]);
    return sink_ceiling(argv[2], argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 2'000'000);
  }
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s OUTPUT_DIR [HOSTS [DURATION_S [RATE [FILLER_RATIO]]]]\n", argv[0]);
    std::fprintf(stderr, "       %s --sink-ceiling OUTPUT_DIR [EVENTS]\n", argv[0]);
    return 2;
  }
  SimulationOptions options;
  options.output_dir = argv[1];
  std::filesystem::remove_all(options.output_dir);
  if (argc > 2) options.hosts = static_cast<uint32_t>(std::strtoul(argv[2], nullptr, 10));
  if (argc > 3) options.duration_s = std::strtod(argv[3], nullptr);
  if (argc > 4) options.message_rate = std::strtod(argv[4], nullptr);
  if (argc > 5) options.filler_ratio = std::strtod(argv[5], nullptr);
  try {
    const auto begin = std::chrono::steady_clock::now();
    const double cpu_begin = cpu_seconds();
    const auto summary = tracesync::simulate::run(options);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    const double cpu = cpu_seconds() - cpu_begin;
    std::printf("hosts %u, links %llu, segments %llu (lost %llu, retransmitted %llu)\n", options.hosts,
                static_cast<unsigned long long>(summary.links), static_cast<unsigned long long>(summary.transmissions),
                static_cast<unsigned long long>(summary.lost),
                static_cast<unsigned long long>(summary.retransmissions));
    std::printf("events %llu in %.3f s wall, %.3f s CPU: %.0f events/s wall, %.0f per CPU s\n",
                static_cast<unsigned long long>(summary.events), seconds, cpu,
                static_cast<double>(summary.events) / seconds, static_cast<double>(summary.events) / cpu);
  } catch (const tracesync::simulate::SimulationError& e) {
    std::fprintf(stderr, "simulate: %s\n", e.what());
    return 1;
  }
  return 0;
}
