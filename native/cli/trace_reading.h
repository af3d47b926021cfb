// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ingest/reader_choice.h"

namespace tracesync::cli {

// How a command reads traces, as its options ask: with which reader
// (`--reader`), and where: each trace in a reading process (this very
// program with `read-trace`, reading_process_command()), or in this
// process (`--in-process`).
struct TraceReading {
  ingest::ReaderChoice reader = ingest::ReaderChoice::kAuto;
  std::vector<std::string> reading_command;  // empty: in this process
};

// The reading that `--reader reader_option` and `--in-process` ask for,
// or what is wrong, in words for a usage error (sync, check, extract,
// live and verify say the same).
std::variant<TraceReading, std::string> choose_trace_reading(std::string_view reader_option, bool in_process);

}  // namespace tracesync::cli
