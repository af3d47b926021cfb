// SPDX-License-Identifier: EPL-2.0
#include "apply/trace_events.h"

#include <babeltrace2/babeltrace.h>

#include <cstdio>

#include "bt/error.h"
#include "bt/ref.h"

namespace tracesync::apply::testing {
namespace {

struct SinkState {
  uint64_t ports = 0;
  TraceEvents* out = nullptr;
  std::function<void(const bt_trace*)> on_trace;
  std::vector<bt::MessageIteratorRef> iterators;  // null once ended
};

SinkState& state_of(bt_self_component_sink* self) {
  return *static_cast<SinkState*>(bt_self_component_get_data(bt_self_component_sink_as_self_component(self)));
}

bt_component_class_initialize_method_status sink_initialize(bt_self_component_sink* self,
                                                            bt_self_component_sink_configuration*, const bt_value*,
                                                            void* data) {
  bt_self_component_set_data(bt_self_component_sink_as_self_component(self), data);
  auto& state = *static_cast<SinkState*>(data);
  for (uint64_t i = 0; i < state.ports; ++i) {
    bt_self_component_sink_add_input_port(self, ("in" + std::to_string(i)).c_str(), nullptr, nullptr);
  }
  return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

bt_component_class_sink_graph_is_configured_method_status sink_configured(bt_self_component_sink* self) {
  SinkState& state = state_of(self);
  for (uint64_t i = 0; i < state.ports; ++i) {
    bt_message_iterator* iterator = nullptr;
    if (bt_message_iterator_create_from_sink_component(self, bt_self_component_sink_borrow_input_port_by_index(self, i),
                                                       &iterator) !=
        BT_MESSAGE_ITERATOR_CREATE_FROM_SINK_COMPONENT_STATUS_OK) {
      return BT_COMPONENT_CLASS_SINK_GRAPH_IS_CONFIGURED_METHOD_STATUS_ERROR;
    }
    state.iterators.emplace_back(iterator);
  }
  return BT_COMPONENT_CLASS_SINK_GRAPH_IS_CONFIGURED_METHOD_STATUS_OK;
}

void dump(const bt_field* field, std::string& out) {
  const bt_field_class_type type = bt_field_get_class_type(field);
  char number[64];
  if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER)) {
    out += std::to_string(bt_field_integer_unsigned_get_value(field));
  } else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER)) {
    out += std::to_string(bt_field_integer_signed_get_value(field));
  } else if (type == BT_FIELD_CLASS_TYPE_SINGLE_PRECISION_REAL) {
    std::snprintf(number, sizeof number, "%.9g", bt_field_real_single_precision_get_value(field));
    out += number;
  } else if (type == BT_FIELD_CLASS_TYPE_DOUBLE_PRECISION_REAL) {
    std::snprintf(number, sizeof number, "%.17g", bt_field_real_double_precision_get_value(field));
    out += number;
  } else if (type == BT_FIELD_CLASS_TYPE_STRING) {
    // Its length, not the C string: behind an empty string src.ctf.fs
    // 2.0.4 leaves an earlier event's text.
    out += "\"" + std::string(bt_field_string_get_value(field), bt_field_string_get_length(field)) + "\"";
  } else if (type == BT_FIELD_CLASS_TYPE_STRUCTURE) {
    const bt_field_class* fc = bt_field_borrow_class_const(field);
    out += "{";
    for (uint64_t i = 0; i < bt_field_class_structure_get_member_count(fc); ++i) {
      out += bt_field_class_structure_member_get_name(bt_field_class_structure_borrow_member_by_index_const(fc, i));
      out += "=";
      dump(bt_field_structure_borrow_member_field_by_index_const(field, i), out);
      out += " ";
    }
    out += "}";
  } else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_ARRAY)) {
    out += "[";
    for (uint64_t i = 0; i < bt_field_array_get_length(field); ++i) {
      dump(bt_field_array_borrow_element_field_by_index_const(field, i), out);
      out += " ";
    }
    out += "]";
  } else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_VARIANT)) {
    const bt_field_class* fc = bt_field_borrow_class_const(field);
    out += bt_field_class_variant_option_get_name(
        bt_field_class_variant_borrow_option_by_index_const(fc, bt_field_variant_get_selected_option_index(field)));
    out += ":";
    dump(bt_field_variant_borrow_selected_option_field_const(field), out);
  } else {
    out += "?" + std::to_string(static_cast<unsigned long long>(type));
  }
}

void dump_scope(const char* name, const bt_field* field, std::string& out) {
  if (field == nullptr) return;
  out += name;
  dump(field, out);
}

std::string fields_of(const bt_event* event) {
  std::string out;
  if (const bt_packet* packet = bt_event_borrow_packet_const(event)) {
    dump_scope("packet", bt_packet_borrow_context_field_const(packet), out);
  }
  dump_scope(" common", bt_event_borrow_common_context_field_const(event), out);
  dump_scope(" specific", bt_event_borrow_specific_context_field_const(event), out);
  dump_scope(" payload", bt_event_borrow_payload_field_const(event), out);
  return out;
}

void read_event(const bt_message* message, TraceEvents& out) {
  const bt_event* event = bt_message_event_borrow_event_const(message);
  const bt_stream* stream = bt_event_borrow_stream_const(event);
  const std::string key = std::to_string(bt_stream_class_get_id(bt_stream_borrow_class_const(stream))) + "/" +
                          std::to_string(bt_stream_get_id(stream));
  int64_t ns = 0;
  bt_clock_snapshot_get_ns_from_origin(bt_message_event_borrow_default_clock_snapshot_const(message), &ns);
  out.streams[key].push_back({bt_event_class_get_name(bt_event_borrow_class_const(event)), ns, fields_of(event)});
}

bt_component_class_sink_consume_method_status sink_consume(bt_self_component_sink* self) {
  SinkState& state = state_of(self);
  bool any = false;
  for (bt::MessageIteratorRef& iterator : state.iterators) {
    if (!iterator) continue;
    any = true;
    bt_message_array_const messages = nullptr;
    uint64_t count = 0;
    switch (bt_message_iterator_next(iterator.get(), &messages, &count)) {
      case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
        iterator.reset();
        continue;
      case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
        continue;
      case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK:
        break;
      default:
        return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_ERROR;
    }
    for (uint64_t i = 0; i < count; ++i) {
      if (state.on_trace && bt_message_get_type(messages[i]) == BT_MESSAGE_TYPE_STREAM_BEGINNING) {
        state.on_trace(bt_stream_borrow_trace_const(bt_message_stream_beginning_borrow_stream_const(messages[i])));
        state.on_trace = nullptr;
      }
      if (bt_message_get_type(messages[i]) == BT_MESSAGE_TYPE_EVENT) read_event(messages[i], *state.out);
      uint64_t discarded = 0;
      if (bt_message_get_type(messages[i]) == BT_MESSAGE_TYPE_DISCARDED_EVENTS &&
          bt_message_discarded_events_get_count(messages[i], &discarded) == BT_PROPERTY_AVAILABILITY_AVAILABLE) {
        state.out->discarded_events += discarded;
      }
      bt_message_put_ref(messages[i]);
    }
  }
  return any ? BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_OK : BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_END;
}

}  // namespace

uint64_t TraceEvents::count() const {
  uint64_t n = 0;
  for (const auto& [key, events] : streams) n += events.size();
  return n;
}

TraceEvents read_trace_events(const std::string& trace_directory) { return read_trace_events(trace_directory, nullptr); }

TraceEvents read_trace_events(const std::string& trace_directory,
                              const std::function<void(const bt_trace*)>& on_trace) {
  TraceEvents out;
  const bt_plugin* found = nullptr;
  if (bt_plugin_find("ctf", BT_TRUE, BT_FALSE, BT_TRUE, BT_TRUE, BT_FALSE, &found) != BT_PLUGIN_FIND_STATUS_OK) {
    out.error = bt::take_bt_error("babeltrace2's ctf plugin not found");
    return out;
  }
  const bt::PluginRef ctf(found);
  const bt::GraphRef graph(bt_graph_create(0));
  const bt::ValueRef params(bt_value_map_create());
  bt_value* inputs = nullptr;
  bt_value_map_insert_empty_array_entry(params.get(), "inputs", &inputs);
  bt_value_array_append_string_element(inputs, trace_directory.c_str());
  const bt_component_source* source = nullptr;
  if (bt_graph_add_source_component(graph.get(), bt_plugin_borrow_source_component_class_by_name_const(ctf.get(), "fs"),
                                    "source", params.get(), BT_LOGGING_LEVEL_NONE, &source) !=
      BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
    out.error = bt::take_bt_error("cannot open " + trace_directory);
    return out;
  }
  SinkState state{bt_component_source_get_output_port_count(source), &out, on_trace, {}};
  const bt::SinkClassRef sink_class(bt_component_class_sink_create("trace-events", sink_consume));
  bt_component_class_sink_set_initialize_method(sink_class.get(), sink_initialize);
  bt_component_class_sink_set_graph_is_configured_method(sink_class.get(), sink_configured);
  const bt_component_sink* sink = nullptr;
  if (bt_graph_add_sink_component_with_initialize_method_data(graph.get(), sink_class.get(), "sink", nullptr, &state,
                                                              BT_LOGGING_LEVEL_NONE, &sink) !=
      BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
    out.error = bt::take_bt_error("cannot add the sink");
    return out;
  }
  for (uint64_t i = 0; i < state.ports; ++i) {
    bt_graph_connect_ports(graph.get(), bt_component_source_borrow_output_port_by_index_const(source, i),
                           bt_component_sink_borrow_input_port_by_index_const(sink, i), nullptr);
  }
  bt_graph_run_status status;
  do {
    status = bt_graph_run(graph.get());
  } while (status == BT_GRAPH_RUN_STATUS_AGAIN);
  if (status != BT_GRAPH_RUN_STATUS_OK) out.error = bt::take_bt_error("reading " + trace_directory + " failed");
  state.iterators.clear();
  return out;
}

}  // namespace tracesync::apply::testing
