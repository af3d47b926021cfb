// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>
#include <vector>

#include "ingest/experiment_reader.h"
#include "ingest/message_spec.h"

namespace tracesync::cli {

// `tracesync check`'s judgement of one trace it read: whether it can take
// part in two-way links, and in one line why not. Application sends and
// receives (`kinds`, the `--messages` specs) count like TCP ones.
struct TraceCheck {
  bool read = false;    // some of it was read (not skipped)
  bool usable = false;  // it has sends and receives (TCP or application)
  std::string verdict;  // "usable", or what is missing (readable text)
  // It records tracesync probe's rounds (docs/probe.md): its lttng-ust
  // events, or TCP segments from or to a `--probe-port`.
  bool probe_rounds = false;
  bool probe_events = false;    // the lttng-ust events
  uint64_t probe_segments = 0;  // the TCP events from or to a `--probe-port`
};

// `probe_segments`: the trace's TCP events from or to a `--probe-port`.
TraceCheck check_trace(const ingest::TraceReport& trace, const std::vector<ingest::MessageSpec>& kinds = {},
                       uint64_t probe_segments = 0);

// With `check --probe-port`: per trace, in the order of the reports, its TCP
// events from or to one of the ports. Empty without the option.
using ProbeSegments = std::vector<uint64_t>;

// Per trace: its verdict, its host and domain, and the events of each name
// tracesync reads (or that the name was not recorded, or what its payload
// lacks); its user-space event classes with the fields that could serve as
// keys; what each application kind finds in it. Names from the input are
// written as readable text.
void print_check_text(std::ostream& out, const std::vector<ingest::TraceReport>& traces,
                      const std::vector<ingest::MessageSpec>& kinds = {}, const ProbeSegments& probe_segments = {});

// The same as a "tracesync-check/1" object (docs/recording.md).
nlohmann::ordered_json check_json(const std::vector<ingest::TraceReport>& traces,
                                  const std::vector<ingest::MessageSpec>& kinds = {},
                                  const ProbeSegments& probe_segments = {});

}  // namespace tracesync::cli
