#include "ingest/trace_discovery.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <system_error>

namespace tracesync::ingest {

namespace fs = std::filesystem;

namespace {

bool holds_metadata(const fs::path& directory) {
  std::error_code error;
  return fs::is_regular_file(directory / "metadata", error);
}

// The name of `trace` found under `root`: root's last component, then the
// path from root to the trace.
std::string name_of(const fs::path& root, const fs::path& trace) {
  std::error_code error;
  fs::path base = fs::weakly_canonical(root, error).filename();
  if (error || base.empty()) base = root.filename();
  const fs::path below = trace.lexically_relative(root);
  const fs::path name = below.empty() || below == "." ? base : base / below;
  return name.generic_string();
}

std::string describe(const std::error_code& error) { return error.message(); }

}  // namespace

uint64_t stream_file_bytes(const std::string& trace_directory) {
  uint64_t bytes = 0;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(trace_directory, error)) {
    std::error_code entry_error;
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file(entry_error) && name != "metadata" && !name.starts_with('.')) {
      bytes += entry.file_size(entry_error);
    }
  }
  return bytes;
}

Discovery discover_traces(const std::vector<std::string>& paths) {
  Discovery out;
  std::set<fs::path> seen;  // canonical paths of the traces found so far
  for (const std::string& text : paths) {
    const fs::path root(text);
    std::error_code error;
    const fs::file_status status = fs::status(root, error);
    if (error || !fs::exists(status)) {
      out.problems.push_back({text, "no such file or directory"});
      continue;
    }
    if (!fs::is_directory(status)) {
      out.problems.push_back({text, "not a directory (give the trace directory, the one holding `metadata`)"});
      continue;
    }
    std::vector<fs::path> found;
    if (holds_metadata(root)) found.push_back(root);
    fs::recursive_directory_iterator walk(root, fs::directory_options::none, error);
    if (error) {
      out.problems.push_back({text, "cannot be read: " + describe(error)});
      continue;
    }
    for (const fs::recursive_directory_iterator end; walk != end; walk.increment(error)) {
      if (error) break;
      std::error_code entry_error;
      if (walk->is_directory(entry_error) && !walk->is_symlink(entry_error) && holds_metadata(walk->path())) {
        found.push_back(walk->path());
      }
    }
    if (error) {
      out.problems.push_back({text, "cannot be searched: " + describe(error)});
      continue;
    }
    if (found.empty()) {
      out.problems.push_back({text, "holds no CTF trace (no directory in it has a `metadata` file)"});
      continue;
    }
    for (const fs::path& trace : found) {
      std::error_code canonical_error;
      const fs::path canonical = fs::weakly_canonical(trace, canonical_error);
      if (!seen.insert(canonical_error ? trace : canonical).second) continue;
      fs::path path = trace.lexically_normal();
      if (path.filename().empty() && path.has_parent_path()) path = path.parent_path();  // "dir/" -> "dir"
      out.traces.push_back({path.string(), name_of(root, trace), std::nullopt});
    }
  }
  std::sort(out.traces.begin(), out.traces.end(),
            [](const TraceSource& a, const TraceSource& b) { return a.path < b.path; });
  return out;
}

}  // namespace tracesync::ingest
