// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "match/packet_event.h"

namespace tracesync::ingest {

// An event name tracesync reads as a network send or receive.
struct NetworkEventName {
  std::string_view name;
  match::Direction direction;
};

// The event names tracesync reads (DESIGN.md, "Matching"; NetworkEventDecoder
// decodes them), sends first: lttng-modules 2.9+'s net_dev_queue, the 2.1
// addons' inet_sock_local_out; net_if_receive_skb (the kernel's
// netif_receive_skb, which some versions keep as its name) and the addons'
// inet_sock_local_in. Also what messages and help tell a user to record.
inline constexpr std::array<NetworkEventName, 5> kNetworkEventNames = {{
    {"net_dev_queue", match::Direction::kSend},
    {"inet_sock_local_out", match::Direction::kSend},
    {"net_if_receive_skb", match::Direction::kReceive},
    {"netif_receive_skb", match::Direction::kReceive},
    {"inet_sock_local_in", match::Direction::kReceive},
}};

// Its place in kNetworkEventNames; nullopt when `name` is no network event.
inline std::optional<std::size_t> network_event_index(std::string_view name) {
  for (std::size_t i = 0; i < kNetworkEventNames.size(); ++i) {
    if (kNetworkEventNames[i].name == name) return i;
  }
  return std::nullopt;
}

inline std::string_view to_string(match::Direction direction) {
  return direction == match::Direction::kSend ? "send" : "receive";
}

// "sends: net_dev_queue, inet_sock_local_out; receives: net_if_receive_skb, ..."
inline std::string network_event_names_text() {
  std::string text;
  for (const match::Direction direction : {match::Direction::kSend, match::Direction::kReceive}) {
    text += direction == match::Direction::kSend ? "sends: " : "; receives: ";
    bool first = true;
    for (const NetworkEventName& event : kNetworkEventNames) {
      if (event.direction != direction) continue;
      text += (first ? "" : ", ") + std::string(event.name);
      first = false;
    }
  }
  return text;
}

}  // namespace tracesync::ingest
