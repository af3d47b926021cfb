// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace tracesync::ingest {

// Which reader reads a CTF trace (`--reader`): babeltrace2's src.ctf.fs
// (CtfTraceReader), our own scanner (ScannerTraceReader), or `auto`: the
// scanner when its plans cover the trace, babeltrace2 otherwise.
enum class ReaderChoice : uint8_t { kAuto, kScanner, kBabeltrace2 };

inline std::string_view to_string(ReaderChoice choice) {
  switch (choice) {
    case ReaderChoice::kAuto: return "auto";
    case ReaderChoice::kScanner: return "scanner";
    case ReaderChoice::kBabeltrace2: return "babeltrace2";
  }
  return "?";
}

inline std::optional<ReaderChoice> parse_reader_choice(std::string_view text) {
  for (const ReaderChoice choice : {ReaderChoice::kAuto, ReaderChoice::kScanner, ReaderChoice::kBabeltrace2}) {
    if (to_string(choice) == text) return choice;
  }
  return std::nullopt;
}

}  // namespace tracesync::ingest
