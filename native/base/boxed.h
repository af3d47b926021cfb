// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <memory>
#include <utility>

namespace tracesync::base {

// A value that may be absent, as std::optional, but held on the heap: it is
// copied with its owner, and moved as a pointer, which never throws. A
// std::vector moves its elements on growth only when their moves cannot
// throw (else it copies them all, to keep its guarantee); a member such as
// std::deque, whose move allocates, makes its owner copied. Boxed keeps
// such a member out of its owner's move.
template <typename T>
class Boxed {
 public:
  Boxed() = default;
  Boxed(const Boxed& other) : value_(other.value_ ? std::make_unique<T>(*other.value_) : nullptr) {}
  Boxed& operator=(const Boxed& other) {
    if (this != &other) value_ = other.value_ ? std::make_unique<T>(*other.value_) : nullptr;
    return *this;
  }
  Boxed(Boxed&&) noexcept = default;
  Boxed& operator=(Boxed&&) noexcept = default;
  ~Boxed() = default;

  template <typename... Args>
  T& emplace(Args&&... args) {
    value_ = std::make_unique<T>(std::forward<Args>(args)...);
    return *value_;
  }
  void reset() { value_.reset(); }

  explicit operator bool() const { return value_ != nullptr; }
  T* operator->() { return value_.get(); }
  const T* operator->() const { return value_.get(); }
  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }

 private:
  std::unique_ptr<T> value_;
};

}  // namespace tracesync::base
