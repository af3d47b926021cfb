// SPDX-License-Identifier: EPL-2.0
#include "ingest/trace_discovery.h"

#include "ingest/directory_listing.h"
#include "ingest/extract_frames.h"
#include "ingest/extract_index.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>
#include <system_error>

namespace tracesync::ingest {

namespace fs = std::filesystem;

namespace {

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

// Adds the trace directories under `root` (itself included) to `found`. A
// directory that cannot be read is a problem of its own, and the search goes
// on with the others: one unreadable trace must not hide the rest.
void search(const fs::path& root, std::vector<fs::path>& found, std::vector<Problem>& unreadable) {
  std::vector<fs::path> pending{root};
  while (!pending.empty()) {
    const fs::path directory = std::move(pending.back());
    pending.pop_back();
    std::error_code error;
    fs::directory_iterator entries(directory, error);
    if (error) {
      unreadable.push_back({directory.string(), "cannot be read: " + describe(error)});
      continue;
    }
    const fs::path metadata = directory / "metadata";
    const fs::file_status status = fs::status(metadata, error);
    if (fs::is_regular_file(status)) {
      found.push_back(directory);
    } else if (status.type() != fs::file_type::not_found) {
      // A trace's directory whose metadata cannot be a trace's: said, not ignored.
      unreadable.push_back({metadata.string(), error ? "cannot be read: " + describe(error)
                                                     : std::string("is not a regular file: not a trace's metadata")});
    }
    error.clear();
    std::vector<fs::path> below;
    for (const fs::directory_iterator end; entries != end; entries.increment(error)) {
      if (error) break;
      std::error_code entry_error;
      // Symbolic links to directories are not followed.
      if (entries->is_directory(entry_error) && !entries->is_symlink(entry_error)) below.push_back(entries->path());
    }
    if (error) unreadable.push_back({directory.string(), "cannot be searched: " + describe(error)});
    // Depth first, in name order.
    std::sort(below.begin(), below.end(), std::greater<>());
    for (fs::path& child : below) pending.push_back(std::move(child));
  }
}

}  // namespace

uint64_t stream_file_bytes(const std::string& trace_directory) {
  uint64_t bytes = 0;
  // Runs while a trace is read, where memory running out must fail that
  // trace only: list_directory, not directory_iterator.
  std::error_code error;
  const auto files = stream_file_paths_as_listed(trace_directory, error);
  if (!files) return 0;  // reading the trace says what is wrong
  for (const std::string& file : *files) {
    std::error_code file_error;
    const auto size = fs::file_size(file, file_error);
    if (!file_error) bytes += size;
  }
  return bytes;
}

std::optional<std::vector<std::string>> stream_file_paths_as_listed(const std::string& trace_directory,
                                                                    std::error_code& error) {
  const auto names = list_directory(trace_directory, error);
  if (!names) return std::nullopt;
  std::vector<std::string> files;
  for (const std::string& name : *names) {
    if (name == "metadata" || name.empty() || name.front() == '.') continue;
    const std::string path = (fs::path(trace_directory) / name).string();
    struct stat status {};
    if (::stat(path.c_str(), &status) != 0 || !S_ISREG(status.st_mode) || status.st_size == 0) continue;
    files.push_back(path);
  }
  return files;
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
    if (fs::is_regular_file(status) && looks_like_extract(text)) {
      std::vector<TraceSource> recorded;
      index_extract(text, recorded, out.problems);
      for (TraceSource& trace : recorded) {
        // A trace given twice, as itself and as an extract, is read once.
        if (!seen.insert(fs::path(trace.path).lexically_normal()).second) continue;
        out.traces.push_back(std::move(trace));
      }
      continue;
    }
    if (!fs::is_directory(status)) {
      out.problems.push_back(
          {text, "not a directory (give the trace directory, the one holding `metadata`) and not a tracesync "
                 "extract"});
      continue;
    }
    std::vector<fs::path> found;
    std::vector<Problem> unreadable;
    search(root, found, unreadable);
    out.problems.insert(out.problems.end(), unreadable.begin(), unreadable.end());
    if (found.empty()) {
      // When some of it could not be read, that says why nothing was found.
      if (unreadable.empty()) out.problems.push_back({text, "holds no CTF trace (no directory in it has a `metadata` file)"});
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
