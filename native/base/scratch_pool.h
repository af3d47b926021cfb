// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <mutex>
#include <utility>

namespace tracesync::base {

// Scratch objects (buffers kept for their capacity) lent to whichever thread
// asks and taken back when it is done: as many exist as were ever in use at
// once. It stands where a thread_local buffer would: glibc registers a
// thread_local's destructor on the thread's first use of it, allocating, and
// when that allocation fails it ends the process ("failed to register TLS
// destructor: out of memory", exit 134). Borrowing from a pool instead
// throws std::bad_alloc, as any allocation does, which the reading path
// names as running out of memory.
//
// A borrowed object keeps what the last borrower left in it: clear it.
template <typename T>
class ScratchPool {
  struct Node {
    T value{};
    Node* next = nullptr;
  };

 public:
  class Lease {
   public:
    ~Lease() { pool_.give_back(node_); }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;

    T& operator*() const { return node_->value; }
    T* operator->() const { return &node_->value; }

   private:
    friend class ScratchPool;
    Lease(ScratchPool& pool, Node* node) : pool_(pool), node_(node) {}
    ScratchPool& pool_;
    Node* node_;
  };

  constexpr ScratchPool() = default;
  ScratchPool(const ScratchPool&) = delete;
  ScratchPool& operator=(const ScratchPool&) = delete;
  ~ScratchPool() {
    while (free_ != nullptr) delete std::exchange(free_, free_->next);
  }

  // Throws std::bad_alloc when no object is free and none can be made.
  Lease borrow() {
    {
      const std::lock_guard lock(mutex_);
      if (free_ != nullptr) return Lease(*this, std::exchange(free_, free_->next));
    }
    return Lease(*this, new Node);
  }

 private:
  void give_back(Node* node) noexcept {
    const std::lock_guard lock(mutex_);
    node->next = free_;
    free_ = node;
  }

  std::mutex mutex_;
  Node* free_ = nullptr;
};

}  // namespace tracesync::base
