// SPDX-License-Identifier: EPL-2.0
#include "probe/peer_address.h"

#include <fstream>

namespace tracesync::probe {

namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

}  // namespace

std::variant<int, std::string> parse_port(std::string_view text) {
  if (text.empty() || text.size() > 5) return "'" + std::string(text) + "' is not a port (1 to 65535)";
  int port = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return "'" + std::string(text) + "' is not a port (1 to 65535)";
    port = port * 10 + (c - '0');
  }
  if (port < 1 || port > 65535) return "'" + std::string(text) + "' is not a port (1 to 65535)";
  return port;
}

std::variant<PeerAddress, std::string> parse_peer_address(std::string_view text) {
  const std::string quoted = "'" + std::string(text) + "'";
  const std::string form = " (expected HOST:PORT, e.g. 10.0.0.2:7300 or [fe80::1]:7300)";
  PeerAddress peer;
  peer.text = std::string(text);
  std::string_view port;
  if (!text.empty() && text.front() == '[') {
    const std::size_t close = text.find(']');
    if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':') {
      return "the peer " + quoted + " has no port after its bracketed address" + form;
    }
    peer.host = std::string(text.substr(1, close - 1));
    port = text.substr(close + 2);
  } else {
    const std::size_t colon = text.rfind(':');
    if (colon == std::string_view::npos) return "the peer " + quoted + " has no port" + form;
    peer.host = std::string(text.substr(0, colon));
    if (peer.host.find(':') != std::string::npos) {
      return "the peer " + quoted + " looks like an IPv6 address: put it in brackets" + form;
    }
    port = text.substr(colon + 1);
  }
  if (peer.host.empty()) return "the peer " + quoted + " names no host" + form;
  for (const char c : peer.host) {
    if (c <= ' ' || c == 0x7f) return "the peer " + quoted + " has a space or a control character in its host";
  }
  auto number = parse_port(port);
  if (auto* why = std::get_if<std::string>(&number)) return "the peer " + quoted + ": " + *why;
  peer.port = std::string(port);
  return peer;
}

std::variant<std::vector<PeerAddress>, std::string> read_peers_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) return "cannot read the peers file '" + path + "'";
  std::vector<PeerAddress> peers;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    const std::string_view text = trim(line);
    if (text.empty() || text.front() == '#') continue;
    auto peer = parse_peer_address(text);
    if (auto* why = std::get_if<std::string>(&peer)) return path + ":" + std::to_string(number) + ": " + *why;
    peers.push_back(std::get<PeerAddress>(std::move(peer)));
  }
  if (in.bad()) return "cannot read the peers file '" + path + "'";
  if (peers.empty()) return "the peers file '" + path + "' names no peer";
  return peers;
}

}  // namespace tracesync::probe
