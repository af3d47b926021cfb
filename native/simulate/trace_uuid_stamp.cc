// SPDX-License-Identifier: EPL-2.0
#include "simulate/trace_uuid_stamp.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
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

// sink.ctf.fs's packet layout (its metadata says so, and
// check_packet_layout makes sure): a packet header of magic, uuid[16],
// stream_id and stream_instance_id, then a packet context that starts with
// packet_size, in bits; all little endian here.
constexpr std::size_t kUuidOffset = 4;
constexpr std::size_t kPacketSizeOffset = 4 + 16 + 8 + 8;
constexpr std::string_view kPacketLayout =
    "packet.header := struct {\n"
    "\t\tinteger { size = 32; align = 8; base = x; } magic;\n"
    "\t\tinteger { size = 8; align = 8; } uuid[16];\n"
    "\t\tinteger { size = 64; align = 8; } stream_id;\n"
    "\t\tinteger { size = 64; align = 8; } stream_instance_id;\n"
    "\t} align(8);";
constexpr std::string_view kPacketContextStart =
    "packet.context := struct {\n"
    "\t\tinteger { size = 64; align = 8; } packet_size;";

void check_packet_layout(const fs::path& metadata, const std::string& text) {
  if (text.find("byte_order = le;") == std::string::npos || text.find(kPacketLayout) == std::string::npos ||
      text.find(kPacketContextStart) == std::string::npos) {
    throw SimulationError(metadata.string() + ": not the packet layout sink.ctf.fs 2.0 writes");
  }
}

// The metadata's first `uuid = "..."` is the trace block's (the clock
// block, which has its own UUID, comes after it).
Uuid replace_in_metadata(const fs::path& metadata, const Uuid& uuid) {
  std::string text = read_text(metadata);
  check_packet_layout(metadata, text);
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

uint64_t little_endian(const uint8_t* bytes, std::size_t size) {
  uint64_t value = 0;
  for (std::size_t i = 0; i < size; ++i) value |= uint64_t{bytes[i]} << (8 * i);
  return value;
}

// Walks the stream's packets by their sizes and rewrites the UUID of each
// header, checking the magic and the old UUID on the way.
void replace_in_stream(const fs::path& stream, const Uuid& old, const Uuid& uuid) {
  const int fd = ::open(stream.c_str(), O_RDWR);
  if (fd < 0) throw SimulationError("cannot open " + stream.string() + ": " + std::strerror(errno));
  struct stat info {};
  const bool sized = ::fstat(fd, &info) == 0;
  const auto size = static_cast<uint64_t>(sized ? info.st_size : 0);
  std::string problem;
  uint64_t packet = 0;  // index of the packet being rewritten
  for (uint64_t offset = 0; offset < size && problem.empty();) {
    std::array<uint8_t, kPacketSizeOffset + 8> header{};
    if (::pread(fd, header.data(), header.size(), static_cast<off_t>(offset)) != static_cast<ssize_t>(header.size())) {
      problem = "truncated packet header";
    } else if (little_endian(header.data(), 4) != kCtfMagic ||
               !std::equal(old.begin(), old.end(), header.begin() + kUuidOffset)) {
      problem = "packet without the magic number and trace UUID";
    } else if (::pwrite(fd, uuid.data(), uuid.size(), static_cast<off_t>(offset + kUuidOffset)) !=
               static_cast<ssize_t>(uuid.size())) {
      problem = std::strerror(errno);
    } else {
      const uint64_t bits = little_endian(header.data() + kPacketSizeOffset, 8);
      if (bits == 0 || bits % 8 != 0 || bits / 8 > size - offset) {
        problem = "impossible packet size";
      } else {
        offset += bits / 8;
        ++packet;
      }
    }
  }
  ::close(fd);
  if (!sized || size == 0) problem = "empty stream file";
  if (!problem.empty()) {
    throw SimulationError(stream.string() + ": packet " + std::to_string(packet) + ": " + problem);
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
