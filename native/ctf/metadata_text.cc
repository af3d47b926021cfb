// SPDX-License-Identifier: EPL-2.0
#include "ctf/metadata_text.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>

namespace tracesync::ctf {

namespace {

// A metadata packet's header: magic, uuid[16], checksum, content_size and
// packet_size in bits, compression, encryption and checksum schemes, major,
// minor (one byte each).
constexpr uint32_t kMetadataMagic = 0x75D11D57;
constexpr std::size_t kHeaderBytes = 4 + 16 + 4 + 4 + 4 + 5;

uint32_t u32_at(const std::string& bytes, std::size_t at, bool swap) {
  uint32_t value = 0;
  std::memcpy(&value, bytes.data() + at, 4);
  return swap ? __builtin_bswap32(value) : value;
}

}  // namespace

std::optional<std::string> metadata_text(const std::string& bytes, const std::string& name, std::string* error) {
  if (bytes.size() < 4) return bytes;
  const uint32_t magic = u32_at(bytes, 0, false);
  if (magic != kMetadataMagic && magic != __builtin_bswap32(kMetadataMagic)) return bytes;
  const bool swap = magic != kMetadataMagic;
  std::string text;
  std::size_t at = 0;
  for (uint64_t packet = 0; at < bytes.size(); ++packet) {
    const std::string where = name + ": metadata packet " + std::to_string(packet) + " at byte " + std::to_string(at);
    if (bytes.size() - at < kHeaderBytes || u32_at(bytes, at, swap) != kMetadataMagic) {
      *error = where + ": no packet header (the file is cut short or damaged)";
      return std::nullopt;
    }
    const uint32_t content_bits = u32_at(bytes, at + 24, swap);
    const uint32_t packet_bits = u32_at(bytes, at + 28, swap);
    if (bytes[at + 32] != 0 || bytes[at + 33] != 0) {
      *error = where + ": compressed or encrypted metadata cannot be read";
      return std::nullopt;
    }
    const std::size_t content = content_bits / 8;
    const std::size_t size = packet_bits / 8;
    if (content_bits % 8 != 0 || packet_bits % 8 != 0 || content < kHeaderBytes || size < content ||
        size > bytes.size() - at) {
      *error = where + ": content size " + std::to_string(content_bits) + " bits and packet size " +
               std::to_string(packet_bits) + " bits do not fit the file";
      return std::nullopt;
    }
    text.append(bytes, at + kHeaderBytes, content - kHeaderBytes);
    at += size;
  }
  return text;
}

std::optional<std::string> read_metadata_text(const std::filesystem::path& file, std::string* error) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    *error = file.string() + ": cannot be opened";
    return std::nullopt;
  }
  std::string bytes;
  try {
    // libstdc++'s file buffer throws where a read fails (a directory: EISDIR).
    // A block at a time: a character at a time was 5 % of reading a small trace.
    std::array<char, 1 << 16> block;
    for (std::streamsize n; (n = in.rdbuf()->sgetn(block.data(), block.size())) > 0;) {
      bytes.append(block.data(), static_cast<std::size_t>(n));
    }
  } catch (const std::ios_base::failure&) {
    *error = file.string() + ": cannot be read" + (std::filesystem::is_directory(file) ? " (a directory, not a file)" : "");
    return std::nullopt;
  }
  if (in.bad()) {
    *error = file.string() + ": cannot be read";
    return std::nullopt;
  }
  return metadata_text(bytes, file.string(), error);
}

}  // namespace tracesync::ctf
