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
  bool probe_rounds = false;  // it records tracesync probe's lttng-ust events (docs/probe.md)
};

TraceCheck check_trace(const ingest::TraceReport& trace, const std::vector<ingest::MessageSpec>& kinds = {});

// Per trace: its verdict, its host and domain, and the events of each name
// tracesync reads (or that the name was not recorded, or what its payload
// lacks); its user-space event classes with the fields that could serve as
// keys; what each application kind finds in it. Names from the input are
// written as readable text.
void print_check_text(std::ostream& out, const std::vector<ingest::TraceReport>& traces,
                      const std::vector<ingest::MessageSpec>& kinds = {});

// The same as a "tracesync-check/1" object (docs/recording.md).
nlohmann::ordered_json check_json(const std::vector<ingest::TraceReport>& traces,
                                  const std::vector<ingest::MessageSpec>& kinds = {});

}  // namespace tracesync::cli
