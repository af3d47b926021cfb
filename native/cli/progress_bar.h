// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace tracesync::cli {

// A one-line progress bar on stderr, drawn only when stderr is a terminal
// (so logs and pipes stay clean), at most ten times a second: the share
// done, the amount, the rate and, once the rate means something, the time
// left at that rate.
class ProgressBar {
 public:
  enum class Unit { kBytes, kEvents };

  explicit ProgressBar(std::string label, Unit unit = Unit::kBytes);
  ~ProgressBar();

  bool enabled() const { return enabled_; }
  void update(uint64_t done, uint64_t total);
  void finish();  // erases the bar

  // "12.3 MB/s, 1:05 left": what update() draws after the bar, for `done`
  // of `total` after `elapsed`. The time left appears after a second.
  static std::string rate_and_time_left(uint64_t done, uint64_t total, std::chrono::duration<double> elapsed, Unit unit);

 private:
  std::string label_;
  Unit unit_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_draw_{};
};

}  // namespace tracesync::cli
