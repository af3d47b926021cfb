// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

namespace tracesync::ingest {

// The framing of an extract file (extract.proto says it in full): a magic,
// then frames of (varint trace, varint length, payload, CRC-32 of the
// payload, 4 bytes little-endian). Trace 0 is the file's Header; trace
// k + 1 is a record of the file's trace k.
inline constexpr std::string_view kExtractMagic{"TSYNCX\r\n", 8};
inline constexpr uint32_t kExtractFormatVersion = 1;
// No frame is larger: a length beyond it is damage, not a reason to allocate.
inline constexpr uint64_t kMaxExtractFrame = uint64_t{64} << 20;

// CRC-32 as zlib's crc32() computes it.
uint32_t extract_crc32(std::string_view bytes);

// Whether the file at `path` begins with kExtractMagic (false when it cannot
// be read: reading it then says why).
bool looks_like_extract(const std::string& path);

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};
using FilePointer = std::unique_ptr<std::FILE, FileCloser>;

// Writes frames to a stream it does not own (stdout, or a file).
class FrameWriter {
 public:
  explicit FrameWriter(std::FILE* out) : out_(out) {}
  // Writes the magic and the Header; false when writing failed.
  bool begin(std::string_view writer_name);
  bool write(uint32_t trace_frame, const std::string& payload);

 private:
  bool put_varint(uint64_t value);
  std::FILE* out_;
};

// Reads the frames of one extract file in order.
class FrameReader {
 public:
  enum class Next { kFrame, kEnd, kDamaged };

  // Opens the file and checks its magic and Header: empty when it is a
  // readable extract of this version, else the problem, in words naming
  // neither the file (the caller does).
  std::string open(const std::string& path);

  // The next frame's header; payload() or skip() then moves past it. kEnd
  // at the end of the file between frames; kDamaged (with error()) when a
  // frame is cut short or cannot be a frame.
  Next next();
  uint32_t trace_frame() const { return trace_frame_; }
  uint64_t length() const { return length_; }
  uint64_t offset() const { return offset_; }  // of the next frame once moved past this one
  bool payload(std::string& out);
  bool skip();
  const std::string& error() const { return error_; }

 private:
  bool get_varint(uint64_t& value, bool& clean_end);
  FilePointer file_;
  uint32_t trace_frame_ = 0;
  uint64_t length_ = 0;
  uint64_t offset_ = 0;
  std::string error_;
};

}  // namespace tracesync::ingest
