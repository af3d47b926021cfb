#include "simulate/trace_uuid_stamp.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>

#include "simulate/simulation_error.h"

namespace tracesync::simulate {
namespace {

namespace fs = std::filesystem;

constexpr uint32_t kCtfMagic = 0xC1FC1FC1;
constexpr std::string_view kUuidKey = "uuid = \"";
constexpr std::size_t kUuidTextLength = 36;

std::optional<Uuid> parse_uuid(std::string_view text) {
  Uuid uuid{};
  std::size_t byte = 0;
  for (std::size_t i = 0; i < text.size() && byte < uuid.size();) {
    if (text[i] == '-') {
      ++i;
      continue;
    }
    if (i + 1 >= text.size()) return std::nullopt;
    unsigned value = 0;
    if (std::sscanf(std::string(text.substr(i, 2)).c_str(), "%2x", &value) != 1) return std::nullopt;
    uuid[byte++] = static_cast<uint8_t>(value);
    i += 2;
  }
  if (byte != uuid.size()) return std::nullopt;
  return uuid;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) throw SimulationError("cannot read " + path.string());
  return text.str();
}

// The metadata's first `uuid = "..."` is the trace block's (the clock
// block, which has its own UUID, comes after it).
Uuid replace_in_metadata(const fs::path& metadata, const Uuid& uuid) {
  std::string text = read_text(metadata);
  const std::size_t key = text.find(kUuidKey);
  const std::size_t trace_block = text.find("trace {");
  if (key == std::string::npos || trace_block == std::string::npos || key < trace_block ||
      key + kUuidKey.size() + kUuidTextLength > text.size()) {
    throw SimulationError(metadata.string() + ": no trace UUID where sink.ctf.fs writes it");
  }
  const std::size_t at = key + kUuidKey.size();
  const std::optional<Uuid> old = parse_uuid(std::string_view(text).substr(at, kUuidTextLength));
  if (!old) throw SimulationError(metadata.string() + ": malformed trace UUID");
  text.replace(at, kUuidTextLength, to_string(uuid));
  std::ofstream out(metadata, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw SimulationError("cannot write " + metadata.string());
  return *old;
}

// Replaces `old` by `uuid` wherever it follows the magic number (each packet
// header starts so); a random 20-byte pattern cannot occur by chance.
void replace_in_stream(const fs::path& stream, const Uuid& old, const Uuid& uuid) {
  const int fd = ::open(stream.c_str(), O_RDWR);
  if (fd < 0) throw SimulationError("cannot open " + stream.string() + ": " + std::strerror(errno));
  struct stat info {};
  if (::fstat(fd, &info) != 0 || info.st_size == 0) {
    ::close(fd);
    throw SimulationError(stream.string() + ": empty stream file");
  }
  const auto size = static_cast<std::size_t>(info.st_size);
  void* map = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) throw SimulationError("cannot map " + stream.string() + ": " + std::strerror(errno));
  auto* bytes = static_cast<uint8_t*>(map);

  std::array<uint8_t, 4 + 16> pattern{};
  for (std::size_t i = 0; i < 4; ++i) pattern[i] = static_cast<uint8_t>(kCtfMagic >> (8 * i));  // little endian
  std::copy(old.begin(), old.end(), pattern.begin() + 4);
  const std::boyer_moore_horspool_searcher searcher(pattern.begin(), pattern.end());
  std::size_t packets = 0;
  for (uint8_t* at = bytes; (at = std::search(at, bytes + size, searcher)) != bytes + size; at += pattern.size()) {
    std::copy(uuid.begin(), uuid.end(), at + 4);
    ++packets;
  }
  const bool first_is_header = std::equal(pattern.begin(), pattern.begin() + 4, bytes);
  ::munmap(map, size);
  if (packets == 0 || !first_is_header) {
    throw SimulationError(stream.string() + ": no packet header with the trace UUID");
  }
}

}  // namespace

void stamp_trace_uuid(const std::string& trace_directory, const Uuid& uuid) {
  const fs::path directory(trace_directory);
  const Uuid old = replace_in_metadata(directory / "metadata", uuid);
  std::error_code error;
  for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error)) {
    if (it->path().filename() == "metadata" || !it->is_regular_file()) continue;
    replace_in_stream(it->path(), old, uuid);
  }
  if (error) throw SimulationError("cannot list " + trace_directory + ": " + error.message());
}

}  // namespace tracesync::simulate
