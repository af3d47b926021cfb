// SPDX-License-Identifier: EPL-2.0
#include "apply/full_rewrite_copy.h"

#include "apply/clock_fit.h"
#include "apply/ctf_metadata.h"
#include "apply/ctf_writer_sink.h"
#include "bt/error.h"
#include "bt/ref.h"

namespace tracesync::apply {

std::string write_full_rewrite_copy(const std::filesystem::path& from, const std::filesystem::path& to,
                                    const PiecewiseTransform& transform) {
  // Refuse before anything is written what the writer would stop on: a
  // time before a clock's origin.
  std::string problem;
  if (const auto text = read_metadata_text(from / "metadata", &problem)) {
    if (const auto blocks = find_clock_blocks(text->text, &problem)) {
      const TransformPiece& first = transform.pieces().front();
      for (const ClockBlock& block : *blocks) {
        if (transform.map(first.first_ns) < time_of_cycles(block.mapping, 0)) {
          return "babeltrace2 could not rewrite it: a time maps before its clock's origin (cycle values cannot be "
                 "negative)";
        }
      }
    }
  }
  const bt_plugin* found = nullptr;
  if (bt_plugin_find("ctf", BT_TRUE, BT_FALSE, BT_TRUE, BT_TRUE, BT_FALSE, &found) != BT_PLUGIN_FIND_STATUS_OK) {
    return bt::take_bt_error("babeltrace2's ctf plugin is not installed (package babeltrace2)");
  }
  const bt::PluginRef ctf(found);
  const bt::SinkClassRef writer = make_ctf_writer_sink_class();
  const bt::GraphRef graph(bt_graph_create(0));
  const bt::ValueRef source_params(bt_value_map_create());
  if (!writer || !graph || !source_params) return bt::take_bt_error("out of memory");
  bt_value* inputs = nullptr;
  bt_value_map_insert_empty_array_entry(source_params.get(), "inputs", &inputs);
  bt_value_array_append_string_element(inputs, from.c_str());

  const bt_component_source* source = nullptr;
  if (bt_graph_add_source_component(graph.get(), bt_plugin_borrow_source_component_class_by_name_const(ctf.get(), "fs"),
                                    "source", source_params.get(), BT_LOGGING_LEVEL_NONE, &source) !=
      BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
    return "babeltrace2 cannot open it: " + bt::take_bt_error("unknown error");
  }
  CtfWriterSettings settings{&transform, bt_component_source_get_output_port_count(source), to, {}};
  const bt_component_sink* sink = nullptr;
  if (bt_graph_add_sink_component_with_initialize_method_data(graph.get(), writer.get(), "writer", nullptr, &settings,
                                                              BT_LOGGING_LEVEL_NONE, &sink) !=
      BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
    return "cannot build the rewriting graph: " + bt::take_bt_error("unknown error");
  }
  for (uint64_t i = 0; i < settings.inputs; ++i) {
    if (bt_graph_connect_ports(graph.get(), bt_component_source_borrow_output_port_by_index_const(source, i),
                               bt_component_sink_borrow_input_port_by_index_const(sink, i), nullptr) !=
        BT_GRAPH_CONNECT_PORTS_STATUS_OK) {
      return "cannot connect a stream: " + bt::take_bt_error("unknown error");
    }
  }
  bt_graph_run_status status;
  do {
    status = bt_graph_run(graph.get());
  } while (status == BT_GRAPH_RUN_STATUS_AGAIN);
  if (status == BT_GRAPH_RUN_STATUS_OK) return {};
  // No half-written copy: what was written of it goes.
  const std::string cause = bt::take_bt_error("unknown error");
  std::error_code ignored;
  std::filesystem::remove_all(to, ignored);
  if (!settings.error.empty()) return "could not rewrite it: " + settings.error;
  return "babeltrace2 could not read it: " + cause;
}

}  // namespace tracesync::apply
