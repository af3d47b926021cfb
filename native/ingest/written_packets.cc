// SPDX-License-Identifier: EPL-2.0
#include "ingest/written_packets.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include "ctf/ctf2_metadata.h"

namespace tracesync::ingest {

namespace {

constexpr uint32_t kIndexMagic = 0xC1F1DCC1;
constexpr uint32_t kIndexHeaderSize = 16;   // magic, major, minor, entry size: 4 bytes each
constexpr uint32_t kIndexEntryFields = 6;   // offset, packet and content size, begin, end, discarded: read here
constexpr uint32_t kMetadataMagic = 0x75D11D57;
constexpr std::size_t kMetadataHeaderSize = 37;  // magic, uuid, checksum, content and packet size, 5 bytes of schemes and version
constexpr std::size_t kMetadataContentSizeAt = 24;
constexpr std::size_t kMetadataPacketSizeAt = 28;
constexpr char kRecordSeparator = '\x1e';  // CTF 2's metadata: a JSON text sequence

uint64_t big_endian(const unsigned char* p, int bytes) {
  uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) value = value << 8 | p[i];
  return value;
}

uint32_t native_u32(const char* p, bool swap) {
  uint32_t value = 0;
  std::memcpy(&value, p, sizeof value);
  return swap ? __builtin_bswap32(value) : value;
}

// Reads up to `size` bytes at `offset`; the number read (0 at the end), or
// -1 with errno.
ssize_t read_at(int fd, uint64_t offset, unsigned char* out, std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(fd, out + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -1;
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  return static_cast<ssize_t>(done);
}

uint64_t file_size(int fd) {
  struct stat st {};
  return ::fstat(fd, &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

}  // namespace

StreamBeingWritten::StreamBeingWritten(std::string stream_path, std::string index_path)
    : stream_path_(std::move(stream_path)), index_path_(std::move(index_path)) {}

StreamBeingWritten::~StreamBeingWritten() {
  if (stream_fd_ >= 0) ::close(stream_fd_);
  if (index_fd_ >= 0) ::close(index_fd_);
}

void StreamBeingWritten::moved_to(std::string stream_path, std::string index_path) {
  stream_path_ = std::move(stream_path);
  index_path_ = std::move(index_path);
}

bool StreamBeingWritten::open_files() {
  // The stream file first: LTTng creates it before its index.
  if (stream_fd_ < 0) stream_fd_ = ::open(stream_path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (stream_fd_ >= 0 && index_fd_ < 0) index_fd_ = ::open(index_path_.c_str(), O_RDONLY | O_CLOEXEC);
  return stream_fd_ >= 0 && index_fd_ >= 0;
}

bool StreamBeingWritten::poll(std::vector<WrittenPacket>& packets, uint64_t budget, std::string& problem,
                              uint64_t until) {
  if (!open_files()) {
    if (errno == ENOENT) return true;  // not written yet, or moving (a rotation)
    problem = (stream_fd_ < 0 ? stream_path_ : index_path_) + ": cannot be opened: " + std::strerror(errno);
    return false;
  }
  if (entry_size_ == 0) {
    std::array<unsigned char, kIndexHeaderSize> header{};
    if (read_at(index_fd_, 0, header.data(), header.size()) < static_cast<ssize_t>(header.size())) return true;
    const uint64_t entry_size = big_endian(header.data() + 12, 4);
    if (big_endian(header.data(), 4) != kIndexMagic || entry_size < kIndexEntryFields * 8 || entry_size > 4096) {
      problem = index_path_ + ": not an LTTng index file (its header is not one)";
      return false;
    }
    entry_size_ = static_cast<uint32_t>(entry_size);
    index_offset_ = kIndexHeaderSize;
  }
  // The stream file's size first: an entry read after it could name a
  // packet written after the size was taken, and wait for the next call.
  const uint64_t on_disk = file_size(stream_fd_);
  uint64_t taken = 0;
  std::vector<unsigned char> entries(std::size_t{entry_size_} * 256);
  for (;;) {
    const ssize_t got = read_at(index_fd_, index_offset_, entries.data(), entries.size());
    if (got < 0) {
      problem = index_path_ + ": cannot be read: " + std::strerror(errno);
      return false;
    }
    const std::size_t whole = static_cast<std::size_t>(got) / entry_size_;
    for (std::size_t i = 0; i < whole; ++i) {
      if (packets_ >= until) return true;
      const unsigned char* e = entries.data() + i * entry_size_;
      WrittenPacket packet;
      packet.offset = big_endian(e, 8);
      const uint64_t bits = big_endian(e + 8, 8);
      packet.size = bits / 8;
      packet.timestamp_begin = big_endian(e + 24, 8);
      packet.timestamp_end = big_endian(e + 32, 8);
      packet.discarded_events = big_endian(e + 40, 8);
      if (packet.offset != next_packet_ || bits % 8 != 0 || packet.size == 0) {
        problem = index_path_ + ": entry " + std::to_string(packets_) + " describes a packet at byte " +
                  std::to_string(packet.offset) + " of " + std::to_string(packet.size) +
                  " bytes; the stream's next packet starts at byte " + std::to_string(next_packet_);
        return false;
      }
      if (packet.offset + packet.size > on_disk) return true;  // not all on disk yet
      if (taken > 0 && taken + packet.size > budget) return true;
      taken += packet.size;
      packets.push_back(packet);
      last_ = packet;
      ++packets_;
      next_packet_ = packet.offset + packet.size;
      index_offset_ += entry_size_;
    }
    if (whole * entry_size_ < entries.size()) return true;
  }
}

uint64_t whole_metadata_bytes(std::string_view metadata, std::string& problem) {
  if (metadata.size() < 4) return 0;
  uint32_t magic = 0;
  std::memcpy(&magic, metadata.data(), sizeof magic);
  if (magic != kMetadataMagic && __builtin_bswap32(magic) != kMetadataMagic) {
    if (metadata.front() == kRecordSeparator) return ctf::ctf2_whole_fragments(metadata);
    return metadata.substr(0, 7) == "/* CTF " ? metadata.size() : (problem = "metadata: neither packets nor text", 0);
  }
  const bool swap = magic != kMetadataMagic;
  // CTF 2's fragments may straddle packets: the text counts up to a packet
  // that ends on a whole fragment (TSDL's, up to the last whole packet).
  std::string text;
  uint64_t whole = 0, readable = 0;
  while (metadata.size() - whole >= kMetadataHeaderSize) {
    const char* header = metadata.data() + whole;
    if (native_u32(header, swap) != kMetadataMagic) {
      problem = "metadata: no packet header at byte " + std::to_string(whole);
      return readable;
    }
    const uint64_t size = native_u32(header + kMetadataPacketSizeAt, swap) / 8;
    if (size < kMetadataHeaderSize) {
      problem = "metadata: the packet at byte " + std::to_string(whole) + " says it has " + std::to_string(size) +
                " bytes";
      return readable;
    }
    if (metadata.size() - whole < size) break;
    const uint64_t content = std::min<uint64_t>(native_u32(header + kMetadataContentSizeAt, swap) / 8, size);
    if (content > kMetadataHeaderSize) text.append(header + kMetadataHeaderSize, content - kMetadataHeaderSize);
    whole += size;
    if (text.empty() || text.front() != kRecordSeparator || ctf::ctf2_whole_fragments(text) == text.size()) {
      readable = whole;
    }
  }
  return readable;
}

}  // namespace tracesync::ingest
