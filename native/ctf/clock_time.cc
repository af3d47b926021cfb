// SPDX-License-Identifier: EPL-2.0
#include "ctf/clock_time.h"

namespace tracesync::ctf {

std::optional<ClockOffset> normalized_offset(const ClockClass& clock) {
  if (clock.offset_cycles < 0 || clock.frequency == 0) return std::nullopt;
  ClockOffset offset{clock.offset_seconds, static_cast<uint64_t>(clock.offset_cycles)};
  const uint64_t whole = offset.cycles / clock.frequency;
  if (whole > 0) {
    if (__builtin_add_overflow(offset.seconds, static_cast<int64_t>(whole), &offset.seconds)) return std::nullopt;
    offset.cycles -= whole * clock.frequency;
  }
  return offset;
}

std::optional<ClockTime> ClockTime::of(const ClockClass& clock) {
  const auto offset = normalized_offset(clock);
  if (!offset) return std::nullopt;
  ClockTime time;
  time.frequency_ = clock.frequency;
  time.offset_ = *offset;
  constexpr int64_t kBillion = 1'000'000'000;
  if (offset->seconds <= INT64_MIN / kBillion - 1 || offset->seconds >= INT64_MAX / kBillion - 1) return std::nullopt;
  time.base_ns_ = offset->seconds * kBillion;
  const auto cycles_ns = static_cast<int64_t>(time.ns_of(offset->cycles));
  if (time.base_ns_ >= 0 && cycles_ns > INT64_MAX - time.base_ns_) return std::nullopt;
  time.base_ns_ += cycles_ns;
  return time;
}

}  // namespace tracesync::ctf
