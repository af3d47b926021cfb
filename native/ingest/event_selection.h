// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ingest/message_spec.h"
#include "match/packet_event.h"

namespace tracesync::ingest {

// What an application event class is to the matcher.
struct AppEventRole {
  match::MessageKind kind = 1;
  match::Direction direction = match::Direction::kSend;
};

// Which event classes a reader decodes, built once per run from the options
// (docs/layout.md, "The reading path"): the TCP events of
// network_event_names.h always, and the send and receive events of each
// application message kind of `--messages`, kind k being the k-th spec
// (k >= 1), with the key fields each needs. Readers compile it against each
// trace's event classes once (AppEventDecoder).
class EventSelection {
 public:
  EventSelection() = default;  // TCP only
  // The specs must have passed check_message_specs.
  explicit EventSelection(std::vector<MessageSpec> kinds) : kinds_(std::move(kinds)) {}

  const std::vector<MessageSpec>& kinds() const { return kinds_; }
  const MessageSpec& spec(match::MessageKind kind) const { return kinds_.at(kind - 1u); }
  bool has_app_kinds() const { return !kinds_.empty(); }

  // The role of an event class of this name; nullopt when it is none of
  // the application events.
  std::optional<AppEventRole> app_role(std::string_view event_class_name) const {
    for (std::size_t i = 0; i < kinds_.size(); ++i) {
      const auto kind = static_cast<match::MessageKind>(i + 1);
      if (kinds_[i].send_event == event_class_name) return AppEventRole{kind, match::Direction::kSend};
      if (!kinds_[i].is_signal() && kinds_[i].receive_event == event_class_name) return AppEventRole{kind, match::Direction::kReceive};
    }
    return std::nullopt;
  }

  friend bool operator==(const EventSelection&, const EventSelection&) = default;

 private:
  std::vector<MessageSpec> kinds_;
};

}  // namespace tracesync::ingest
