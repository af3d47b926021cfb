// SPDX-License-Identifier: EPL-2.0
#include "cli/progress_bar.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace tracesync::cli {
namespace {

std::string amount(double value, ProgressBar::Unit unit) {
  char text[32];
  if (unit == ProgressBar::Unit::kBytes) {
    std::snprintf(text, sizeof text, "%.1f MB", value / 1e6);
  } else {
    std::snprintf(text, sizeof text, "%.2f M events", value / 1e6);
  }
  return text;
}

// "42s", "3:07", "1:02:03".
std::string clock_text(double seconds) {
  const auto s = static_cast<long long>(std::ceil(seconds));
  char text[32];
  if (s < 60) {
    std::snprintf(text, sizeof text, "%llds", s);
  } else if (s < 3600) {
    std::snprintf(text, sizeof text, "%lld:%02lld", s / 60, s % 60);
  } else {
    std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  }
  return text;
}

}  // namespace

ProgressBar::ProgressBar(std::string label, Unit unit)
    : label_(std::move(label)), unit_(unit), enabled_(isatty(STDERR_FILENO) == 1) {}

ProgressBar::~ProgressBar() { finish(); }

std::string ProgressBar::rate_and_time_left(uint64_t done, uint64_t total, std::chrono::duration<double> elapsed,
                                            Unit unit) {
  if (elapsed.count() <= 0) return "";
  const double rate = static_cast<double>(done) / elapsed.count();
  std::string text = amount(rate, unit) + "/s";
  if (elapsed.count() >= 1 && rate > 0 && done < total) {
    text += ", " + clock_text(static_cast<double>(total - done) / rate) + " left";
  }
  return text;
}

void ProgressBar::update(uint64_t done, uint64_t total) {
  if (!enabled_ || total == 0) return;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_draw_ < std::chrono::milliseconds(100) && done < total) return;
  last_draw_ = now;
  constexpr int kWidth = 30;
  const double fraction = done >= total ? 1.0 : static_cast<double>(done) / static_cast<double>(total);
  const int filled = static_cast<int>(fraction * kWidth);
  std::string bar(static_cast<std::size_t>(filled), '#');
  bar.append(static_cast<std::size_t>(kWidth - filled), ' ');
  // \033[K clears what a longer previous line left.
  std::fprintf(stderr, "\r%s [%s] %3d%% %s / %s, %s\033[K", label_.c_str(), bar.c_str(), static_cast<int>(fraction * 100),
               amount(static_cast<double>(done), unit_).c_str(), amount(static_cast<double>(total), unit_).c_str(),
               rate_and_time_left(done, total, now - start_, unit_).c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::finish() {
  if (!drawn_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace tracesync::cli
