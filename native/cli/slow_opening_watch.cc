// SPDX-License-Identifier: EPL-2.0
#include "cli/slow_opening_watch.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <new>
#include <system_error>

#include "ingest/traces_being_opened.h"
#include "snapshot/utf8.h"

namespace tracesync::cli {

std::chrono::milliseconds SlowOpeningWatch::default_patience() {
  constexpr std::chrono::milliseconds kDefault{30'000};
  const char* text = std::getenv("TRACESYNC_SLOW_OPEN_SECONDS");
  if (text == nullptr) return kDefault;
  double seconds = 0;
  const auto [end, error] = std::from_chars(text, text + std::strlen(text), seconds);
  if (error != std::errc() || *end != '\0' || !(seconds >= 0) || seconds > 86'400) return kDefault;
  return std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
}

SlowOpeningWatch::SlowOpeningWatch(std::chrono::milliseconds patience, std::string advice)
    : patience_(patience), advice_(std::move(advice)) {
  try {
    thread_ = std::thread([this] { watch(); });
  } catch (const std::system_error& e) {
    // The process limit (`ulimit -u`) counts threads: the reading matters
    // more than this watch.
    std::cerr << "tracesync: no thread left to watch for traces slow to open (" << e.what() << ")\n";
  }
}

SlowOpeningWatch::~SlowOpeningWatch() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void SlowOpeningWatch::watch() {
  const auto period = std::clamp<std::chrono::milliseconds>(patience_ / 4, std::chrono::milliseconds(10),
                                                            std::chrono::milliseconds(1000));
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, period, [this] { return stopping_; })) {
    const auto now = std::chrono::steady_clock::now();
    try {
      for (const ingest::TraceOpening& opening : ingest::traces_being_opened()) {
        const auto waited = std::chrono::duration_cast<std::chrono::seconds>(now - opening.since);
        if (now - opening.since < patience_ || !told_.insert(opening.path).second) continue;
        std::cerr << "tracesync: babeltrace2 has been opening " << snapshot::readable_text(opening.path) << " for "
                  << waited.count() << " s: a large trace, or a damaged one it never finishes; if this goes on, "
                  << advice_ << "\n";
      }
    } catch (const std::bad_alloc&) {
      // Out of memory, this thread would end the process (an exception
      // leaving it); the reading reports memory running out. Look again later.
    }
  }
}

}  // namespace tracesync::cli
