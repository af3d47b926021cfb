#include "simulate/host_clock.h"

#include <algorithm>

namespace tracesync::simulate {

using model::LinearTransform;
using model::Nanoseconds;
using model::Quad;

Quad slope_of_drift(double drift_ppm) { return 1 + static_cast<Quad>(drift_ppm) / 1'000'000; }

HostClock::HostClock(Nanoseconds start_ns, int64_t offset_ns, double drift_ppm,
                     std::optional<Nanoseconds> change_at_ns, double drift_after_change_ppm)
    : offset_ns_(offset_ns),
      drift_ppm_(drift_ppm),
      change_at_ns_(change_at_ns),
      drift_after_change_ppm_(drift_after_change_ppm) {
  // local = slope * true + (start + offset - slope * start): the offset is
  // absolute, as everywhere in tracesync.
  const Quad slope = slope_of_drift(drift_ppm);
  const Quad start = static_cast<Quad>(start_ns);
  segments_.push_back({start_ns, {slope, start + static_cast<Quad>(offset_ns) - slope * start}});
  if (change_at_ns) {
    // Continuous at the change: the new line passes through the old one's
    // exact value there.
    const Quad at = static_cast<Quad>(*change_at_ns);
    const Quad local_at = segments_[0].true_to_local.apply(*change_at_ns);
    const Quad new_slope = slope_of_drift(drift_after_change_ppm);
    segments_.push_back({*change_at_ns, {new_slope, local_at - new_slope * at}});
  }
}

std::vector<TransformSegment> transform_onto(const HostClock& host, const HostClock& reference) {
  std::vector<Nanoseconds> starts;
  for (const auto& s : host.segments()) starts.push_back(s.from_true_ns);
  for (const auto& s : reference.segments()) starts.push_back(s.from_true_ns);
  std::sort(starts.begin(), starts.end());
  starts.erase(std::unique(starts.begin(), starts.end()), starts.end());

  auto segment_at = [](const HostClock& clock, Nanoseconds t) {
    const auto& segments = clock.segments();
    std::size_t i = 0;
    while (i + 1 < segments.size() && t >= segments[i + 1].from_true_ns) ++i;
    return segments[i].true_to_local;
  };

  std::vector<TransformSegment> out;
  for (const Nanoseconds t : starts) {
    const LinearTransform host_local_to_true = segment_at(host, t).inverse();
    out.push_back({t, host.local_ns(t), segment_at(reference, t).after(host_local_to_true)});
  }
  return out;
}

}  // namespace tracesync::simulate
