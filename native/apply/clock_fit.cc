// SPDX-License-Identifier: EPL-2.0
#include "apply/clock_fit.h"

#include <quadmath.h>

#include <algorithm>

namespace tracesync::apply {
namespace {

constexpr model::Quad kNsPerSecond = 1'000'000'000;

}  // namespace

model::Quad time_of_cycles(const ClockMapping& mapping, model::Quad cycles) {
  return static_cast<model::Quad>(mapping.offset_s) * kNsPerSecond +
         (static_cast<model::Quad>(mapping.offset) + cycles) * kNsPerSecond / static_cast<model::Quad>(mapping.freq);
}

model::Quad cycles_at(const ClockMapping& original, model::Nanoseconds ns) {
  return (static_cast<model::Quad>(ns) - time_of_cycles(original, 0)) * static_cast<model::Quad>(original.freq) /
         kNsPerSecond;
}

ClockFit fit_clock(const ClockMapping& original, const model::LinearTransform& line, model::Quad first_cycles,
                   model::Quad last_cycles) {
  // Wanted: T(c) = line(time_of_cycles(original, c)) = origin + c * ns_per_cycle.
  const model::Quad origin = line.slope * time_of_cycles(original, 0) + line.offset;
  const model::Quad ns_per_cycle = line.slope * kNsPerSecond / static_cast<model::Quad>(original.freq);
  const model::Quad ideal_freq = kNsPerSecond / ns_per_cycle;
  const model::Quad middle = (first_cycles + last_cycles) / 2;

  ClockFit best;
  best.worst_error_ns = -1;
  for (const model::Quad freq : {floorq(ideal_freq), ceilq(ideal_freq)}) {
    if (freq < 1) continue;
    const model::Quad step = kNsPerSecond / freq;
    // Shown time S(c) = start + c * step; centring the linear error over the
    // span makes the errors at both ends equal and opposite.
    const model::Quad start = origin + middle * (ns_per_cycle - step);
    const model::Quad seconds = floorq(start / kNsPerSecond);
    const model::Quad rest_cycles = (start - seconds * kNsPerSecond) * freq / kNsPerSecond;
    for (model::Quad cycles : {floorq(rest_cycles), ceilq(rest_cycles)}) {
      model::Quad s = seconds;
      if (cycles >= freq) {  // ceil reached a whole second
        cycles -= freq;
        s += 1;
      }
      const ClockMapping candidate{static_cast<uint64_t>(freq), static_cast<int64_t>(s), static_cast<int64_t>(cycles)};
      model::Quad worst = 0;
      for (const model::Quad c : {first_cycles, last_cycles}) {
        worst = std::max(worst, model::abs(time_of_cycles(candidate, c) - (origin + c * ns_per_cycle)));
      }
      if (best.worst_error_ns < 0 || worst < static_cast<model::Quad>(best.worst_error_ns)) {
        best.mapping = candidate;
        best.worst_error_ns = model::to_double(worst);
      }
    }
  }
  return best;
}

}  // namespace tracesync::apply
