// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <optional>

#include "ctf/trace_class.h"

namespace tracesync::ctf {

// A clock's offset as a CTF reader gives it: whole seconds, then the cycles
// of less than one second (TSDL allows `offset` of any size).
struct ClockOffset {
  int64_t seconds = 0;
  uint64_t cycles = 0;
};
std::optional<ClockOffset> normalized_offset(const ClockClass& clock);

// Nanoseconds from the clock's origin of a clock value in cycles, computed as
// babeltrace2 does (exact at 1 GHz; through a double otherwise), so that both
// readers give the same times; nullopt when it does not fit in int64.
class ClockTime {
 public:
  static std::optional<ClockTime> of(const ClockClass& clock);
  std::optional<int64_t> ns_from_origin(uint64_t cycles) const {
    const uint64_t ns = ns_of(cycles);
    if (ns >= static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
    const auto value = static_cast<int64_t>(ns);
    if (base_ns_ > 0 && value > INT64_MAX - base_ns_) return std::nullopt;
    return base_ns_ + value;
  }
  const ClockOffset& offset() const { return offset_; }

 private:
  uint64_t ns_of(uint64_t cycles) const {
    if (frequency_ == 1'000'000'000) return cycles;
    const double ns = 1e9 * static_cast<double>(cycles) / static_cast<double>(frequency_);
    return ns >= 18446744073709551615.0 ? UINT64_MAX : static_cast<uint64_t>(ns);
  }
  uint64_t frequency_ = 1'000'000'000;
  ClockOffset offset_;
  int64_t base_ns_ = 0;
};

}  // namespace tracesync::ctf
