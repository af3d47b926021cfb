// SPDX-License-Identifier: EPL-2.0
#include "verify/cone_envelope.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace tracesync::verify {
namespace {

using model::Quad;

// The largest value over [first, last] of min_i (r_i + c |x - x_i|), for
// points (x_i, r_i) in x order; x relative to `first`. (Quad arithmetic is
// done in software: each step computes c d once, and halves by a product.)
Quad lowest_cone_peak(const std::vector<std::pair<Quad, Quad>>& points, Quad c, Quad last) {
  if (points.empty()) return 0;
  const std::size_t n = points.size();
  // c d between consecutive points, and from_right[i]: the lowest cone of
  // points i.. at x_i.
  std::vector<Quad> rise(n), from_right(n);
  from_right[n - 1] = points[n - 1].second;
  for (std::size_t i = n - 1; i-- > 0;) {
    rise[i] = c * (points[i + 1].first - points[i].first);
    from_right[i] = std::min(points[i].second, from_right[i + 1] + rise[i]);
  }
  Quad peak = from_right[0] + c * points[0].first;  // at `first` (x = 0)
  Quad from_left = points[0].second;                // the lowest cone of points ..i at x_i
  const Quad half = 0.5;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const Quad f = from_left + rise[i], b = from_right[i + 1] + rise[i];
    // min((F + B + c d) / 2, F + c d, B + c d): the middle term only when
    // neither line stays below the other.
    const Quad lower = std::min(f, b);
    if (lower > peak) peak = std::max(peak, std::min(lower, (f + from_right[i + 1]) * half));
    from_left = std::min(points[i + 1].second, f);
  }
  return std::max(peak, from_left + c * (last - points[n - 1].first));  // at `last`
}

// The messages in x order (sorting 64-bit integers, not quads), without
// those whose cone lies above another's everywhere (r_i >= r_j + c |x_i -
// x_j|): they never give the lowest cone, so leaving them out changes
// nothing. Found in double precision with a margin of 1 ns, far above its
// rounding (residuals within 1e-6 ns; the running minima add at most a
// few 1e-4 ns over millions of steps), so only messages surely above
// another's cone are left out; the rest are computed in quad.
std::vector<MessagePoint> lowest_in_time_order(std::vector<MessagePoint> points, double slope_minus_one,
                                               double offset, double c, int64_t first, int64_t origin_y, double sign) {
  std::sort(points.begin(), points.end(), [](const MessagePoint& p, const MessagePoint& q) { return p.x < q.x; });
  const std::size_t n = points.size();
  std::vector<double> r(n), others(n, std::numeric_limits<double>::infinity());
  for (std::size_t i = 0; i < n; ++i) {
    const int64_t dx = points[i].x - first, dy = points[i].y - origin_y;
    r[i] = sign * (static_cast<double>(dx - dy) + slope_minus_one * static_cast<double>(dx) + offset);
  }
  double running = std::numeric_limits<double>::infinity();  // the lowest cone of the points left of i, at x_i
  for (std::size_t i = 1; i < n; ++i) {
    running = std::min(running, r[i - 1]) + c * static_cast<double>(points[i].x - points[i - 1].x);
    others[i] = running;
  }
  running = std::numeric_limits<double>::infinity();
  for (std::size_t i = n - 1; i-- > 0;) {
    running = std::min(running, r[i + 1]) + c * static_cast<double>(points[i + 1].x - points[i].x);
    others[i] = std::min(others[i], running);
  }
  std::vector<MessagePoint> kept;
  for (std::size_t i = 0; i < n; ++i) {
    if (r[i] <= others[i] + 1.0) kept.push_back(points[i]);
  }
  return kept;
}

}  // namespace

Quad envelope_peak(const std::vector<MessagePoint>& a_to_b, const std::vector<MessagePoint>& b_to_a,
                   const ExactLine& estimate, const model::Rational& cone_rate, int64_t first, int64_t last) {
  // line(x) - y relative to (first, round(line(first))): exact integers
  // but for the line's slope times x - first, and one exact offset.
  const model::Rational at_first = estimate.at(model::Rational(first));
  const int64_t origin_y = static_cast<int64_t>(
      boost::multiprecision::numerator(at_first) / boost::multiprecision::denominator(at_first));
  const Quad offset = model::to_quad(at_first - model::Rational(origin_y));
  const Quad slope = model::to_quad(estimate.slope);
  const auto line_minus_y = [&](const MessagePoint& p) {
    return slope * static_cast<Quad>(p.x - first) + offset - static_cast<Quad>(p.y - origin_y);
  };
  const Quad c = model::to_quad(cone_rate), span = static_cast<Quad>(last - first);
  const double slope_minus_one = static_cast<double>(slope - 1), near_offset = static_cast<double>(offset);
  const double near_c = static_cast<double>(c);
  std::vector<std::pair<Quad, Quad>> above, below;
  for (const MessagePoint& p : lowest_in_time_order(a_to_b, slope_minus_one, near_offset, near_c, first, origin_y, -1)) {
    above.push_back({static_cast<Quad>(p.x - first), -line_minus_y(p)});
  }
  for (const MessagePoint& p : lowest_in_time_order(b_to_a, slope_minus_one, near_offset, near_c, first, origin_y, 1)) {
    below.push_back({static_cast<Quad>(p.x - first), line_minus_y(p)});
  }
  return std::max(lowest_cone_peak(above, c, span), lowest_cone_peak(below, c, span));
}

}  // namespace tracesync::verify
