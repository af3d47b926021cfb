#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace tracesync::cli {

// A one-line progress bar on stderr, drawn only when stderr is a terminal
// (so logs and pipes stay clean), at most ten times a second.
class ProgressBar {
 public:
  explicit ProgressBar(std::string label);
  ~ProgressBar();

  bool enabled() const { return enabled_; }
  void update(uint64_t done, uint64_t total);
  void finish();  // erases the bar

 private:
  std::string label_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_draw_{};
};

}  // namespace tracesync::cli
