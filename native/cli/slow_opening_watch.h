// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <string>
#include <thread>

namespace tracesync::cli {

// While alive, tells the user on stderr, once per trace, when babeltrace2
// has been opening a trace for longer than `patience`: it may be a large
// trace, or a damaged one babeltrace2 never finishes (README, Damaged
// traces), and the user should know which trace tracesync waits for.
class SlowOpeningWatch {
 public:
  // `advice` ends the message: what the user can do about a trace that
  // never opens.
  SlowOpeningWatch(std::chrono::milliseconds patience, std::string advice);
  ~SlowOpeningWatch();
  SlowOpeningWatch(const SlowOpeningWatch&) = delete;
  SlowOpeningWatch& operator=(const SlowOpeningWatch&) = delete;

  // 30 s, or TRACESYNC_SLOW_OPEN_SECONDS from the environment (the tests
  // do not wait that long).
  static std::chrono::milliseconds default_patience();

 private:
  void watch();

  const std::chrono::milliseconds patience_;
  const std::string advice_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::set<std::string> told_;
  std::thread thread_;
};

}  // namespace tracesync::cli
