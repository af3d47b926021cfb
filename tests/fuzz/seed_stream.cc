// SPDX-License-Identifier: EPL-2.0
#include "seed_stream.h"

namespace tracesync::fuzz {
namespace {

// Little-endian bytes of the stream the seed metadata describes.
class StreamWriter {
 public:
  template <typename T>
  void put(T value) {
    for (std::size_t i = 0; i < sizeof value; ++i) bytes_.push_back(static_cast<uint8_t>(value >> (8 * i)));
  }
  std::size_t size() const { return bytes_.size(); }
  void patch64(std::size_t at, uint64_t value) {
    for (std::size_t i = 0; i < 8; ++i) bytes_[at + i] = static_cast<uint8_t>(value >> (8 * i));
  }
  void pad_to(std::size_t size) { bytes_.resize(size, 0); }
  const std::vector<uint8_t>& bytes() const { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

constexpr uint8_t kTraceUuid[16] = {0x5b, 0x4b, 0x3a, 0xe6, 0x2f, 0x1c, 0x4c, 0x8e,
                                    0x9d, 0x6a, 0x0f, 0x3e, 0x1c, 0x2d, 0x4b, 0x5a};
constexpr std::size_t kPacketBytes = 512;

}  // namespace

std::vector<uint8_t> seed_stream() {
  StreamWriter w;
  uint64_t time = 1'000;
  uint32_t seq = 7'000;
  for (int packet = 0; packet < 2; ++packet) {
    const std::size_t start = w.size();
    w.put(uint32_t{0xC1FC1FC1});
    for (const uint8_t byte : kTraceUuid) w.put(byte);
    w.put(uint32_t{0});  // stream_id
    const std::size_t context = w.size();
    w.put(time);               // timestamp_begin
    w.put(uint64_t{0});        // timestamp_end, patched
    w.put(uint64_t{0});        // content_size (bits), patched
    w.put(uint64_t{kPacketBytes * 8});
    w.put(uint64_t{0});        // events_discarded
    w.put(uint32_t(packet));   // cpu_id
    for (int event = 0; event < 6; ++event, time += 250) {
      const uint16_t id = static_cast<uint16_t>(event % 3);
      w.put(id);
      w.put(time);
      if (id == 0) {
        w.put(uint32_t{100});
        w.put(uint32_t{200});
      } else {
        w.put(seq++);
        w.put(uint32_t{42});
        w.put(uint8_t{0x18});  // PSH|ACK
      }
    }
    w.patch64(context + 8, time);
    w.patch64(context + 16, (w.size() - start) * 8);
    w.pad_to(start + kPacketBytes);
  }
  return w.bytes();
}

}  // namespace tracesync::fuzz
