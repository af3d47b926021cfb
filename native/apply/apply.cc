#include "apply/apply.h"

#include <algorithm>
#include <set>

#include "apply/clock_only_copy.h"
#include "apply/manifest.h"
#include "apply/staged_output.h"

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

// The report name, made unique among the copies.
std::string output_name(const v1::Trace& trace, std::set<std::string>& taken) {
  std::string name = fs::path(trace.name()).lexically_normal().generic_string();
  if (!is_safe_relative(name)) name = fs::path(trace.path()).filename().string();
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
    // Method 1 needs one line. A transform in several pieces is given as its
    // best single line with its honest bound until the full rewrite exists.
    std::string note;
    if (!transform.is_linear()) {
      note = "the transform has " + std::to_string(transform.pieces().size()) +
             " pieces; the clock-only method applies their best single line (its bound is in bound_ns)";
      transform = PiecewiseTransform::from_trace(
          [&] {
            v1::Trace line = trace;
            line.clear_segments();
            return line;
          }(),
          &problem);
    }
    if (cancel != nullptr && cancel->load()) {
      outcome.error = "interrupted: nothing was written";
      return outcome;
    }
    const std::string name = output_name(trace, taken);
    ClockOnlyCopy copy = write_clock_only_copy(trace.path(), staged.staging() / name, transform.pieces()[0].line,
                                               trace.first_ns(), trace.last_ns(), options.files, &outcome.files);
    if (!copy.error.empty()) {
      outcome.error = "trace " + trace.name() + ": " + copy.error;
      return outcome;
    }
    entry.output = name;
    entry.method = "clock-only";
    entry.note = result.reason = note;
    entry.transform = std::move(transform);
    entry.clock_only = std::move(copy);
    result.written = true;
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
