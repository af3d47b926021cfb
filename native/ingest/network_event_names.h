// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <array>
#include <string>
#include <string_view>

namespace tracesync::ingest {

// The event names tracesync reads as network sends and receives (DESIGN.md,
// "Matching"; NetworkEventDecoder decodes them), for messages and help that
// tell a user what to record.
inline constexpr std::array<std::string_view, 2> kSendEventNames = {"net_dev_queue", "inet_sock_local_out"};
inline constexpr std::array<std::string_view, 3> kReceiveEventNames = {"net_if_receive_skb", "netif_receive_skb",
                                                                       "inet_sock_local_in"};

// "sends: net_dev_queue, inet_sock_local_out; receives: net_if_receive_skb, ..."
inline std::string network_event_names_text() {
  std::string text = "sends: ";
  for (std::size_t i = 0; i < kSendEventNames.size(); ++i) text += (i ? ", " : "") + std::string(kSendEventNames[i]);
  text += "; receives: ";
  for (std::size_t i = 0; i < kReceiveEventNames.size(); ++i) {
    text += (i ? ", " : "") + std::string(kReceiveEventNames[i]);
  }
  return text;
}

}  // namespace tracesync::ingest
