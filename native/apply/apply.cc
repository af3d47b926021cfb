// SPDX-License-Identifier: EPL-2.0
#include "apply/apply.h"

#include <algorithm>
#include <set>

#include "apply/clock_only_copy.h"
#include "apply/ctf2_clocks.h"
#include "apply/ctf2_full_rewrite.h"
#include "apply/full_rewrite_copy.h"
#include "apply/manifest.h"
#include "apply/staged_output.h"
#include "snapshot/exact_names.h"

namespace tracesync::apply {
namespace fs = std::filesystem;
namespace {

// A report name is relative and has no '..': anything else would escape the
// output directory.
bool is_safe_relative(const fs::path& name) {
  if (name.empty() || name.is_absolute()) return false;
  for (const fs::path& part : name) {
    if (part == ".." || part == ".") return false;
  }
  return true;
}

// A trace's directory, byte for byte (it may not be UTF-8).
const std::string& input_path(const v1::Trace& trace) { return snapshot::exact_name(trace.path(), trace.path_raw()); }

// The report name, byte for byte, made unique among the copies.
std::string output_name(const v1::Trace& trace, std::set<std::string>& taken) {
  std::string name = fs::path(snapshot::exact_name(trace.name(), trace.name_raw())).lexically_normal().generic_string();
  if (!is_safe_relative(name)) name = fs::path(input_path(trace)).filename().string();
  if (!is_safe_relative(name)) name = "trace";
  std::string unique = name;
  for (int n = 2; !taken.insert(unique).second; ++n) unique = name + "-" + std::to_string(n);
  return unique;
}

// Why `trace` is not on the main island's time base; empty when it is.
// Snapshots written before the `synchronized` field leave it false
// everywhere: then the main island is found here, as the field's
// definition says (the most domains, ties to the first island listed).
std::string unsynchronized_reason(const v1::Snapshot& snapshot, const v1::Trace& trace) {
  const bool field_set = std::any_of(snapshot.traces().begin(), snapshot.traces().end(),
                                     [](const v1::Trace& t) { return t.synchronized(); });
  if (field_set) return trace.synchronized() ? "" : trace.unsynchronized_reason();
  const v1::Island* main = nullptr;
  for (const v1::Island& island : snapshot.islands()) {
    if (main == nullptr || island.domains_size() > main->domains_size()) main = &island;
  }
  if (main == nullptr || trace.island() == main->id()) return {};
  return "its clock domain has no link to the main island (reference " + main->reference() + ")";
}

// Whether the trace's metadata is CTF 2 (LTTng 2.15's default).
bool is_ctf2_trace(const std::string& trace) {
  std::string ignored;
  const auto text = read_metadata_text(fs::path(trace) / "metadata", &ignored);
  return text && is_ctf2_text(text->text);
}

// What rounding every time to the nearest cycle costs: half a cycle of the
// slowest clock of the trace.
double half_cycle_ns(const std::string& trace) {
  std::string ignored;
  const auto text = read_metadata_text(fs::path(trace) / "metadata", &ignored);
  const auto blocks = !text                       ? std::nullopt
                      : is_ctf2_text(text->text) ? find_ctf2_clocks(text->text, &ignored)
                                                 : find_clock_blocks(text->text, &ignored);
  double worst = 0.5;
  if (blocks) {
    for (const ClockBlock& b : *blocks) worst = std::max(worst, 0.5e9 / static_cast<double>(b.mapping.freq));
  }
  return worst;
}

}  // namespace

ApplyOutcome apply_snapshot(const v1::Snapshot& snapshot, const ApplyOptions& options,
                            const std::atomic<bool>* cancel) {
  ApplyOutcome outcome;
  StagedOutput staged(options.output, options.force);
  if (!staged.error().empty()) {
    outcome.error = staged.error();
    return outcome;
  }
  std::vector<ManifestEntry> entries;
  std::set<std::string> taken;
  for (const v1::Trace& trace : snapshot.traces()) {
    ManifestEntry& entry = entries.emplace_back();
    entry.trace = &trace;
    TraceCopy& result = outcome.traces.emplace_back();
    result.name = trace.name();
    if (trace.path().empty()) {
      entry.note = result.reason = "no trace directory (a host of a match stream)";
      continue;
    }
    if (const std::string why = unsynchronized_reason(snapshot, trace); !why.empty()) {
      entry.note = result.reason = "not synchronized with the main island (" + why +
                                   "): a copy would not be on the common time base";
      continue;
    }
    std::string problem;
    PiecewiseTransform transform = PiecewiseTransform::from_trace(trace, &problem);
    if (!problem.empty()) {
      entry.note = result.reason = problem;
      continue;
    }
    if (cancel != nullptr && cancel->load()) {
      outcome.error = "interrupted: nothing was written";
      return outcome;
    }
    // A trace synchronized from an extract (`tracesync extract`) is copied
    // from the path it was extracted from: the extract holds none of its
    // events. Elsewhere that path may hold nothing.
    if (std::error_code error; !fs::is_regular_file(fs::path(input_path(trace)) / "metadata", error)) {
      result.input_missing = true;
      entry.note = result.reason = "there is no trace at " + trace.path() +
                                   " to copy (a trace synchronized from an extract is copied from the path it was "
                                   "extracted from: run apply where that path holds the trace)";
      continue;
    }
    const std::string name = output_name(trace, taken);
    const fs::path to = staged.staging() / name;
    entry.output = name;
    result.written = true;
    if (options.rewrite || (!transform.is_linear() && !options.clock_only)) {
      // Method 2: every timestamp through the transform, in pieces or not.
      // babeltrace2 2.0 reads and writes CTF 1.8 only: a CTF 2 trace is
      // read through a CTF 1.8 view of it, and copied as CTF 2.
      const bool ctf2 = is_ctf2_trace(input_path(trace));
      if (std::string e = ctf2 ? write_ctf2_full_rewrite_copy(input_path(trace), to, transform, &outcome.bad_input)
                               : write_full_rewrite_copy(input_path(trace), to, transform);
          !e.empty()) {
        outcome.error = "trace " + trace.name() + " (" + trace.path() + "): " + e +
                        "; the clock-only method (--clock-only) copies it without rewriting its streams";
        return outcome;
      }
      entry.method = "full-rewrite";
      entry.method_rounding_ns = half_cycle_ns(input_path(trace));
      entry.note = "index files left out (readers rebuild them)";
      entry.transform = std::move(transform);
      continue;
    }
    // Method 1 needs one line: a transform in pieces gives its best single
    // line with its honest bound (--clock-only).
    if (!transform.is_linear()) {
      entry.note = result.reason = "the transform has " + std::to_string(transform.pieces().size()) +
                                   " pieces; --clock-only applies their best single line (its bound is in bound_ns)";
      v1::Trace line = trace;
      line.clear_segments();
      transform = PiecewiseTransform::from_trace(line, &problem);
    }
    ClockOnlyCopy copy = write_clock_only_copy(input_path(trace), to, transform.pieces()[0].line, trace.first_ns(),
                                               trace.last_ns(), options.files, &outcome.files);
    if (!copy.error.empty()) {
      outcome.error = "trace " + trace.name() + ": " + copy.error;
      return outcome;
    }
    entry.method = "clock-only";
    entry.method_rounding_ns = copy.rounding_ns;
    entry.transform = std::move(transform);
    entry.clock_only = std::move(copy);
  }
  const std::string manifest = manifest_json(snapshot, entries, options.version, options.command_line);
  if (std::string e = write_file(staged.staging() / kManifestName, manifest); !e.empty()) {
    outcome.error = e;
    return outcome;
  }
  if (cancel != nullptr && cancel->load()) {
    outcome.error = "interrupted: nothing was written";
    return outcome;
  }
  outcome.error = staged.commit();
  return outcome;
}

}  // namespace tracesync::apply
