// SPDX-License-Identifier: EPL-2.0
#include "session/main_island.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace tracesync::session {
namespace {

std::string join(const std::vector<std::string>& words) {
  std::string text;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) text += i + 1 == words.size() ? " and " : ", ";
    text += words[i];
  }
  return text;
}

// Why a trace outside the main island is there, from what its links say.
std::string reason(const v1::Trace& trace, const v1::Snapshot& s, const std::map<std::string, std::string>& hostname,
                   uint32_t main_island) {
  if (trace.has_network_events() && trace.network_events() == 0) {
    return "it holds none of the network events tracesync reads";
  }
  const auto name = [&](const std::string& domain) {
    const auto it = hostname.find(domain);
    return it == hostname.end() || it->second.empty() ? domain : it->second;
  };
  std::vector<std::string> one_way, failed;
  bool usable = false;
  for (const v1::Link& l : s.links()) {
    if (l.a() != trace.domain() && l.b() != trace.domain()) continue;
    const std::string other = name(l.a() == trace.domain() ? l.b() : l.a());
    switch (l.quality()) {
      case v1::INCOMPLETE: one_way.push_back(other); break;
      case v1::FAIL: failed.push_back(other); break;
      case v1::ACCURATE:
      case v1::APPROXIMATE: usable = true; break;
      default: break;
    }
  }
  if (usable) {
    return "it is in island " + std::to_string(trace.island()) + ", which no usable link joins to the main island (" +
           std::to_string(main_island) + ")";
  }
  std::vector<std::string> parts;
  if (!one_way.empty()) parts.push_back("one-way (messages in one direction only) with " + join(one_way));
  if (!failed.empty()) parts.push_back("failed (messages contradict every line) with " + join(failed));
  if (parts.empty()) return "it exchanged no matched message with another traced host";
  return "its only links are " + join(parts);
}

}  // namespace

void mark_main_island(v1::Snapshot& s) {
  std::map<uint32_t, std::size_t> traces_in;
  std::map<std::string, std::string> hostname;
  for (const v1::Trace& t : s.traces()) {
    ++traces_in[t.island()];
    hostname.emplace(t.domain(), t.hostname());
  }
  uint32_t main_island = 0;
  std::size_t most = 0;
  for (const auto& [island, count] : traces_in) {  // ascending ids: the first of the largest wins ties
    if (count > most) {
      most = count;
      main_island = island;
    }
  }
  for (v1::Trace& t : *s.mutable_traces()) {
    const bool synchronized = t.island() == main_island;
    t.set_synchronized(synchronized);
    if (synchronized) {
      t.clear_unsynchronized_reason();
    } else {
      t.set_unsynchronized_reason(reason(t, s, hostname, main_island));
    }
  }
}

}  // namespace tracesync::session
