// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <map>
#include <utility>
#include <vector>

#include "ingest/experiment_reader.h"
#include "ingest/message_spec.h"
#include "match/packet_matcher.h"
#include "session/session.h"

namespace tracesync::session {

// The application message kinds of `--messages` as the session reports
// them (kinds 1.., in order). Shared by every front end that matches them
// (`sync`, `live`), so that their reports say the same.
std::vector<v1::MessageKind> reported_kinds(const std::vector<ingest::MessageSpec>& kinds);

// Adds what the matcher counted per kind, and per link and kind, to the session.
void add_kind_matching(Session& session, const std::vector<match::MatchStatistics>& per_kind,
                       const std::map<std::pair<match::PacketMatcher::LinkKey, match::MessageKind>,
                                      match::MatchStatistics>& per_link_kind);

// What the traces lack to serve the application message kinds: per trace,
// an event class without a key field (or with one of a type a key cannot
// use); per kind, a send or receive event that no trace read records (a
// trace that records neither, a kernel trace say, is no problem).
std::vector<v1::Problem> message_problems(const std::vector<ingest::MessageSpec>& kinds,
                                          const std::vector<ingest::TraceReport>& traces);

}  // namespace tracesync::session
