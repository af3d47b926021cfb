// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <unistd.h>

#include <cstring>

namespace tracesync::cli {

// Writes `text` whole to stderr with write(2) alone: safe in a signal
// handler, where stdio and allocation are not.
inline void say_from_signal_handler(const char* text) {
  std::size_t left = std::strlen(text);
  while (left > 0) {
    const ssize_t written = ::write(STDERR_FILENO, text, left);
    if (written <= 0) return;
    text += written;
    left -= static_cast<std::size_t>(written);
  }
}

}  // namespace tracesync::cli
