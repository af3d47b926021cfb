// SPDX-License-Identifier: EPL-2.0
#include "apply/trace_write_plan.h"

namespace tracesync::apply {
namespace {

// Event ids beyond this would make the table large; CTF writers number
// event classes from 0.
constexpr uint64_t kLargestEventId = 1 << 20;

}  // namespace

TraceWritePlan::TraceWritePlan(const bt_trace_class* tc) {
  const auto plan = [this](const bt_field_class* fc, const std::string& where) {
    if (fc == nullptr || !unsupported_.empty()) return FieldWritePlan::kNone;
    std::string why;
    const FieldWritePlan::Node node = fields_.add(fc, &why);
    if (node == FieldWritePlan::kNone) unsupported_ = where + ": " + why;
    return node;
  };
  const uint64_t stream_classes = bt_trace_class_get_stream_class_count(tc);
  for (uint64_t s = 0; s < stream_classes && unsupported_.empty(); ++s) {
    const bt_stream_class* sc = bt_trace_class_borrow_stream_class_by_index_const(tc, s);
    StreamWritePlan& stream = streams_[sc];
    stream.id = bt_stream_class_get_id(sc);
    stream.layout = StreamLayout::of(sc);
    const std::string where = "stream class " + std::to_string(stream.id);
    stream.packet_context = plan(bt_stream_class_borrow_packet_context_field_class_const(sc), where + " packet context");
    stream.common_context =
        plan(bt_stream_class_borrow_event_common_context_field_class_const(sc), where + " event context");
    const uint64_t event_classes = bt_stream_class_get_event_class_count(sc);
    for (uint64_t e = 0; e < event_classes && unsupported_.empty(); ++e) {
      const bt_event_class* ec = bt_stream_class_borrow_event_class_by_index_const(sc, e);
      const uint64_t id = bt_event_class_get_id(ec);
      const char* name = bt_event_class_get_name(ec);
      const std::string event = "event class '" + std::string(name != nullptr ? name : "") + "'";
      if (id > kLargestEventId) {
        unsupported_ = event + ": its id " + std::to_string(id) + " (above " + std::to_string(kLargestEventId) + ")";
        break;
      }
      if (stream.events.size() <= id) stream.events.resize(id + 1);
      EventWritePlan& plan_of_event = stream.events[id];
      plan_of_event.known = true;
      plan_of_event.specific_context = plan(bt_event_class_borrow_specific_context_field_class_const(ec), event + " context");
      plan_of_event.payload = plan(bt_event_class_borrow_payload_field_class_const(ec), event + " payload");
    }
  }
}

const StreamWritePlan* TraceWritePlan::stream(const bt_stream_class* sc) const {
  const auto it = streams_.find(sc);
  return it == streams_.end() ? nullptr : &it->second;
}

}  // namespace tracesync::apply
