// SPDX-License-Identifier: EPL-2.0
#include "ingest/left_out_stream_files.h"

#include "ingest/directory_listing.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace tracesync::ingest {

namespace fs = std::filesystem;

namespace {

constexpr const char* kReadWithout = "; the rest of the trace is read without it";

std::string kind_of(fs::file_type type) {
  switch (type) {
    case fs::file_type::directory: return "a directory";
    case fs::file_type::fifo: return "a FIFO";
    case fs::file_type::character: return "a character device";
    case fs::file_type::block: return "a block device";
    case fs::file_type::socket: return "a socket";
    default: return "not a regular file";
  }
}

// Why `entry` is no stream file babeltrace2 reads; empty when it is one (or
// is no stream file at all, as index/).
std::string why_left_out(const fs::path& entry) {
  std::error_code error;
  const bool is_link = fs::is_symlink(fs::symlink_status(entry, error));
  // A link is said with its target: "a symbolic link to /dev/zero, ...".
  std::string what;
  if (is_link) {
    std::string target = "an unreadable target";
    try {
      target = fs::read_symlink(entry).string();
    } catch (const fs::filesystem_error&) {
    }
    what = "a symbolic link to " + target;
  }
  error.clear();
  const fs::file_status status = fs::status(entry, error);  // through links
  if (status.type() == fs::file_type::not_found) {
    return "is " + what + ", which does not exist";
  }
  if (error) return "cannot be examined: " + error.message();
  const std::string is = is_link ? "is " + what + ", " : "is ";
  switch (status.type()) {
    case fs::file_type::regular: {
      const uintmax_t size = fs::file_size(entry, error);
      if (!error && size == 0) return (is_link ? is + "an empty file" : "is empty") + ": a stream file with no packet";
      return {};
    }
    case fs::file_type::directory: {
      const std::string name = entry.filename().string();
      if (name == "index" || fs::exists(entry / "metadata", error)) return {};  // LTTng's, or a trace of its own
      return is + "a directory, not a stream file";
    }
    case fs::file_type::fifo:
      return is + "a FIFO, not a stream file (not opened: that could block)";
    case fs::file_type::character:
    case fs::file_type::block:
      return is + kind_of(status.type()) + ", not a stream file (not opened)";
    default:
      return is + kind_of(status.type()) + ", not a stream file";
  }
}

}  // namespace

std::vector<Problem> left_out_stream_files(const std::string& trace_directory) {
  std::vector<Problem> problems;
  // list_directory and the throwing read_symlink: std::filesystem's
  // directory_iterator and error_code overloads that allocate end the
  // process when memory runs out; a std::bad_alloc can be reported.
  std::error_code error;
  const auto names = list_directory(trace_directory, error);
  if (!names) return problems;  // reading the trace says what is wrong with its directory
  for (const std::string& name : *names) {
    if (name == "metadata" || name.starts_with('.')) continue;
    const fs::path entry = fs::path(trace_directory) / name;
    if (std::string why = why_left_out(entry); !why.empty()) {
      problems.push_back({entry.string(), std::move(why) + kReadWithout});
    }
  }
  std::sort(problems.begin(), problems.end(), [](const Problem& a, const Problem& b) { return a.source < b.source; });
  return problems;
}

}  // namespace tracesync::ingest
