// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
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
//
// With `folding` (`tracesync live`, while the hosts record): called again
// and again over the occurrences read so far, each call pairs them all
// afresh but folds into the links only the pairs not folded before, in
// order, up to the first one that later occurrences could still change
// (settle_margin past it on either host's clock is not complete yet); a
// link's `pairs` counts the pairs it holds. The occurrences of each
// domain are cut where they are complete first.
struct SignalFolding;
SignalProblems add_signals(Session& session, const std::vector<ingest::SignalSpec>& signals,
                           std::size_t first_kind, const ingest::SignalOccurrences::ByTrace& occurrences,
                           const std::vector<ingest::TraceReport>& traces,
                           const std::vector<std::optional<TraceIndex>>& session_trace,
                           SignalFolding* folding = nullptr);

// A match stream's signal lines (`signal NAME HOST TIME_NS`), by name,
// then by host, in the order read.
using StreamSignals = std::map<std::string, std::map<std::string, std::vector<model::Nanoseconds>>>;

// Folds them into the session as add_signals folds a trace's occurrences
// (each host a clock domain, `Session::add_host`); a spec's `event=` names
// the lines' NAME. `source` (the match file) is where problems point. A
// spec with a filter is bad input: the lines carry no fields.
SignalProblems add_stream_signals(Session& session, const std::vector<ingest::SignalSpec>& signals,
                                  const StreamSignals& lines, const std::string& source);

// What a live session has folded so far, and where its occurrences are
// complete.
struct SignalFolding {
  // Every occurrence of `trace`'s clock domain earlier than this (on its
  // clock) has been read: its traces' promises, or the end.
  std::function<model::Nanoseconds(TraceIndex)> complete_until;
  // (signal, the two domains' first traces, a, b): the pairs folded.
  std::set<std::tuple<std::size_t, TraceIndex, TraceIndex, model::Nanoseconds, model::Nanoseconds>> folded;
  // (signal, the two domains' first traces): how many.
  std::map<std::tuple<std::size_t, TraceIndex, TraceIndex>, uint64_t> held;
};

}  // namespace tracesync::session
