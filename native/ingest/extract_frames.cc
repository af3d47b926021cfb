// SPDX-License-Identifier: EPL-2.0
#include "ingest/extract_frames.h"

#include <array>
#include <cerrno>
#include <cstring>

#include "ingest/extract.pb.h"

namespace tracesync::ingest {

namespace {

// CRC-32 (the IEEE polynomial, reflected, as zlib's crc32) of a frame's
// payload: a flipped bit anywhere is found, not read as other events.
const std::array<uint32_t, 256>& crc_table() {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) != 0 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  return table;
}

void put_le32(uint32_t value, unsigned char out[4]) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<unsigned char>(value >> (8 * i));
}

}  // namespace

uint32_t extract_crc32(std::string_view bytes) {
  const auto& table = crc_table();
  uint32_t c = 0xFFFFFFFFu;
  for (const char b : bytes) c = table[(c ^ static_cast<unsigned char>(b)) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

bool looks_like_extract(const std::string& path) {
  const FilePointer file(std::fopen(path.c_str(), "rb"));
  if (!file) return false;
  char magic[kExtractMagic.size()];
  return std::fread(magic, 1, sizeof magic, file.get()) == sizeof magic &&
         std::string_view(magic, sizeof magic) == kExtractMagic;
}

bool FrameWriter::put_varint(uint64_t value) {
  unsigned char bytes[10];
  std::size_t n = 0;
  do {
    bytes[n] = static_cast<unsigned char>(value & 0x7F);
    value >>= 7;
    if (value != 0) bytes[n] |= 0x80;
    ++n;
  } while (value != 0);
  return std::fwrite(bytes, 1, n, out_) == n;
}

bool FrameWriter::begin(std::string_view writer_name) {
  if (std::fwrite(kExtractMagic.data(), 1, kExtractMagic.size(), out_) != kExtractMagic.size()) return false;
  extract::v1::Header header;
  header.set_format_version(kExtractFormatVersion);
  header.set_writer(std::string(writer_name));
  return write(0, header.SerializeAsString());
}

bool FrameWriter::write(uint32_t trace_frame, const std::string& payload) {
  unsigned char crc[4];
  put_le32(extract_crc32(payload), crc);
  return put_varint(trace_frame) && put_varint(payload.size()) &&
         std::fwrite(payload.data(), 1, payload.size(), out_) == payload.size() &&
         std::fwrite(crc, 1, sizeof crc, out_) == sizeof crc;
}

std::string FrameReader::open(const std::string& path) {
  file_.reset(std::fopen(path.c_str(), "rb"));
  if (!file_) return std::string("cannot be opened: ") + std::strerror(errno);
  char magic[kExtractMagic.size()];
  if (std::fread(magic, 1, sizeof magic, file_.get()) != sizeof magic ||
      std::string_view(magic, sizeof magic) != kExtractMagic) {
    return "is not a tracesync extract (it does not begin as one)";
  }
  offset_ = sizeof magic;
  std::string payload;
  if (next() != Next::kFrame || trace_frame_ != 0 || !this->payload(payload)) {
    return "is a damaged tracesync extract: its header cannot be read" + (error_.empty() ? "" : " (" + error_ + ")");
  }
  extract::v1::Header header;
  if (!header.ParseFromString(payload)) return "is a damaged tracesync extract: its header does not parse";
  if (header.format_version() != kExtractFormatVersion) {
    return "is a tracesync extract of format version " + std::to_string(header.format_version()) + " (written by " +
           (header.writer().empty() ? std::string("an unknown program") : header.writer()) +
           "); this tracesync reads version " + std::to_string(kExtractFormatVersion) +
           ": extract the trace again with this tracesync";
  }
  return {};
}

bool FrameReader::get_varint(uint64_t& value, bool& clean_end) {
  value = 0;
  clean_end = false;
  for (int shift = 0; shift < 64; shift += 7) {
    const int c = std::getc(file_.get());
    if (c == EOF) {
      clean_end = shift == 0;
      return false;
    }
    ++offset_;
    value |= static_cast<uint64_t>(c & 0x7F) << shift;
    if ((c & 0x80) == 0) return true;
  }
  return false;
}

FrameReader::Next FrameReader::next() {
  const uint64_t start = offset_;
  uint64_t trace = 0;
  bool clean_end = false;
  if (!get_varint(trace, clean_end)) {
    if (clean_end && std::ferror(file_.get()) == 0) return Next::kEnd;
    error_ = "the frame at byte " + std::to_string(start) + " is cut short or not a frame";
    return Next::kDamaged;
  }
  if (!get_varint(length_, clean_end) || trace > UINT32_MAX || length_ > kMaxExtractFrame) {
    error_ = "the frame at byte " + std::to_string(start) + " is cut short or not a frame";
    return Next::kDamaged;
  }
  trace_frame_ = static_cast<uint32_t>(trace);
  return Next::kFrame;
}

bool FrameReader::payload(std::string& out) {
  const uint64_t start = offset_;
  out.resize(length_);
  if (std::fread(out.data(), 1, length_, file_.get()) != length_) {
    error_ = "the frame at byte " + std::to_string(start) + " is cut short (the file ends inside it)";
    return false;
  }
  unsigned char crc[4];
  if (std::fread(crc, 1, sizeof crc, file_.get()) != sizeof crc) {
    error_ = "the frame at byte " + std::to_string(start) + " is cut short (the file ends inside it)";
    return false;
  }
  offset_ += length_ + sizeof crc;
  uint32_t recorded = 0;
  for (int i = 3; i >= 0; --i) recorded = (recorded << 8) | crc[i];
  if (recorded != extract_crc32(out)) {
    error_ = "the frame at byte " + std::to_string(start) + " does not match its checksum (its bytes changed)";
    return false;
  }
  return true;
}

bool FrameReader::skip() {
  const uint64_t start = offset_;
  // Read past rather than seek: a frame is small (a batch of a few thousand
  // events), and a pipe (`<(...)`) cannot seek.
  char buffer[16384];
  for (uint64_t left = length_ + 4; left > 0;) {  // the payload and its CRC
    const std::size_t want = left < sizeof buffer ? static_cast<std::size_t>(left) : sizeof buffer;
    if (std::fread(buffer, 1, want, file_.get()) != want) {
      error_ = "the frame at byte " + std::to_string(start) + " is cut short (the file ends inside it)";
      return false;
    }
    left -= want;
  }
  offset_ += length_ + 4;
  return true;
}

}  // namespace tracesync::ingest
