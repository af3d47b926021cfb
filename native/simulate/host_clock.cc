// SPDX-License-Identifier: EPL-2.0
#include "simulate/host_clock.h"

#include <algorithm>

namespace tracesync::simulate {

using model::LinearTransform;
using model::Nanoseconds;
using model::Quad;

Quad slope_of_drift(double drift_ppm) { return 1 + static_cast<Quad>(drift_ppm) / 1'000'000; }

namespace {

std::vector<HostClock::RatePiece> one_change(Nanoseconds start_ns, double drift_ppm,
                                             std::optional<Nanoseconds> change_at_ns, double drift_after_change_ppm) {
  std::vector<HostClock::RatePiece> rates{{start_ns, drift_ppm}};
  // A change at the start replaces the first drift; either way the clock
  // has a piece per drift, as it always had.
  if (change_at_ns) rates.push_back({*change_at_ns, drift_after_change_ppm});
  return rates;
}

}  // namespace

HostClock::HostClock(Nanoseconds start_ns, int64_t offset_ns, double drift_ppm,
                     std::optional<Nanoseconds> change_at_ns, double drift_after_change_ppm)
    : HostClock(start_ns, offset_ns, one_change(start_ns, drift_ppm, change_at_ns, drift_after_change_ppm)) {}

HostClock::HostClock(Nanoseconds start_ns, int64_t offset_ns, const std::vector<RatePiece>& rates)
    : offset_ns_(offset_ns) {
  // local = slope * true + (start + offset - slope * start): the offset is
  // absolute, as everywhere in tracesync.
  const double first_drift = rates.empty() ? 0 : rates.front().drift_ppm;
  const Quad slope = slope_of_drift(first_drift);
  const Quad start = static_cast<Quad>(start_ns);
  segments_.push_back({start_ns, {slope, start + static_cast<Quad>(offset_ns) - slope * start}, first_drift});
  for (std::size_t i = 1; i < rates.size(); ++i) {
    const RatePiece& r = rates[i];
    Segment& last = segments_.back();
    if (r.drift_ppm == last.drift_ppm) continue;
    if (r.from_true_ns <= last.from_true_ns) {
      // A change at the same time as the previous one (or at the start) replaces it.
      const Quad at = static_cast<Quad>(last.from_true_ns);
      const Quad local_at = last.true_to_local.apply(last.from_true_ns);
      const Quad new_slope = slope_of_drift(r.drift_ppm);
      last.true_to_local = {new_slope, local_at - new_slope * at};
      last.drift_ppm = r.drift_ppm;
      continue;
    }
    // Continuous at the change: the new line passes through the old one's
    // exact value there.
    const Quad at = static_cast<Quad>(r.from_true_ns);
    const Quad local_at = last.true_to_local.apply(r.from_true_ns);
    const Quad new_slope = slope_of_drift(r.drift_ppm);
    segments_.push_back({r.from_true_ns, {new_slope, local_at - new_slope * at}, r.drift_ppm});
  }
}

const HostClock::Segment& HostClock::segment_at(Nanoseconds true_ns) const {
  auto after = std::upper_bound(segments_.begin() + 1, segments_.end(), true_ns,
                                [](Nanoseconds t, const Segment& s) { return t < s.from_true_ns; });
  return *std::prev(after);
}

std::vector<TransformSegment> transform_onto(const HostClock& host, const HostClock& reference) {
  std::vector<Nanoseconds> starts;
  for (const auto& s : host.segments()) starts.push_back(s.from_true_ns);
  for (const auto& s : reference.segments()) starts.push_back(s.from_true_ns);
  std::sort(starts.begin(), starts.end());
  starts.erase(std::unique(starts.begin(), starts.end()), starts.end());

  std::vector<TransformSegment> out;
  for (const Nanoseconds t : starts) {
    const LinearTransform host_local_to_true = host.segment_at(t).true_to_local.inverse();
    out.push_back({t, host.local_ns(t), reference.segment_at(t).true_to_local.after(host_local_to_true)});
  }
  return out;
}

}  // namespace tracesync::simulate
