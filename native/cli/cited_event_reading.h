// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "ingest/experiment_reader.h"
#include "verify/allowed_sides.h"
#include "verify/cited_messages.h"

namespace tracesync::cli {

// The network events the traces hold at the instants a certificate cites,
// by the report's trace names (`tracesync verify REPORT CERTIFICATE
// TRACES...`, docs/verify.md).
class CitedEventIndex {
 public:
  const std::vector<verify::RecordedEvent>& at(const std::string& trace, bool send, int64_t time_ns) const;
  void add(const std::string& trace, bool send, int64_t time_ns, verify::RecordedEvent event);
  std::size_t size() const { return size_; }

 private:
  std::map<std::tuple<std::string, bool, int64_t>, std::vector<verify::RecordedEvent>> events_;
  std::size_t size_ = 0;
};

struct CitedEventReading {
  CitedEventIndex events;
  std::size_t traces_read = 0;
  // Traces read only in part, "PATH: problem": a cited event beyond the
  // damage is then missing, and this says why.
  std::vector<std::string> partial;
};

// Re-reads the traces under `paths` (trace directories and extracts, as
// `sync` takes them) with the project's readers, in reading processes when
// `options.reading_command` is set, and keeps every send and receive event
// at an instant some cited message names, on the trace the certificate
// names for it (a trace is the report's when their paths are the same file).
// Meanwhile it matches the traces' messages as `sync` does by default (the
// default key and horizon) and hands each one between traces of the report
// to `sides`, by the report's domains of its two traces.
// An error, in words, when a trace the cited messages need is not among the
// paths or cannot be read at all: that is bad input, not a disagreement.
std::variant<CitedEventReading, std::string> read_cited_events(const std::vector<std::string>& paths,
                                                               const nlohmann::json& report,
                                                               const std::vector<verify::CitedMessage>& messages,
                                                               const ingest::ReadOptions& options,
                                                               verify::AllowedSides& sides);

}  // namespace tracesync::cli
