// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "hull/estimator_factory.h"
#include "network/network.h"

namespace tracesync::session {

// Everything that shapes a synchronization, whatever its input.
struct SessionOptions {
  hull::EstimatorOptions estimator;
  network::NetworkKind network = network::NetworkKind::kIncremental;
  // `--reference`: each names a clock domain by id, hostname or trace name;
  // that domain becomes the reference of its island.
  std::vector<std::string> forced_references;
  // Makes each link's estimator; empty: hull::make_estimator(estimator).
  // For tests and embedders that bring their own LinkEstimator.
  std::function<std::unique_ptr<hull::LinkEstimator>()> make_estimator;
  // Keep every message (16 bytes each) to give each link its latency proof,
  // before and after synchronization (LinkDetail.proof; the HTML report).
  bool keep_latency_evidence = false;
  // ... in temporary files rather than in memory (session/point_log.h):
  // `tracesync live -o`, whose memory must stay flat over hours.
  bool latency_evidence_on_disk = false;
};

// A problem with the options, in words for the user; empty when they are fine.
std::string validate(const SessionOptions& options);

}  // namespace tracesync::session
