// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

namespace tracesync::apply {

// The bytes of one packet being written: grows by doubling and is reused
// from packet to packet, so writing an event allocates nothing. Integers go
// in as the host (little-endian, ctf_layout.h) holds them.
class PacketBuffer {
 public:
  std::size_t size() const { return size_; }
  const uint8_t* data() const { return bytes_.get(); }
  void clear() { size_ = 0; }

  // The low `bytes` bytes of `value`.
  void put(uint64_t value, std::size_t bytes) {
    reserve(8);
    std::memcpy(bytes_.get() + size_, &value, 8);
    size_ += bytes;
  }
  void put_bytes(const void* from, std::size_t n) {
    reserve(n);
    std::memcpy(bytes_.get() + size_, from, n);
    size_ += n;
  }
  // Overwrites 8 bytes at `offset` (a field whose value is known last).
  void patch(std::size_t offset, uint64_t value) { std::memcpy(bytes_.get() + offset, &value, 8); }

 private:
  void reserve(std::size_t n) {
    if (size_ + n <= capacity_) return;
    std::size_t capacity = capacity_ == 0 ? std::size_t{1} << 20 : capacity_;
    while (capacity < size_ + n) capacity *= 2;
    auto bigger = std::make_unique_for_overwrite<uint8_t[]>(capacity);
    if (size_ != 0) std::memcpy(bigger.get(), bytes_.get(), size_);
    bytes_ = std::move(bigger);
    capacity_ = capacity;
  }

  std::unique_ptr<uint8_t[]> bytes_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace tracesync::apply
