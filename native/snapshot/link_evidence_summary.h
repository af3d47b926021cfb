// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "snapshot/tracesync.pb.h"

namespace tracesync::snapshot {

// What a link rests on, for the reports (`evidence` in JSON, a line in
// HTML): its messages by kind (TCP segments, each `--messages` kind), and
// among them those of `tracesync probe`'s rounds (the kind whose events are
// tracesync_probe's, docs/probe.md). Derived from the snapshot alone.
struct LinkEvidenceSummary {
  struct Kind {
    std::string name;  // "tcp", or the kind's name
    uint64_t messages = 0;
  };
  std::vector<Kind> messages;   // kinds with messages on the link, kind order
  uint64_t probe_messages = 0;  // of those, tracesync probe's (two a round trip)
};

LinkEvidenceSummary link_evidence_summary(const v1::Link& link, const v1::EngineOptions& options);

// "160 probe messages (80 round trips)", "1200 tcp, 30 rpc": for people.
std::string evidence_text(const LinkEvidenceSummary& evidence);

}  // namespace tracesync::snapshot
