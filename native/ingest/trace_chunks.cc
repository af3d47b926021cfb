// SPDX-License-Identifier: EPL-2.0
#include "ingest/trace_chunks.h"

#include <cctype>
#include <filesystem>
#include <system_error>

namespace tracesync::ingest {

namespace fs = std::filesystem;

namespace {

constexpr const char* kArchives = "archives";
constexpr const char* kOldChunk = ".tmp_old_chunk";  // where lttng moves a rotated chunk before archives/

// Chunk names begin with a date and time: 8 digits, 'T', 6 digits.
bool begins_with_a_time(const std::string& name) {
  if (name.size() < 15 || name[8] != 'T') return false;
  for (std::size_t i = 0; i < 15; ++i) {
    if (i != 8 && !std::isdigit(static_cast<unsigned char>(name[i]))) return false;
  }
  return true;
}

// The directory of `parent` whose chunk number is `number`, if any.
std::optional<std::string> chunk_in(const fs::path& parent, uint64_t number) {
  std::error_code error;
  for (fs::directory_iterator it(parent, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (trace_chunk_number(name) == number && it->is_directory(error)) return it->path().string();
  }
  return std::nullopt;
}

}  // namespace

std::optional<uint64_t> trace_chunk_number(const std::string& name) {
  if (!begins_with_a_time(name)) return std::nullopt;
  const std::size_t dash = name.rfind('-');
  if (dash == std::string::npos || dash + 1 == name.size() || dash < 15) return std::nullopt;
  uint64_t number = 0;
  for (std::size_t i = dash + 1; i < name.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(name[i])) || number > (UINT64_MAX - 9) / 10) return std::nullopt;
    number = number * 10 + static_cast<uint64_t>(name[i] - '0');
  }
  return number;
}

bool has_rotated(const std::string& output) {
  std::error_code error;
  if (fs::is_directory(fs::path(output) / kArchives, error)) return true;
  for (fs::directory_iterator it(output, error), end; !error && it != end; it.increment(error)) {
    if (trace_chunk_number(it->path().filename().string()) && it->is_directory(error)) return true;
  }
  return false;
}

std::optional<uint64_t> first_trace_chunk(const std::string& output) {
  std::error_code moving;
  if (fs::exists(fs::path(output) / kOldChunk, moving)) return std::nullopt;  // which one it is shows once archived
  std::optional<uint64_t> first;
  for (const fs::path& parent : {fs::path(output) / kArchives, fs::path(output)}) {
    std::error_code error;
    for (fs::directory_iterator it(parent, error), end; !error && it != end; it.increment(error)) {
      const std::optional<uint64_t> number = trace_chunk_number(it->path().filename().string());
      if (number && (!first || *number < *first)) first = number;
    }
  }
  return first;
}

bool trace_chunk_after(const std::string& output, uint64_t number) {
  std::error_code error;
  if (fs::exists(fs::path(output) / kOldChunk, error)) return true;  // one moving to archives/
  for (const fs::path& parent : {fs::path(output) / kArchives, fs::path(output)}) {
    for (fs::directory_iterator it(parent, error), end; !error && it != end; it.increment(error)) {
      const std::optional<uint64_t> other = trace_chunk_number(it->path().filename().string());
      if (other && *other > number) return true;
    }
    error.clear();
  }
  return false;
}

std::optional<TraceChunkPlace> find_trace_chunk(const std::string& output, uint64_t number) {
  if (const auto archived = chunk_in(fs::path(output) / kArchives, number)) return TraceChunkPlace{*archived, true};
  if (const auto recording = chunk_in(output, number)) return TraceChunkPlace{*recording, false};
  if (number == 0 && !has_rotated(output)) return TraceChunkPlace{output, false};
  return std::nullopt;
}

}  // namespace tracesync::ingest
