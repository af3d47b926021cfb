// SPDX-License-Identifier: EPL-2.0
#include "match/match_statistics.h"

namespace tracesync::match {

MatchStatistics& MatchStatistics::operator+=(const MatchStatistics& other) {
  sends += other.sends;
  receives += other.receives;
  matches += other.matches;
  same_domain += other.same_domain;
  retransmissions += other.retransmissions;
  duplicates += other.duplicates;
  unmatched_sends += other.unmatched_sends;
  unmatched_receives += other.unmatched_receives;
  expired += other.expired;
  unknown_layout += other.unknown_layout;
  non_tcp += other.non_tcp;
  tc_key_fallback += other.tc_key_fallback;
  late += other.late;
  key_too_long += other.key_too_long;
  probe_matches += other.probe_matches;
  return *this;
}

}  // namespace tracesync::match
