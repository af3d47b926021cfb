#pragma once

#include <babeltrace2/babeltrace.h>

#include <memory>

namespace tracesync::ingest {

// Owns one babeltrace2 reference and puts it when done.
template <auto Put>
struct BtPut {
  template <typename T>
  void operator()(T* object) const {
    Put(object);
  }
};

using GraphRef = std::unique_ptr<bt_graph, BtPut<&bt_graph_put_ref>>;
using ValueRef = std::unique_ptr<bt_value, BtPut<&bt_value_put_ref>>;
using ConstValueRef = std::unique_ptr<const bt_value, BtPut<&bt_value_put_ref>>;
using PluginRef = std::unique_ptr<const bt_plugin, BtPut<&bt_plugin_put_ref>>;
using SinkClassRef = std::unique_ptr<bt_component_class_sink, BtPut<&bt_component_class_sink_put_ref>>;
using MessageIteratorRef = std::unique_ptr<bt_message_iterator, BtPut<&bt_message_iterator_put_ref>>;
using QueryExecutorRef = std::unique_ptr<bt_query_executor, BtPut<&bt_query_executor_put_ref>>;
using ErrorRef = std::unique_ptr<const bt_error, BtPut<&bt_error_release>>;

}  // namespace tracesync::ingest
