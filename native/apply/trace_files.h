// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace tracesync::apply {

// How the stream and index files of a copy are made.
enum class FilePolicy {
  kLinkWhenPossible,  // a hard link when on the same file system, else a copy
  kCopy,              // always a copy (--copy)
};

struct FileCounts {
  uint64_t linked = 0;
  uint64_t copied = 0;
  uint64_t bytes = 0;  // of the files, linked or copied
};

// Puts every file of the trace directory `from` (its stream files, index/
// and anything else, but not the top-level `metadata`) into `to`, keeping the
// layout. Stream files are only ever read, so a hard link shares them
// safely with the input. Returns an error naming the file, empty when done.
std::string mirror_trace_files(const std::filesystem::path& from, const std::filesystem::path& to, FilePolicy policy,
                               FileCounts* counts);

// Writes `text` to `file` and flushes it to the disk, so a full disk or a
// write error shows here (with the file's name), not later.
std::string write_file(const std::filesystem::path& file, const std::string& text);

}  // namespace tracesync::apply
