// SPDX-License-Identifier: EPL-2.0
#pragma once

// The matching rules of DESIGN.md applied the obvious way: sort every event
// of the experiment by (time, trace) and walk it once, keeping every key to
// the end; with a horizon, a key's event more than the horizon after the
// key's previous one starts a new entry of that key. The property tests
// compare PacketMatcher against it.

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "match/match_statistics.h"
#include "match/packet_event.h"
#include "match/packet_key.h"
#include "match/packet_matcher.h"

namespace tracesync::match::oracle {

struct Result {
  std::vector<MatchedMessage> messages;  // sorted
  MatchStatistics total;
  std::vector<MatchStatistics> per_trace;
  std::map<PacketMatcher::LinkKey, MatchStatistics> per_link;
};

inline Result match_sorted(std::vector<PacketEvent> events, KeyKind kind, const std::vector<std::string>& domain_of,
                           model::Nanoseconds horizon = MatchOptions::kUnbounded) {
  std::stable_sort(events.begin(), events.end(), [](const PacketEvent& a, const PacketEvent& b) {
    return a.time != b.time ? a.time < b.time : a.trace < b.trace;
  });
  Result result;
  result.per_trace.resize(domain_of.size());
  struct Ends {
    std::vector<PacketEvent> sends, receives;  // in sorted order
    model::Nanoseconds newest = 0;
  };
  std::vector<std::pair<PacketKey, Ends>> keys;  // entries, in order of first appearance
  model::Nanoseconds latest = INT64_MIN;
  for (const PacketEvent& e : events) {
    if (e.layout == Layout::kTcp) latest = std::max(latest, e.time);
  }
  // Keys as byte strings (a map keyed by std::vector<uint8_t> draws a
  // false -Wstringop-overread from GCC 12 at -O3).
  std::map<std::string, std::size_t> index;
  auto bytes_of = [](const PacketKey& key) {
    std::string out;
    auto put = [&](uint64_t v, int n) {
      for (int i = 0; i < n; ++i) out.push_back(static_cast<char>(static_cast<uint8_t>(v >> (8 * i))));
    };
    put(key.tcp.seq, 4);
    put(key.tcp.ack_seq, 4);
    put(key.tcp.flags, 2);
    put(key.endpoints.family, 1);
    out.insert(out.end(), key.endpoints.saddr.begin(), key.endpoints.saddr.end());
    out.insert(out.end(), key.endpoints.daddr.begin(), key.endpoints.daddr.end());
    put(key.endpoints.source_port, 2);
    put(key.endpoints.dest_port, 2);
    return out;
  };
  for (const PacketEvent& e : events) {
    MatchStatistics& trace = result.per_trace[e.trace];
    if (e.layout == Layout::kNonTcp) {
      ++trace.non_tcp;
      continue;
    }
    if (e.layout == Layout::kUnknown) {
      ++trace.unknown_layout;
      continue;
    }
    const bool send = e.direction == Direction::kSend;
    ++(send ? trace.sends : trace.receives);
    if (kind == KeyKind::kStrict && !e.endpoints.present()) ++trace.tc_key_fallback;
    const PacketKey key = make_key(e, kind);
    auto [it, inserted] = index.try_emplace(bytes_of(key), keys.size());
    // More than the horizon after the key's previous event: a new entry.
    if (!inserted && horizon != MatchOptions::kUnbounded && e.time - keys[it->second].second.newest > horizon) {
      it->second = keys.size();
      inserted = true;
    }
    if (inserted) keys.push_back({key, {}});
    Ends& ends = keys[it->second].second;
    ends.newest = e.time;
    std::vector<PacketEvent>& list = send ? ends.sends : ends.receives;
    if (!list.empty()) ++(send ? trace.retransmissions : trace.duplicates);
    list.push_back(e);
  }
  for (const auto& [key, ends] : keys) {
    if (ends.sends.empty() || ends.receives.empty()) {
      const PacketEvent& only = ends.sends.empty() ? ends.receives.front() : ends.sends.front();
      MatchStatistics& trace = result.per_trace[only.trace];
      if (horizon != MatchOptions::kUnbounded && ends.newest + horizon < latest) {
        ++trace.expired;  // the horizon passed it before the last event
      } else {
        ++(ends.sends.empty() ? trace.unmatched_receives : trace.unmatched_sends);
      }
      continue;
    }
    const PacketEvent& s = ends.sends.front();
    const PacketEvent& r = ends.receives.front();
    const std::string& ds = domain_of[s.trace];
    const std::string& dr = domain_of[r.trace];
    const bool same = ds == dr;
    ++(same ? result.per_trace[s.trace].same_domain : result.per_trace[s.trace].matches);
    if (r.trace != s.trace) ++(same ? result.per_trace[r.trace].same_domain : result.per_trace[r.trace].matches);
    if (same) continue;
    result.messages.push_back({s.trace, s.time, r.trace, r.time});
    MatchStatistics& link = result.per_link[ds < dr ? PacketMatcher::LinkKey{ds, dr} : PacketMatcher::LinkKey{dr, ds}];
    ++link.matches;
    link.sends += ends.sends.size();
    link.receives += ends.receives.size();
    link.retransmissions += ends.sends.size() - 1;
    link.duplicates += ends.receives.size() - 1;
  }
  for (const MatchStatistics& trace : result.per_trace) {
    MatchStatistics events_only = trace;
    // matches and same_domain are counted on both ends' traces: recount them once.
    events_only.matches = 0;
    events_only.same_domain = 0;
    result.total += events_only;
  }
  result.total.matches = result.messages.size();
  for (const auto& [key, ends] : keys) {
    if (!ends.sends.empty() && !ends.receives.empty() &&
        domain_of[ends.sends.front().trace] == domain_of[ends.receives.front().trace]) {
      ++result.total.same_domain;
    }
  }
  std::sort(result.messages.begin(), result.messages.end());
  return result;
}

}  // namespace tracesync::match::oracle
