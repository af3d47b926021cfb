// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <algorithm>
#include <compare>
#include <cstddef>
#include <iterator>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace tracesync::hull {

// An append-only log of small trivially copyable records (MessageLog keeps
// a link's messages in two of them), in fixed chunks of 4,096.
//
// Why not a std::vector: keeping every message is the piecewise model's one
// cost over the single hull, and a growing vector pays it twice: each
// doubling copies everything so far and maps fresh pages, whose first touch
// is what costs (measured on the 2-core VM: 2 M messages pushed into a
// vector, 360 ms; into chunks, 40 ms once the heap is warm). Full chunks are
// never moved, and small enough (64 KiB of 16-byte records) for the
// allocator to reuse.
//
// Arrival order until sort(), which orders them in place (a random-access
// iterator spans the chunks).
template <typename T>
class ChunkLog {
 public:
  static constexpr std::size_t kChunk = 4096;

  template <bool Const>
  class Iterator;
  using iterator = Iterator<false>;
  using const_iterator = Iterator<true>;

  ChunkLog() = default;
  ChunkLog(const ChunkLog& other) {
    for (std::size_t i = 0; i < other.size(); ++i) append(other[i]);
  }
  ChunkLog& operator=(const ChunkLog& other) {
    if (this != &other) *this = ChunkLog(other);
    return *this;
  }
  ChunkLog(ChunkLog&& other) noexcept { *this = std::move(other); }
  ChunkLog& operator=(ChunkLog&& other) noexcept {
    if (this == &other) return *this;
    chunks_ = std::move(other.chunks_);
    next_ = std::exchange(other.next_, nullptr);
    limit_ = std::exchange(other.limit_, nullptr);
    size_ = std::exchange(other.size_, 0);
    other.chunks_.clear();
    return *this;
  }

  // On the hot path of every message: one comparison and a store.
  void append(const T& record) {
    if (next_ == limit_) [[unlikely]] grow();
    ::new (static_cast<void*>(next_++)) T(record);
    ++size_;
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](std::size_t i) const { return chunks_[i / kChunk][i % kChunk]; }
  T& operator[](std::size_t i) { return chunks_[i / kChunk][i % kChunk]; }
  const T& back() const { return (*this)[size_ - 1]; }

  iterator begin();
  iterator end();
  const_iterator begin() const;
  const_iterator end() const;

  // Sorts in place by `less` (a strict weak order).
  template <typename Less>
  void sort(Less less);

 private:
  // The next place to write: the first chunk doubles (from 16) as a vector
  // does, so that a link of a few messages costs a few messages; the others
  // are whole at once, and nothing written is ever moved again.
  void grow() {
    if (chunks_.size() == 1 && size_ < kChunk) {
      const std::size_t capacity = std::min(kChunk, 2 * size_);
      Chunk bigger = allocate(capacity);
      std::uninitialized_copy(chunks_[0].get(), chunks_[0].get() + size_, bigger.get());
      chunks_[0] = std::move(bigger);
      next_ = chunks_[0].get() + size_;
      limit_ = chunks_[0].get() + capacity;
      return;
    }
    const std::size_t capacity = chunks_.empty() ? 16 : kChunk;
    chunks_.push_back(allocate(capacity));
    next_ = chunks_.back().get();
    limit_ = next_ + capacity;
  }

  // Raw storage, constructed by append: a record is trivially copyable and
  // destructible, and initialising a chunk first would write it twice.
  struct Free {
    void operator()(T* p) const { ::operator delete(p); }
  };
  using Chunk = std::unique_ptr<T[], Free>;
  static Chunk allocate(std::size_t capacity) {
    return Chunk(static_cast<T*>(::operator new(capacity * sizeof(T))));
  }
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

  std::vector<Chunk> chunks_;
  T* next_ = nullptr;
  T* limit_ = nullptr;
  std::size_t size_ = 0;
};

template <typename T>
template <bool Const>
class ChunkLog<T>::Iterator {
 public:
  using iterator_category = std::random_access_iterator_tag;
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using reference = std::conditional_t<Const, const T&, T&>;
  using pointer = std::conditional_t<Const, const T*, T*>;
  using Log = std::conditional_t<Const, const ChunkLog, ChunkLog>;

  Iterator() = default;
  Iterator(Log* log, difference_type at) : log_(log), at_(at) {}

  reference operator*() const { return (*log_)[static_cast<std::size_t>(at_)]; }
  pointer operator->() const { return &**this; }
  reference operator[](difference_type n) const { return *(*this + n); }

  Iterator& operator++() { return ++at_, *this; }
  Iterator operator++(int) { return Iterator(log_, at_++); }
  Iterator& operator--() { return --at_, *this; }
  Iterator operator--(int) { return Iterator(log_, at_--); }
  Iterator& operator+=(difference_type n) { return at_ += n, *this; }
  Iterator& operator-=(difference_type n) { return at_ -= n, *this; }
  friend Iterator operator+(Iterator i, difference_type n) { return i += n; }
  friend Iterator operator+(difference_type n, Iterator i) { return i += n; }
  friend Iterator operator-(Iterator i, difference_type n) { return i -= n; }
  friend difference_type operator-(const Iterator& a, const Iterator& b) { return a.at_ - b.at_; }
  friend bool operator==(const Iterator& a, const Iterator& b) { return a.at_ == b.at_; }
  friend auto operator<=>(const Iterator& a, const Iterator& b) { return a.at_ <=> b.at_; }

 private:
  Log* log_ = nullptr;
  difference_type at_ = 0;
};

template <typename T>
typename ChunkLog<T>::iterator ChunkLog<T>::begin() { return {this, 0}; }
template <typename T>
typename ChunkLog<T>::iterator ChunkLog<T>::end() { return {this, static_cast<std::ptrdiff_t>(size_)}; }
template <typename T>
typename ChunkLog<T>::const_iterator ChunkLog<T>::begin() const { return {this, 0}; }
template <typename T>
typename ChunkLog<T>::const_iterator ChunkLog<T>::end() const { return {this, static_cast<std::ptrdiff_t>(size_)}; }

// Out of the class: the iterator must be complete where begin() is called.
template <typename T>
template <typename Less>
void ChunkLog<T>::sort(Less less) {
  std::sort(begin(), end(), less);
}

}  // namespace tracesync::hull
