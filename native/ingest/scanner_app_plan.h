// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ctf/read_plan.h"
#include "ctf/trace_class.h"
#include "ingest/app_event_census.h"
#include "ingest/event_selection.h"
#include "match/packet_event.h"

namespace tracesync::ingest {

// AppEventDecoder's twin for the scanner: where one application send or
// receive class (`--messages`) keeps its key fields, worked out from a
// ctf::EventClass as AppEventDecoder works it out from babeltrace2's
// classes (the payload, else the event's own context, else its stream's
// event context; names as babeltrace2 gives them, then without one leading
// underscore; the same types and the same words for what a class lacks).
// It asks the read plan for the key fields (requests()) and makes the
// PacketEvent's key of what the plan captured (decode()).
//
// babeltrace2 drops the one leading underscore with which CTF 1.8's TSDL
// escapes a member's name: lttng-ust's `__msg_length` (the length of the
// sequence `_msg`) is its `_msg_length`, and a key names it `msg_length` or
// `_msg_length`. CTF 2 names are as written. `tsdl_names` says which.
class ScannerAppPlan {
 public:
  // nullopt when `event_class` is none of the selection's application events.
  static std::optional<ScannerAppPlan> for_class(const ctf::EventClass& event_class, const ctf::StreamClass& stream,
                                                 const EventSelection& selection, bool tsdl_names);

  match::MessageKind kind() const { return role_.kind; }
  match::Direction direction() const { return role_.direction; }
  // What the class lacks, naming the event and field; empty when it decodes.
  const std::string& problem() const { return problem_; }
  // What the read plans cannot capture for it (a key field in the stream's
  // event context, or a text array): the scanner then does not cover the
  // trace, and babeltrace2 reads it. Empty when they can.
  const std::string& not_covered() const { return not_covered_; }
  const std::vector<ctf::FieldRequest>& requests() const { return requests_; }

  // What a user-space event class (its name has a `:`) offers as key
  // fields, named as AppEventDecoder::offered names them; nullopt for others.
  static std::optional<OfferedEventClass> offered(const ctf::EventClass& event_class, const ctf::StreamClass& stream,
                                                  bool tsdl_names);

  // Sets out.kind, out.direction, out.layout and out.app from the captured fields.
  void decode(const ctf::CapturedField* captured, match::PacketEvent& out) const;

 private:
  enum class Type : uint8_t { kUnsigned, kSigned, kBool, kString };  // kBool: CTF 2's booleans

  AppEventRole role_;
  std::string problem_;
  std::string not_covered_;
  std::vector<Type> types_;  // of requests_, in order
  // A simultaneous signal's kind (MessageSpec::is_signal): each key field's
  // value follows a word naming its type (SignalFieldType), as
  // AppEventDecoder makes it, so that the filter compares exactly.
  bool typed_key_ = false;
  std::vector<ctf::FieldRequest> requests_;
};

}  // namespace tracesync::ingest
