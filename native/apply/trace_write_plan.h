// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <babeltrace2/babeltrace.h>

#include <map>
#include <string>
#include <vector>

#include "apply/ctf_layout.h"
#include "apply/field_write_plan.h"

namespace tracesync::apply {

// The write plans of one event class: its event id and its own scopes.
struct EventWritePlan {
  bool known = false;  // an event class of the stream class has this id
  FieldWritePlan::Node specific_context = FieldWritePlan::kNone;
  FieldWritePlan::Node payload = FieldWritePlan::kNone;
};

// The write plans of one stream class: its layout, its scopes, and its
// event classes by id (ids are small and dense in CTF: a table).
struct StreamWritePlan {
  uint64_t id = 0;
  StreamLayout layout;
  FieldWritePlan::Node packet_context = FieldWritePlan::kNone;
  FieldWritePlan::Node common_context = FieldWritePlan::kNone;
  std::vector<EventWritePlan> events;
};

// Everything the writer needs to know of a trace class, worked out before
// the first byte is written: a trace class with anything the writer cannot
// write is refused before the copy starts.
class TraceWritePlan {
 public:
  // Plans every stream and event class of `tc`; unsupported() says what
  // could not be planned (empty when all could).
  explicit TraceWritePlan(const bt_trace_class* tc);

  const std::string& unsupported() const { return unsupported_; }
  const FieldWritePlan& fields() const { return fields_; }
  // The plan of a stream class of the trace class (null for another).
  const StreamWritePlan* stream(const bt_stream_class* sc) const;

 private:
  FieldWritePlan fields_;
  std::map<const bt_stream_class*, StreamWritePlan> streams_;
  std::string unsupported_;
};

}  // namespace tracesync::apply
