// SPDX-License-Identifier: EPL-2.0
#include "session/matching_report.h"

namespace tracesync::session {

v1::MatchingStatistics matching_report(const match::MatchStatistics& m) {
  v1::MatchingStatistics out;
  out.set_sends(m.sends);
  out.set_receives(m.receives);
  out.set_matches(m.matches);
  out.set_retransmissions(m.retransmissions);
  out.set_duplicates(m.duplicates);
  out.set_unmatched_sends(m.unmatched_sends);
  out.set_unmatched_receives(m.unmatched_receives);
  out.set_expired(m.expired);
  out.set_unknown_layout(m.unknown_layout);
  out.set_same_domain(m.same_domain);
  out.set_non_tcp(m.non_tcp);
  out.set_key_too_long(m.key_too_long);
  out.set_probe_matches(m.probe_matches);
  return out;
}

}  // namespace tracesync::session
