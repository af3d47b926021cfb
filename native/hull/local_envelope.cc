// SPDX-License-Identifier: EPL-2.0
#include "hull/local_envelope.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace tracesync::hull {
namespace {

using model::Quad;

using Residual = ConeEnvelope::Residual;

// Rounding of the double arithmetic below, made up for (see peak()).
constexpr double kRoundingMarginNs = 1e-3;

// The largest value over [first, last] of min_i (r_i + rate * |x - x_i|),
// abscissae relative to the envelope's origin.
double peak_of_cones(std::vector<Residual>& points, double first, double last, double rate) {
  if (points.empty()) return std::numeric_limits<double>::infinity();
  for (std::size_t i = 1; i < points.size(); ++i) {
    points[i].r = std::min(points[i].r, points[i - 1].r + rate * (points[i].x - points[i - 1].x));
  }
  for (std::size_t i = points.size() - 1; i-- > 0;) {
    points[i].r = std::min(points[i].r, points[i + 1].r + rate * (points[i + 1].x - points[i].x));
  }
  const Residual& front = points.front();
  const Residual& back = points.back();
  double peak = std::max(front.r + rate * std::fabs(front.x - first), back.r + rate * std::fabs(last - back.x));
  for (std::size_t i = 1; i < points.size(); ++i) {
    const Residual& a = points[i - 1];
    const Residual& b = points[i];
    if (b.x < first || a.x > last) continue;
    // Where the cones meet, clipped to [first, last].
    const double meet = (a.x + b.x) / 2 + (b.r - a.r) / (2 * rate);
    const double x = std::clamp(meet, std::max(a.x, first), std::min(b.x, last));
    peak = std::max(peak, std::min(a.r + rate * (x - a.x), b.r + rate * (b.x - x)));
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

// Residuals in double, relative to the first message: y - line(x) is
// (dy - dx) - (slope - 1) * dx - (line(x0) - y0), with dx = x - x0 and
// dy = y - y0 exact integers (exact in a double below 2^53 ns, 104 days),
// (slope - 1) small and line(x0) - y0 computed once in quad precision. Each
// residual is then within about 1e-6 ns of the quad one; peak() adds
// kRoundingMarginNs so that the bound stays on the safe side.
void ConeEnvelope::add(const LinkMessage& m) {
  if (!origin_) {
    origin_ = m.point;
    slope_minus_one_ = static_cast<double>(line_.slope - 1);
    offset_at_origin_ = static_cast<double>(line_.at(m.point.x) - static_cast<Quad>(m.point.y));
  }
  const model::Nanoseconds dx = m.point.x - origin_->x;
  const model::Nanoseconds dy = m.point.y - origin_->y;
  const double residual =
      static_cast<double>(dy - dx) - slope_minus_one_ * static_cast<double>(dx) - offset_at_origin_;
  if (m.is_lower()) {
    above_.push_back({static_cast<double>(dx), residual});
  } else {
    below_.push_back({static_cast<double>(dx), -residual});
  }
}

Quad envelope_bound(const MessageLog& sorted, const Line& line, const TimeSpan& over, Quad rate) {
  ConeEnvelope envelope(line);
  const MessageLog::Points& lower = sorted.lower();
  const MessageLog::Points& upper = sorted.upper();
  if (lower.empty() && upper.empty()) return envelope.peak(over, rate);
  // The origin first (at one abscissa an a -> b message comes first), then
  // the other direction, then the rest of the origin's.
  const bool lower_first = !lower.empty() && (upper.empty() || lower[0].x <= upper[0].x);
  const MessageLog::Points& first = lower_first ? lower : upper;
  const MessageLog::Points& other = lower_first ? upper : lower;
  const Direction first_way = lower_first ? Direction::kAtoB : Direction::kBtoA;
  const Direction other_way = lower_first ? Direction::kBtoA : Direction::kAtoB;
  envelope.add({first_way, first[0]});
  for (const model::Point& p : other) envelope.add({other_way, p});
  for (std::size_t i = 1; i < first.size(); ++i) envelope.add({first_way, first[i]});
  return envelope.peak(over, rate);
}

Quad ConeEnvelope::peak(const TimeSpan& over, Quad rate) {
  if (!origin_) return std::numeric_limits<double>::infinity();
  const auto first = static_cast<double>(over.first - origin_->x);
  const auto last = static_cast<double>(over.last - origin_->x);
  const auto r = static_cast<double>(rate);
  const double peak = std::max({0.0, peak_of_cones(above_, first, last, r), peak_of_cones(below_, first, last, r)});
  return static_cast<Quad>(peak) + kRoundingMarginNs;
}

EndBounds tightest(const EndBounds& band, Quad envelope) {
  if (envelope < std::max(band.first, band.last)) return {envelope, envelope};
  return band;
}

}  // namespace tracesync::hull
