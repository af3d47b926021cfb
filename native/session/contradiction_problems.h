// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string>
#include <vector>

#include "hull/link_estimator.h"
#include "snapshot/tracesync.pb.h"

namespace tracesync::session {

// One end of a link, as a problem names it: its host and the traces of its
// clock domain (paths, or names when a trace has no path).
struct LinkEnd {
  std::string host;
  std::vector<std::string> traces;
};

// The problems of a link that is APPROXIMATE or FAIL (`quality`) because
// some of its messages contradict the others: one per contradicting message,
// naming its send and receive events (trace, time) and the messages it
// contradicts, so that a user can find a damaged timestamp (issue 34,
// docs/bad-input.md). At most kShown, then one saying how many more.
std::vector<v1::Problem> contradiction_problems(const std::string& quality, const LinkEnd& a, const LinkEnd& b,
                                                const std::vector<hull::Contradiction>& contradictions);

inline constexpr std::size_t kShownContradictions = 5;

}  // namespace tracesync::session
