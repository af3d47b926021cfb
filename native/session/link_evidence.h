// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstddef>

#include "hull/link_message.h"
#include "model/point.h"
#include "network/piecewise_transform.h"
#include "session/point_log.h"
#include "snapshot/tracesync.pb.h"

namespace tracesync::session {

// The messages of one link, kept for its latency proof (LatencyProof in
// tracesync.proto, the HTML report's "proof"): latencies after
// synchronization need the final transforms, known only at the end, so
// every message's two timestamps are kept until then. Kept only when asked
// for (SessionOptions::keep_latency_evidence): 16 bytes a message, in
// memory (in blocks, so that growing neither copies nor doubles them) or,
// for `tracesync live -o` (SessionOptions::latency_evidence_on_disk), in
// temporary files, so that following for hours keeps memory flat.
class LinkEvidence {
 public:
  // Before the first message: keep the messages in temporary files.
  void keep_on_disk() {
    a_to_b_.keep_on_disk();
    b_to_a_.keep_on_disk();
  }
  void add(const hull::LinkMessage& message);
  std::size_t messages() const { return a_to_b_.size() + b_to_a_.size(); }

  // The latencies of every message kept, before synchronization and, when
  // both transforms are given (the transforms of the link's domains a and
  // b onto their island's reference), after.
  v1::LatencyProof proof(const network::PiecewiseTransform* a_onto_reference,
                         const network::PiecewiseTransform* b_onto_reference) const;

 private:
  // As the link's points (hull/link_message.h): x on a's clock, y on b's.
  PointLog a_to_b_;  // x: send, y: receive
  PointLog b_to_a_;  // x: receive, y: send
};

}  // namespace tracesync::session
