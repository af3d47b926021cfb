// SPDX-License-Identifier: EPL-2.0
#include "apply/clock_only_copy.h"

#include <algorithm>

#include "apply/clock_fit.h"
#include "apply/ctf2_clocks.h"

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
  // CTF 2's clock classes (LTTng 2.15's default) or CTF 1.8's clock blocks:
  // the copy keeps the trace's own format.
  const bool ctf2 = is_ctf2_text(*text);
  const auto blocks = ctf2 ? find_ctf2_clocks(*text, &problem) : find_clock_blocks(*text, &problem);
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
  if (ctf2) {
    const auto changed = with_ctf2_clock_mappings(*text, mappings, note, &problem);
    if (!changed) {
      copy.error = metadata.string() + ": " + problem;
      return copy;
    }
    copy.error = write_file(to / "metadata", *changed);
    return copy;
  }
  copy.error = write_file(to / "metadata", with_clock_mappings(*text, *blocks, mappings, note));
  return copy;
}

}  // namespace tracesync::apply
