// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "base/whole_file.h"

namespace tracesync::simulate {

// A file written through a large buffer of its own, with numbers formatted
// by to_chars; errors become SimulationError naming the file. It is written
// whole or not at all (base::WholeFile: beside its final name, synced and
// renamed into place by close()), so a failure (a full disk, a cancelled
// run) never leaves a truncated PATH: an OutputFile destroyed without a
// successful close() removes what it wrote.
//
// A stream is written as it comes instead, since it cannot be renamed: "-"
// (standard output) or a path that is a pipe or a character device
// (`simulate --matches-output`, read by `sync --matches` as it is written).
// A failure there leaves what was written; the reader sees it end early.
class OutputFile {
 public:
  explicit OutputFile(std::string path);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();

  OutputFile& operator<<(std::string_view text) {
    buffer_.append(text);
    if (buffer_.size() >= kFlushAt) flush();
    return *this;
  }
  OutputFile& operator<<(char c) {
    buffer_.push_back(c);
    return *this;
  }
  template <typename Integer>
  OutputFile& integer(Integer value) {
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
    return *this << std::string_view(digits, static_cast<std::size_t>(end - digits));
  }

  // Flushes, closes and renames into place; throws if anything failed on the way.
  void close();

 private:
  static constexpr std::size_t kFlushAt = 1 << 20;

  void flush();
  [[noreturn]] void fail(const std::string& why) const;

  std::string path_;
  std::unique_ptr<base::WholeFile> whole_;  // none for standard output
  std::FILE* file_ = nullptr;
  int failed_errno_ = 0;  // of the first write that failed
  std::string buffer_;
};

}  // namespace tracesync::simulate
