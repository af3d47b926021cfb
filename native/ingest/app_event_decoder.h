// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <babeltrace2/babeltrace.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ingest/app_event_census.h"
#include "ingest/event_selection.h"
#include "match/packet_event.h"

namespace tracesync::ingest {

// How to take the key of one application send or receive event class
// (`--messages`), worked out once per class: for each key field in declared
// order, where it is (the payload, the event's own context or its stream's
// event context) and its member index, so that each event costs a few
// indexed lookups. Field names are compared without one leading underscore
// (CTF 1.8 TSDL writes `_msg_id` for `msg_id`).
//
// A key field may be an integer of any size, signed or unsigned (an
// enumeration too), a boolean (0 or 1), or a string. A field the class
// lacks, or one of another type (a real, a structure, an array...), makes
// the class unusable: problem() names the event and the field, and its
// events decode as Layout::kUnknown.
class AppEventDecoder {
 public:
  // nullopt when `event_class` is none of the selection's application events.
  static std::optional<AppEventDecoder> for_class(const bt_event_class* event_class, const EventSelection& selection);

  match::MessageKind kind() const { return role_.kind; }
  match::Direction direction() const { return role_.direction; }
  // What the class lacks, naming the event and field; empty when it decodes.
  const std::string& problem() const { return problem_; }

  // What a user-space event class (its name has a `:`, as lttng-ust's
  // PROVIDER:EVENT) offers as key fields; nullopt for other classes.
  static std::optional<OfferedEventClass> offered(const bt_event_class* event_class);

  // Sets out.kind, out.direction, out.layout and out.app from the event.
  void decode(const bt_event* event, match::PacketEvent& out) const;

 private:
  enum class Place : uint8_t { kPayload, kSpecificContext, kCommonContext };
  enum class Type : uint8_t { kUnsigned, kSigned, kBool, kString };
  struct FieldPlan {
    Place place = Place::kPayload;
    uint64_t index = 0;
    Type type = Type::kUnsigned;
  };

  AppEventRole role_;
  std::string problem_;
  std::vector<FieldPlan> fields_;
  // A simultaneous signal's kind (MessageSpec::is_signal): its key begins
  // with the filter field's type (ingest::SignalFieldType), so that the
  // filter compares exactly.
  bool typed_key_ = false;
};

}  // namespace tracesync::ingest
