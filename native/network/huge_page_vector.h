#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

#include <sys/mman.h>

namespace tracesync::network {

// An allocator that asks Linux for transparent huge pages on large blocks.
// The spanning forest touches its node and edge arrays at random, a few
// cache lines per operation: with 4 KiB pages nearly every touch also
// misses the TLB, and filling a fresh table faults page by page. 2 MiB
// pages make both rare (several times faster on the thesis workload).
// Small blocks, and systems without madvise(MADV_HUGEPAGE), get plain memory.
template <typename T>
class HugePageAllocator {
 public:
  using value_type = T;

  HugePageAllocator() = default;
  template <typename U>
  HugePageAllocator(const HugePageAllocator<U>&) {}  // NOLINT: rebinding is implicit by design

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kHugePage) return static_cast<T*>(::operator new(bytes, std::align_val_t{alignof(T)}));
    void* block = std::aligned_alloc(kHugePage, round_up(bytes));
    if (block == nullptr) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    madvise(block, round_up(bytes), MADV_HUGEPAGE);  // a hint: failure only costs speed
#endif
    return static_cast<T*>(block);
  }

  void deallocate(T* p, std::size_t n) {
    if (n * sizeof(T) < kHugePage) {
      ::operator delete(p, std::align_val_t{alignof(T)});
    } else {
      std::free(p);
    }
  }

  template <typename U>
  bool operator==(const HugePageAllocator<U>&) const {
    return true;
  }

 private:
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;
  static std::size_t round_up(std::size_t bytes) { return (bytes + kHugePage - 1) / kHugePage * kHugePage; }
};

template <typename T>
using HugePageVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace tracesync::network
