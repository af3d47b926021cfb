// SPDX-License-Identifier: EPL-2.0
#include "apply/clock_only_copy.h"

#include <algorithm>

#include "apply/clock_fit.h"

namespace tracesync::apply {
namespace fs = std::filesystem;

ClockOnlyCopy write_clock_only_copy(const fs::path& from, const fs::path& to, const model::LinearTransform& line,
                                    model::Nanoseconds first_ns, model::Nanoseconds last_ns, FilePolicy policy,
                                    FileCounts* counts) {
  ClockOnlyCopy copy;
  const fs::path metadata = from / "metadata";
  std::string problem;
  const auto read = read_metadata_text(metadata, &problem);
  if (!read) {
    copy.error = problem;
    return copy;
  }
  copy.metadata_was_packetized = read->packetized;
  const std::string* text = &read->text;
  const auto blocks = find_clock_blocks(*text, &problem);
  if (!blocks) {
    copy.error = metadata.string() + ": " + problem;
    return copy;
  }
  if (blocks->empty()) {
    copy.error = metadata.string() + ": no clock: its timestamps cannot be moved by changing a clock";
    return copy;
  }
  std::vector<ClockMapping> mappings;
  for (const ClockBlock& block : *blocks) {
    const model::Quad first = std::max<model::Quad>(0, cycles_at(block.mapping, first_ns));
    const model::Quad last = std::max(first, cycles_at(block.mapping, last_ns));
    const ClockFit fit = fit_clock(block.mapping, line, first, last);
    mappings.push_back(fit.mapping);
    copy.clocks.push_back({block.name, block.uuid, block.mapping, fit.mapping, fit.worst_error_ns});
    copy.rounding_ns = std::max(copy.rounding_ns, fit.worst_error_ns);
  }
  const std::string note = "tracesync apply: freq, offset_s and offset put this clock on its island's reference";
  if (std::string e = mirror_trace_files(from, to, policy, counts); !e.empty()) {
    copy.error = e;
    return copy;
  }
  copy.error = write_file(to / "metadata", with_clock_mappings(*text, *blocks, mappings, note));
  return copy;
}

}  // namespace tracesync::apply
