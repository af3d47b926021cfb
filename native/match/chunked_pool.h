// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "base/huge_page_vector.h"

namespace tracesync::match {

// Numbered slots of T in fixed 2 MiB chunks: numbers stay valid, growing
// never copies (or touches again) what is already there, and released
// numbers are reused first. Memory is returned only by clear().
//
// Out of memory: allocate() and ensure() throw std::bad_alloc and leave the
// pool as it was; release() never allocates (room for every number is kept).
template <typename T>
class ChunkedPool {
 public:
  static constexpr std::size_t kChunkBytes = std::size_t{2} << 20;
  static constexpr std::size_t kChunk = kChunkBytes / sizeof(T);

  // A free number. Its slot holds what its last user left there (a default
  // T in a new chunk): callers reset what they need, and may keep the rest
  // (a generation count, say).
  uint32_t allocate() {
    uint32_t number = 0;
    if (!released_.empty()) {
      number = released_.back();
      released_.pop_back();
    } else {
      // Room to release every number, so that release() cannot fail.
      if (released_.capacity() < used_ + 1) released_.reserve(std::max<std::size_t>(1024, 2 * (used_ + 1)));
      ensure(static_cast<uint32_t>(used_));
      number = static_cast<uint32_t>(used_++);
    }
    return number;
  }
  void release(uint32_t number) noexcept { released_.push_back(number); }

  // Makes slot `number` exist without allocating it: for arrays kept
  // parallel to another pool's numbers.
  void ensure(uint32_t number) {
    while (chunks_.size() * kChunk <= number) chunks_.push_back(new_chunk());
  }

  T& operator[](uint32_t number) { return chunks_[number / kChunk].get()[number % kChunk]; }
  const T& operator[](uint32_t number) const { return chunks_[number / kChunk].get()[number % kChunk]; }

  // Calls f(number, slot) for every allocated, unreleased slot.
  template <typename F>
  void for_each_live(F f) const {
    std::vector<bool> released(used_, false);
    for (const uint32_t number : released_) released[number] = true;
    for (uint32_t number = 0; number < used_; ++number) {
      if (!released[number]) f(number, (*this)[number]);
    }
  }

  void clear() {
    chunks_.clear();
    released_.clear();
    used_ = 0;
  }

 private:
  // Chunks are randomly accessed and fill a huge page each: one TLB entry
  // and one page fault per chunk instead of 512.
  struct FreeChunk {
    void operator()(T* chunk) const {
      std::destroy_n(chunk, kChunk);
      base::HugePageAllocator<T>{}.deallocate(chunk, kChunk);
    }
  };
  using Chunk = std::unique_ptr<T[], FreeChunk>;
  static Chunk new_chunk() {
    T* chunk = base::HugePageAllocator<T>{}.allocate(kChunk);
    std::uninitialized_value_construct_n(chunk, kChunk);
    return Chunk(chunk);
  }

  std::vector<Chunk> chunks_;
  std::vector<uint32_t> released_;
  std::size_t used_ = 0;
};

}  // namespace tracesync::match
