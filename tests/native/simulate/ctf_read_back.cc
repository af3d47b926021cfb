// SPDX-License-Identifier: EPL-2.0
#include "ctf_read_back.h"

#include <babeltrace2/babeltrace.h>

#include <cstdio>

namespace tracesync::simulate::testing {
namespace {

struct SinkState {
  ReadBack* out = nullptr;
  bt_message_iterator* iterator = nullptr;
  bool first_event = true;
};

const bt_field* member(const bt_field* structure, const char* name) {
  return structure == nullptr ? nullptr : bt_field_structure_borrow_member_field_by_name_const(structure, name);
}

uint64_t unsigned_member(const bt_field* structure, const char* name) {
  const bt_field* f = member(structure, name);
  return f == nullptr ? 0 : bt_field_integer_unsigned_get_value(f);
}

std::vector<uint64_t> array_member(const bt_field* structure, const char* name) {
  std::vector<uint64_t> values;
  const bt_field* array = member(structure, name);
  if (array == nullptr) return values;
  for (uint64_t i = 0; i < bt_field_array_get_length(array); ++i) {
    values.push_back(bt_field_integer_unsigned_get_value(bt_field_array_borrow_element_field_by_index_const(array, i)));
  }
  return values;
}

std::string uuid_text(bt_uuid uuid) {
  char text[37];
  std::snprintf(text, sizeof text, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", uuid[0],
                uuid[1], uuid[2], uuid[3], uuid[4], uuid[5], uuid[6], uuid[7], uuid[8], uuid[9], uuid[10], uuid[11],
                uuid[12], uuid[13], uuid[14], uuid[15]);
  return text;
}

void read_trace_properties(const bt_stream* stream, ReadBack& out) {
  const bt_trace* trace = bt_stream_borrow_trace_const(stream);
  if (bt_trace_get_uuid(trace) != nullptr) out.trace_uuid = uuid_text(bt_trace_get_uuid(trace));
  for (uint64_t i = 0; i < bt_trace_get_environment_entry_count(trace); ++i) {
    const char* name = nullptr;
    const bt_value* value = nullptr;
    bt_trace_borrow_environment_entry_by_index_const(trace, i, &name, &value);
    if (bt_value_is_string(value)) out.env_strings[name] = bt_value_string_get(value);
    if (bt_value_is_signed_integer(value)) out.env_integers[name] = bt_value_integer_signed_get(value);
  }
  const bt_clock_class* clock = bt_stream_class_borrow_default_clock_class_const(bt_stream_borrow_class_const(stream));
  if (clock == nullptr) return;
  out.clock_name = bt_clock_class_get_name(clock) == nullptr ? "" : bt_clock_class_get_name(clock);
  if (bt_clock_class_get_uuid(clock) != nullptr) out.clock_uuid = uuid_text(bt_clock_class_get_uuid(clock));
  out.clock_frequency = bt_clock_class_get_frequency(clock);
  int64_t seconds = 0;
  uint64_t cycles = 0;
  bt_clock_class_get_offset(clock, &seconds, &cycles);
  out.clock_offset_ns = seconds * 1'000'000'000 + static_cast<int64_t>(cycles);
}

void read_event(const bt_message* message, SinkState& state) {
  const bt_event* event = bt_message_event_borrow_event_const(message);
  const bt_stream* stream = bt_event_borrow_stream_const(event);
  if (state.first_event) {
    read_trace_properties(stream, *state.out);
    state.first_event = false;
  }
  ReadEvent e;
  e.name = bt_event_class_get_name(bt_event_borrow_class_const(event));
  bt_clock_snapshot_get_ns_from_origin(bt_message_event_borrow_default_clock_snapshot_const(message),
                                       &e.ns_from_origin);
  e.stream_id = bt_stream_get_id(stream);
  if (bt_stream_get_name(stream) != nullptr) state.out->stream_names[e.stream_id] = bt_stream_get_name(stream);
  e.cpu_id = unsigned_member(bt_packet_borrow_context_field_const(bt_event_borrow_packet_const(event)), "cpu_id");

  const bt_field* payload = bt_event_borrow_payload_field_const(event);
  const bt_field* network = member(payload, "network_header");
  if (network != nullptr) {
    e.network_option = bt_field_class_variant_option_get_name(bt_field_variant_borrow_selected_option_class_const(network));
    const bt_field* ip = bt_field_variant_borrow_selected_option_field_const(network);
    e.saddr = array_member(ip, "saddr");
    e.daddr = array_member(ip, "daddr");
    const bt_field* transport = member(ip, "transport_header");
    if (transport != nullptr) {
      const bt_field* tcp = bt_field_variant_borrow_selected_option_field_const(transport);
      e.seq = unsigned_member(tcp, "seq");
      e.ack_seq = unsigned_member(tcp, "ack_seq");
      e.flags = unsigned_member(tcp, "flags");
    }
  }
  state.out->events.push_back(std::move(e));
}

bt_component_class_initialize_method_status sink_initialize(bt_self_component_sink* self,
                                                            bt_self_component_sink_configuration*, const bt_value*,
                                                            void* data) {
  bt_self_component_set_data(bt_self_component_sink_as_self_component(self), data);
  bt_self_component_sink_add_input_port(self, "in", nullptr, nullptr);
  return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

SinkState& state_of(bt_self_component_sink* self) {
  return *static_cast<SinkState*>(bt_self_component_get_data(bt_self_component_sink_as_self_component(self)));
}

bt_component_class_sink_graph_is_configured_method_status sink_configured(bt_self_component_sink* self) {
  SinkState& state = state_of(self);
  if (bt_message_iterator_create_from_sink_component(self, bt_self_component_sink_borrow_input_port_by_name(self, "in"),
                                                     &state.iterator) != BT_MESSAGE_ITERATOR_CREATE_FROM_SINK_COMPONENT_STATUS_OK) {
    return BT_COMPONENT_CLASS_SINK_GRAPH_IS_CONFIGURED_METHOD_STATUS_ERROR;
  }
  return BT_COMPONENT_CLASS_SINK_GRAPH_IS_CONFIGURED_METHOD_STATUS_OK;
}

bt_component_class_sink_consume_method_status sink_consume(bt_self_component_sink* self) {
  SinkState& state = state_of(self);
  bt_message_array_const messages = nullptr;
  uint64_t count = 0;
  switch (bt_message_iterator_next(state.iterator, &messages, &count)) {
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
      bt_message_iterator_put_ref(state.iterator);
      state.iterator = nullptr;
      return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_END;
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
      return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_AGAIN;
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK:
      break;
    default:
      return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_ERROR;
  }
  for (uint64_t i = 0; i < count; ++i) {
    if (bt_message_get_type(messages[i]) == BT_MESSAGE_TYPE_EVENT) read_event(messages[i], state);
    bt_message_put_ref(messages[i]);
  }
  return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_OK;
}

std::string take_error(const std::string& what) {
  std::string text = what;
  if (const bt_error* error = bt_current_thread_take_error()) {
    for (uint64_t i = 0; i < bt_error_get_cause_count(error); ++i) {
      text += std::string("; ") + bt_error_cause_get_message(bt_error_borrow_cause_by_index(error, i));
    }
    bt_error_release(error);
  }
  return text;
}

}  // namespace

ReadBack read_back(const std::string& trace_directory) {
  ReadBack out;
  SinkState state{&out};
  const bt_plugin* ctf = nullptr;
  const bt_plugin* utils = nullptr;
  bt_graph* graph = nullptr;
  bt_component_class_sink* sink_class = nullptr;
  bt_value* params = nullptr;
  auto cleanup = [&] {
    if (state.iterator != nullptr) bt_message_iterator_put_ref(state.iterator);
    bt_graph_put_ref(graph);
    bt_component_class_sink_put_ref(sink_class);
    bt_value_put_ref(params);
    bt_plugin_put_ref(ctf);
    bt_plugin_put_ref(utils);
  };
  if (bt_plugin_find("ctf", BT_TRUE, BT_FALSE, BT_TRUE, BT_TRUE, BT_FALSE, &ctf) != BT_PLUGIN_FIND_STATUS_OK ||
      bt_plugin_find("utils", BT_TRUE, BT_FALSE, BT_TRUE, BT_TRUE, BT_FALSE, &utils) != BT_PLUGIN_FIND_STATUS_OK) {
    out.error = take_error("babeltrace2 plugins ctf and utils not found");
    cleanup();
    return out;
  }
  graph = bt_graph_create(0);
  params = bt_value_map_create();
  bt_value* inputs = nullptr;
  bt_value_map_insert_empty_array_entry(params, "inputs", &inputs);
  bt_value_array_append_string_element(inputs, trace_directory.c_str());
  const bt_component_source* source = nullptr;
  const bt_component_filter* muxer = nullptr;
  const bt_component_sink* sink = nullptr;
  sink_class = bt_component_class_sink_create("read-back", sink_consume);
  bt_component_class_sink_set_initialize_method(sink_class, sink_initialize);
  bt_component_class_sink_set_graph_is_configured_method(sink_class, sink_configured);
  if (bt_graph_add_source_component(graph, bt_plugin_borrow_source_component_class_by_name_const(ctf, "fs"), "source",
                                    params, BT_LOGGING_LEVEL_NONE, &source) != BT_GRAPH_ADD_COMPONENT_STATUS_OK ||
      bt_graph_add_filter_component(graph, bt_plugin_borrow_filter_component_class_by_name_const(utils, "muxer"),
                                    "muxer", nullptr, BT_LOGGING_LEVEL_NONE, &muxer) != BT_GRAPH_ADD_COMPONENT_STATUS_OK ||
      bt_graph_add_sink_component_with_initialize_method_data(graph, sink_class, "sink", nullptr, &state,
                                                              BT_LOGGING_LEVEL_NONE, &sink) != BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
    out.error = take_error("cannot build the read-back graph");
    cleanup();
    return out;
  }
  // The muxer offers one more input port each time one gets connected.
  for (uint64_t i = 0; i < bt_component_source_get_output_port_count(source); ++i) {
    bt_graph_connect_ports(graph, bt_component_source_borrow_output_port_by_index_const(source, i),
                           bt_component_filter_borrow_input_port_by_index_const(muxer, i), nullptr);
  }
  bt_graph_connect_ports(graph, bt_component_filter_borrow_output_port_by_index_const(muxer, 0),
                         bt_component_sink_borrow_input_port_by_name_const(sink, "in"), nullptr);
  bt_graph_run_status status;
  do {
    status = bt_graph_run(graph);
  } while (status == BT_GRAPH_RUN_STATUS_AGAIN);
  if (status != BT_GRAPH_RUN_STATUS_OK) out.error = take_error("reading " + trace_directory + " failed");
  cleanup();
  return out;
}

}  // namespace tracesync::simulate::testing
