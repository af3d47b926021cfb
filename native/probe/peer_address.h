// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tracesync::probe {

// A peer of `tracesync probe`, as the user names it: HOST:PORT, where HOST
// is a name, an IPv4 address or an IPv6 address in brackets ([::1]:7000).
struct PeerAddress {
  std::string host;  // without brackets
  std::string port;  // digits, 1..65535
  std::string text;  // as written, for messages

  friend bool operator==(const PeerAddress&, const PeerAddress&) = default;
};

// A peer, or the reason `text` is not one (quoting it).
std::variant<PeerAddress, std::string> parse_peer_address(std::string_view text);

// The peers of a `--peers FILE`: one HOST:PORT a line; blank lines and
// lines that begin with `#` are skipped. An error names the file and line.
std::variant<std::vector<PeerAddress>, std::string> read_peers_file(const std::string& path);

// A TCP port (1..65535) as digits, or the reason it is not one.
std::variant<int, std::string> parse_port(std::string_view text);

}  // namespace tracesync::probe
