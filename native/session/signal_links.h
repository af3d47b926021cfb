// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <vector>

#include "ingest/experiment_reader.h"
#include "ingest/signal_occurrences.h"
#include "ingest/signal_spec.h"
#include "session/session.h"

namespace tracesync::session {

struct SignalProblems {
  std::vector<v1::Problem> input;    // the specs the traces cannot serve: bad input (exit 2)
  std::vector<v1::Problem> pairing;  // occurrences pairing refused, cuts: said, not an error
};

// Folds the simultaneous signals' occurrences into the session
// (docs/signals.md): per signal, the occurrences of each clock domain (its
// traces' merged, the filter applied), paired by order between every two
// domains (pair_signal, aligned by the session's messages where the link
// has them), each pair a two-sided constraint within the pair jitter
// (Session::add_signal_pair). `session_trace` maps the experiment's trace
// indices onto the session's (nullopt: never opened). `first_kind` is the
// reading kind of signal 0.
SignalProblems add_signals(Session& session, const std::vector<ingest::SignalSpec>& signals,
                           std::size_t first_kind, const ingest::SignalOccurrences::ByTrace& occurrences,
                           const std::vector<ingest::TraceReport>& traces,
                           const std::vector<std::optional<TraceIndex>>& session_trace);

}  // namespace tracesync::session
