// SPDX-License-Identifier: EPL-2.0
// The names told to users are the names the decoder reads.

#include <gtest/gtest.h>

#include "ingest/network_event_decoder.h"
#include "ingest/network_event_names.h"

namespace tracesync::ingest {
namespace {

TEST(NetworkEventNames, AreTheNamesTheDecoderReads) {
  for (std::size_t i = 0; i < kNetworkEventNames.size(); ++i) {
    const NetworkEventName& event = kNetworkEventNames[i];
    EXPECT_EQ(network_direction(event.name), event.direction) << event.name;
    EXPECT_EQ(network_event_index(event.name), i) << event.name;
  }
  EXPECT_EQ(network_event_index("net_dev_xmit"), std::nullopt);
  EXPECT_EQ(network_direction("sched_switch"), std::nullopt);
  EXPECT_EQ(network_event_names_text(),
            "sends: net_dev_queue, inet_sock_local_out; receives: net_if_receive_skb, netif_receive_skb, "
            "inet_sock_local_in");
}

}  // namespace
}  // namespace tracesync::ingest
