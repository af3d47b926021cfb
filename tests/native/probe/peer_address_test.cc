// SPDX-License-Identifier: EPL-2.0
// tracesync probe's peers: HOST:PORT, bracketed IPv6, peers files; errors
// that quote the text (and name the file and line).

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <variant>

#include "probe/peer_address.h"
#include "simulate/temp_directory.h"

namespace tracesync::probe {
namespace {

PeerAddress parsed(const std::string& text) {
  auto peer = parse_peer_address(text);
  if (auto* why = std::get_if<std::string>(&peer)) ADD_FAILURE() << text << ": " << *why;
  return std::holds_alternative<PeerAddress>(peer) ? std::get<PeerAddress>(peer) : PeerAddress{};
}

std::string error_of(const std::string& text) {
  auto peer = parse_peer_address(text);
  if (std::holds_alternative<PeerAddress>(peer)) {
    ADD_FAILURE() << text << " parsed";
    return {};
  }
  return std::get<std::string>(peer);
}

TEST(PeerAddress, NamesAndAddressesWithTheirPorts) {
  EXPECT_EQ(parsed("10.0.0.2:7300"), (PeerAddress{"10.0.0.2", "7300", "10.0.0.2:7300"}));
  EXPECT_EQ(parsed("node-3.lab:1"), (PeerAddress{"node-3.lab", "1", "node-3.lab:1"}));
  EXPECT_EQ(parsed("[fe80::1]:65535"), (PeerAddress{"fe80::1", "65535", "[fe80::1]:65535"}));
}

TEST(PeerAddress, BadOnesAreNamedWithWhatIsWrong) {
  EXPECT_NE(error_of("node3").find("'node3' has no port"), std::string::npos);
  EXPECT_NE(error_of(":7300").find("names no host"), std::string::npos);
  EXPECT_NE(error_of("node3:0").find("'0' is not a port"), std::string::npos);
  EXPECT_NE(error_of("node3:65536").find("'65536' is not a port"), std::string::npos);
  EXPECT_NE(error_of("node3:7x").find("'7x' is not a port"), std::string::npos);
  EXPECT_NE(error_of("fe80::1:7300").find("put it in brackets"), std::string::npos);
  EXPECT_NE(error_of("[fe80::1]7300").find("no port after its bracketed address"), std::string::npos);
  EXPECT_NE(error_of("no de:1").find("a space"), std::string::npos);
}

TEST(PeerAddress, APeersFileHasOneALineWithComments) {
  simulate::testing::TempDirectory dir;
  const std::string path = (dir.path() / "peers").string();
  std::ofstream(path) << "# the lab\n10.0.0.1:7300\n\n  10.0.0.2:7300  \r\n[::1]:7301\n";
  auto peers = read_peers_file(path);
  ASSERT_TRUE(std::holds_alternative<std::vector<PeerAddress>>(peers)) << std::get<std::string>(peers);
  const auto& list = std::get<std::vector<PeerAddress>>(peers);
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[1].host, "10.0.0.2");
  EXPECT_EQ(list[2].host, "::1");
}

TEST(PeerAddress, APeersFileErrorNamesTheFileAndLine) {
  simulate::testing::TempDirectory dir;
  const std::string path = (dir.path() / "peers").string();
  std::ofstream(path) << "10.0.0.1:7300\n# next\nnode3\n";
  auto peers = read_peers_file(path);
  ASSERT_TRUE(std::holds_alternative<std::string>(peers));
  EXPECT_EQ(std::get<std::string>(peers).rfind(path + ":3: the peer 'node3' has no port", 0), 0u)
      << std::get<std::string>(peers);
  std::ofstream(path) << "# nobody\n";
  EXPECT_NE(std::get<std::string>(read_peers_file(path)).find("names no peer"), std::string::npos);
  EXPECT_NE(std::get<std::string>(read_peers_file(path + ".missing")).find("cannot read the peers file"),
            std::string::npos);
}

}  // namespace
}  // namespace tracesync::probe
