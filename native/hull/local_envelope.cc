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

// Each residual lowered to the envelope of the cones at its abscissa: one
// pass each way.
void sweep(std::vector<Residual>& points, double rate) {
  for (std::size_t i = 1; i < points.size(); ++i) {
    points[i].r = std::min(points[i].r, points[i - 1].r + rate * (points[i].x - points[i - 1].x));
  }
  for (std::size_t i = points.size() - 1; i-- > 0;) {
    points[i].r = std::min(points[i].r, points[i + 1].r + rate * (points[i + 1].x - points[i].x));
  }
}

// The peak of the two neighbouring cones of a and b over [from, to]: where
// they meet, clipped.
double gap_peak(const Residual& a, const Residual& b, double from, double to, double rate) {
  const double meet = (a.x + b.x) / 2 + (b.r - a.r) / (2 * rate);
  const double x = std::clamp(meet, from, to);
  return std::min(a.r + rate * (x - a.x), b.r + rate * (b.x - x));
}

// The largest value over [first, last] of min_i (r_i + rate * |x - x_i|),
// abscissae relative to the envelope's origin.
double peak_of_cones(std::vector<Residual>& points, double first, double last, double rate) {
  if (points.empty()) return std::numeric_limits<double>::infinity();
  sweep(points, rate);
  const Residual& front = points.front();
  const Residual& back = points.back();
  double peak = std::max(front.r + rate * std::fabs(front.x - first), back.r + rate * std::fabs(last - back.x));
  for (std::size_t i = 1; i < points.size(); ++i) {
    const Residual& a = points[i - 1];
    const Residual& b = points[i];
    if (b.x < first || a.x > last) continue;
    // Where the cones meet, clipped to [first, last].
    peak = std::max(peak, gap_peak(a, b, std::max(a.x, first), std::min(b.x, last), rate));
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

namespace {

// peak_of_cones over one direction of a sorted MessageLog, without a copy
// of its residuals: a link's log holds every message (16 bytes each), and a
// vector of residuals beside it, grown by doubling, raised the peak memory
// of a long sync by up to as much again when its bound was computed.
//
// Bit for bit what peak_of_cones gives on the same residuals: each residual
// is computed by ConeEnvelope::add's expression, the forward sweep's values
// are recomputed a block at a time from the one kept at the block's start
// (the same operations on the same operands), the backward sweep runs as
// there, and each gap is weighed as soon as both its ends are final (the
// largest of the same values, in another order: max is exact).
template <typename Points>
class StreamedCones {
 public:
  StreamedCones(const Points& points, bool lower, const model::Point& origin, double slope_minus_one,
                double offset_at_origin)
      : points_(points),
        sign_(lower ? 1.0 : -1.0),
        origin_(origin),
        slope_minus_one_(slope_minus_one),
        offset_at_origin_(offset_at_origin) {}

  double peak(double first, double last, double rate) const {
    const std::size_t n = points_.size();
    if (n == 0) return std::numeric_limits<double>::infinity();
    // The forward sweep, keeping its value at the start of every block.
    std::vector<double> block_starts;
    block_starts.reserve(n / kBlock + 1);
    double forward = 0;
    for (std::size_t i = 0; i < n; ++i) {
      forward = i == 0 ? residual(i) : std::min(residual(i), forward + rate * (x(i) - x(i - 1)));
      if (i % kBlock == 0) block_starts.push_back(forward);
    }
    // The backward sweep, block by block from the last, weighing each gap.
    double peak = -std::numeric_limits<double>::infinity();
    double next_r = 0;  // the final value at i + 1
    double back_r = 0;  // ... and at n - 1
    std::vector<double> block(kBlock);
    for (std::size_t b = block_starts.size(); b-- > 0;) {
      const std::size_t from = b * kBlock;
      const std::size_t to = std::min(n, from + kBlock);
      block[0] = block_starts[b];
      for (std::size_t i = from + 1; i < to; ++i) {
        block[i - from] = std::min(residual(i), block[i - from - 1] + rate * (x(i) - x(i - 1)));
      }
      for (std::size_t i = to; i-- > from;) {
        double r = block[i - from];
        if (i + 1 < n) {
          r = std::min(r, next_r + rate * (x(i + 1) - x(i)));
          peak = std::max(peak, gap_peak(x(i), r, x(i + 1), next_r, first, last, rate));
        } else {
          back_r = r;
        }
        next_r = r;
      }
    }
    const double front_r = next_r;
    return std::max({peak, front_r + rate * std::fabs(x(0) - first), back_r + rate * std::fabs(last - x(n - 1))});
  }

 private:
  static constexpr std::size_t kBlock = 256;

  double x(std::size_t i) const { return static_cast<double>(points_[i].x - origin_.x); }
  // ConeEnvelope::add's residual, negated for the upper points.
  double residual(std::size_t i) const {
    const model::Nanoseconds dx = points_[i].x - origin_.x;
    const model::Nanoseconds dy = points_[i].y - origin_.y;
    const double r = static_cast<double>(dy - dx) - slope_minus_one_ * static_cast<double>(dx) - offset_at_origin_;
    return sign_ * r;
  }
  // The gap's term in peak_of_cones, or -infinity when it is skipped there.
  static double gap_peak(double ax, double ar, double bx, double br, double first, double last, double rate) {
    if (bx < first || ax > last) return -std::numeric_limits<double>::infinity();
    const double meet = (ax + bx) / 2 + (br - ar) / (2 * rate);
    const double x = std::clamp(meet, std::max(ax, first), std::min(bx, last));
    return std::min(ar + rate * (x - ax), br + rate * (bx - x));
  }

  const Points& points_;
  double sign_;
  model::Point origin_;
  double slope_minus_one_;
  double offset_at_origin_;
};

// Each direction's points sorted by (x, y), random access.
template <typename Points>
Quad streamed_envelope_bound(const Points& lower, const Points& upper, const Line& line, const TimeSpan& over,
                             Quad rate) {
  if (lower.empty() && upper.empty()) return ConeEnvelope(line).peak(over, rate);
  // The origin is the first message in the rule's order (at one abscissa an
  // a -> b message comes first), as in ConeEnvelope::add.
  const bool lower_first = !lower.empty() && (upper.empty() || lower[0].x <= upper[0].x);
  const model::Point origin = lower_first ? lower[0] : upper[0];
  const auto slope_minus_one = static_cast<double>(line.slope - 1);
  const auto offset_at_origin = static_cast<double>(line.at(origin.x) - static_cast<Quad>(origin.y));
  const auto first = static_cast<double>(over.first - origin.x);
  const auto last = static_cast<double>(over.last - origin.x);
  const auto r = static_cast<double>(rate);
  const double above = StreamedCones<Points>(lower, true, origin, slope_minus_one, offset_at_origin).peak(first, last, r);
  const double below = StreamedCones<Points>(upper, false, origin, slope_minus_one, offset_at_origin).peak(first, last, r);
  return static_cast<Quad>(std::max({0.0, above, below})) + kRoundingMarginNs;
}

}  // namespace

Quad envelope_bound(const MessageLog& sorted, const Line& line, const TimeSpan& over, Quad rate) {
  return streamed_envelope_bound(sorted.lower(), sorted.upper(), line, over, rate);
}

Quad envelope_bound(const std::deque<model::Point>& lower, const std::deque<model::Point>& upper, const Line& line,
                    const TimeSpan& over, Quad rate) {
  return streamed_envelope_bound(lower, upper, line, over, rate);
}

Quad ConeEnvelope::peak(const TimeSpan& over, Quad rate) {
  if (!origin_) return std::numeric_limits<double>::infinity();
  const auto first = static_cast<double>(over.first - origin_->x);
  const auto last = static_cast<double>(over.last - origin_->x);
  const auto r = static_cast<double>(rate);
  const double peak = std::max({0.0, peak_of_cones(above_, first, last, r), peak_of_cones(below_, first, last, r)});
  return static_cast<Quad>(peak) + kRoundingMarginNs;
}

ConeEnvelope::Summary ConeEnvelope::summary(Quad rate) const {
  Summary out;
  if (!origin_) return out;
  out.origin = origin_->x;
  out.rate = static_cast<double>(rate);
  auto side = [&](std::vector<Residual> points) -> std::optional<Summary::Side> {
    if (points.empty()) return std::nullopt;
    sweep(points, out.rate);
    Summary::Side s{points.front(), points.back(), -std::numeric_limits<double>::infinity()};
    // Every gap lies inside any span the summary is asked over: clipped to itself.
    for (std::size_t i = 1; i < points.size(); ++i) {
      s.gaps = std::max(s.gaps, gap_peak(points[i - 1], points[i], points[i - 1].x, points[i].x, out.rate));
    }
    return s;
  };
  out.above = side(above_);
  out.below = side(below_);
  return out;
}

Quad ConeEnvelope::Summary::peak(const TimeSpan& over) const {
  if (!above && !below) return std::numeric_limits<double>::infinity();
  const auto first = static_cast<double>(over.first - origin);
  const auto last = static_cast<double>(over.last - origin);
  auto of = [&](const std::optional<Side>& s) {
    if (!s) return std::numeric_limits<double>::infinity();
    const double ends = std::max(s->front.r + rate * std::fabs(s->front.x - first),
                                 s->back.r + rate * std::fabs(last - s->back.x));
    return std::max(ends, s->gaps);
  };
  return static_cast<Quad>(std::max({0.0, of(above), of(below)})) + kRoundingMarginNs;
}

EndBounds tightest(const EndBounds& band, Quad envelope) {
  if (envelope < std::max(band.first, band.last)) return {envelope, envelope};
  return band;
}

}  // namespace tracesync::hull
