// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <babeltrace2/babeltrace.h>

#include <memory>

namespace tracesync::bt {

// Owns one babeltrace2 reference and puts it when done: a std::unique_ptr
// whose deleter is the object's put function.
template <auto Put>
struct Putter {
  template <typename T>
  void operator()(T* object) const {
    Put(object);
  }
};

template <typename T, auto Put>
using Ref = std::unique_ptr<T, Putter<Put>>;

// Library objects.
using GraphRef = Ref<bt_graph, &bt_graph_put_ref>;
using PluginRef = Ref<const bt_plugin, &bt_plugin_put_ref>;
using QueryExecutorRef = Ref<bt_query_executor, &bt_query_executor_put_ref>;
using ValueRef = Ref<bt_value, &bt_value_put_ref>;
using ConstValueRef = Ref<const bt_value, &bt_value_put_ref>;
using ErrorRef = Ref<const bt_error, &bt_error_release>;

// Component and iterator classes of our own.
using SourceClassRef = Ref<bt_component_class_source, &bt_component_class_source_put_ref>;
using FilterClassRef = Ref<bt_component_class_filter, &bt_component_class_filter_put_ref>;
using SinkClassRef = Ref<bt_component_class_sink, &bt_component_class_sink_put_ref>;
using IteratorClassRef = Ref<bt_message_iterator_class, &bt_message_iterator_class_put_ref>;
using MessageIteratorRef = Ref<bt_message_iterator, &bt_message_iterator_put_ref>;

// Trace IR.
using TraceClassRef = Ref<bt_trace_class, &bt_trace_class_put_ref>;
using StreamClassRef = Ref<bt_stream_class, &bt_stream_class_put_ref>;
using ClockClassRef = Ref<bt_clock_class, &bt_clock_class_put_ref>;
using EventClassRef = Ref<bt_event_class, &bt_event_class_put_ref>;
using FieldClassRef = Ref<bt_field_class, &bt_field_class_put_ref>;
using RangeSetRef = Ref<bt_integer_range_set_unsigned, &bt_integer_range_set_unsigned_put_ref>;
using TraceRef = Ref<bt_trace, &bt_trace_put_ref>;
using StreamRef = Ref<bt_stream, &bt_stream_put_ref>;
using PacketRef = Ref<bt_packet, &bt_packet_put_ref>;
using MessageRef = Ref<const bt_message, &bt_message_put_ref>;

}  // namespace tracesync::bt
