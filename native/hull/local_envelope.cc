// SPDX-License-Identifier: EPL-2.0
#include "hull/local_envelope.h"

#include <algorithm>
#include <limits>
#include <vector>


namespace tracesync::hull {
namespace {

using model::Quad;

using Residual = ConeEnvelope::Residual;

Quad infinity() { return std::numeric_limits<double>::infinity(); }

// The largest value over `over` of min_i (r_i + rate * |x - x_i|).
Quad peak_of_cones(std::vector<Residual>& points, const TimeSpan& over, Quad rate) {
  if (points.empty()) return infinity();
  auto distance = [](model::Nanoseconds a, model::Nanoseconds b) { return static_cast<Quad>(b - a); };
  for (std::size_t i = 1; i < points.size(); ++i) {
    points[i].r = std::min(points[i].r, points[i - 1].r + rate * distance(points[i - 1].x, points[i].x));
  }
  for (std::size_t i = points.size() - 1; i-- > 0;) {
    points[i].r = std::min(points[i].r, points[i + 1].r + rate * distance(points[i].x, points[i + 1].x));
  }
  Quad peak = -infinity();
  const Residual& first = points.front();
  const Residual& last = points.back();
  peak = std::max(peak, first.r + rate * model::abs(distance(over.first, first.x)));
  peak = std::max(peak, last.r + rate * model::abs(distance(last.x, over.last)));
  for (std::size_t i = 1; i < points.size(); ++i) {
    const Residual& a = points[i - 1];
    const Residual& b = points[i];
    if (b.x < over.first || a.x > over.last) continue;
    // Where the cones meet, clipped to `over`.
    const Quad meet = (static_cast<Quad>(a.x) + static_cast<Quad>(b.x)) / 2 + (b.r - a.r) / (2 * rate);
    const Quad x = std::clamp(meet, static_cast<Quad>(std::max(a.x, over.first)),
                              static_cast<Quad>(std::min(b.x, over.last)));
    peak = std::max(peak, std::min(a.r + rate * (x - static_cast<Quad>(a.x)), b.r + rate * (static_cast<Quad>(b.x) - x)));
  }
  return peak;
}

}  // namespace

Quad rate_limit_around(Quad slope) {
  return static_cast<Quad>(ClockStability::kMaxRateErrorPpm) / 1'000'000 + model::abs(slope - 1);
}

Quad cone_rate(const LinkEstimate& e, const ClockStability& stability) {
  const Quad limit = rate_limit_around(e.alpha);
  if (stability.ppm <= 0 || !e.lmin || !e.lmax) return limit;
  const Quad band = static_cast<Quad>(stability.ppm) / 1'000'000;
  return std::min(limit, std::max(e.lmax->slope + band - e.alpha, e.alpha - (e.lmin->slope - band)));
}

void ConeEnvelope::add(const LinkMessage& m) {
  const Quad residual = static_cast<Quad>(m.point.y) - line_.at(m.point.x);
  if (m.is_lower()) {
    above_.push_back({m.point.x, residual});
  } else {
    below_.push_back({m.point.x, -residual});
  }
}

Quad ConeEnvelope::peak(const TimeSpan& over, Quad rate) {
  return std::max({Quad{0}, peak_of_cones(above_, over, rate), peak_of_cones(below_, over, rate)});
}

EndBounds tightest(const EndBounds& band, Quad envelope) {
  if (envelope < std::max(band.first, band.last)) return {envelope, envelope};
  return band;
}

}  // namespace tracesync::hull
