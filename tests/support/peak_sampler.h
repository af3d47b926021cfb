// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <thread>
#include <utility>

namespace tracesync::testing {

// What a resource (processes, memory, traces held open) peaked at while the
// code under test ran: `measure` is sampled every `period` on a thread of
// its own, from construction until stop(), and the largest value is kept,
// starting from `floor`.
template <typename T>
class PeakSampler {
 public:
  PeakSampler(std::function<T()> measure, std::chrono::milliseconds period, T floor = T{})
      : peak_(floor), thread_([this, measure = std::move(measure), period] {
          while (!done_) {
            peak_ = std::max(peak_.load(), measure());
            std::this_thread::sleep_for(period);
          }
        }) {}
  ~PeakSampler() { stop(); }
  PeakSampler(const PeakSampler&) = delete;
  PeakSampler& operator=(const PeakSampler&) = delete;

  // Ends the sampling; the peak seen.
  T stop() {
    if (thread_.joinable()) {
      done_ = true;
      thread_.join();
    }
    return peak_;
  }

 private:
  std::atomic<bool> done_{false};
  std::atomic<T> peak_;
  std::thread thread_;  // last: started once the members it reads exist
};

}  // namespace tracesync::testing
