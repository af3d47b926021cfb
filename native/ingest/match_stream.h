// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <optional>
#include <string>
#include <string_view>

#include "model/point.h"

namespace tracesync::ingest {

// One line of a match stream: `SENDER SEND_NS RECEIVER RECV_NS`.
struct StreamMessage {
  std::string_view sender;
  model::Nanoseconds send = 0;
  std::string_view receiver;
  model::Nanoseconds receive = 0;
  uint64_t line = 0;  // 1-based
};

// A signal line of a match stream: `signal NAME HOST TIME_NS`, one
// occurrence of the simultaneous signal NAME recorded by HOST at TIME_NS
// on its clock (docs/signals.md, `simulate --no-traces`). NAME is not a
// whole number, so the line is never a message's (whose second field is).
struct StreamSignal {
  std::string_view name;
  std::string_view host;
  model::Nanoseconds time = 0;
  uint64_t line = 0;  // 1-based
};

struct StreamError {
  uint64_t line = 0;
  std::string message;
};

// The longest line a match stream may have (two host names and two times
// fit many times over): longer input is refused, not buffered without bound.
constexpr std::size_t kMaxMatchLineBytes = 65536;

// Reads a match stream from a stream of any kind (file, pipe, FIFO): one
// message per line, hosts as tokens without spaces, times as signed 64-bit
// decimal nanoseconds; blank lines and lines starting with '#' are skipped.
// Calls `on_message` for each message (the views live until it returns) and
// stops at the first malformed line (or one longer than kMaxMatchLineBytes),
// returning what is wrong with it; a bad field is quoted in part only.
// `text` in quotes, cut to a few dozen bytes (with its length) when longer:
// a bad field may be megabytes long.
std::string quoted_excerpt(std::string_view text);

// Signal lines go to `on_signal`; without one, a signal line is an error
// naming it.
std::optional<StreamError> read_match_stream(std::istream& in,
                                             const std::function<void(const StreamMessage&)>& on_message,
                                             const std::function<void(const StreamSignal&)>& on_signal = {});

}  // namespace tracesync::ingest
