// SPDX-License-Identifier: EPL-2.0
#include "verify/cone_envelope.h"

#include <algorithm>
#include <utility>

namespace tracesync::verify {
namespace {

using model::Quad;

// The largest value over [first, last] of min_i (r_i + c |x - x_i|), for
// points (x_i, r_i) sorted by x; x relative to `first`.
Quad lowest_cone_peak(std::vector<std::pair<Quad, Quad>> points, Quad c, Quad last) {
  if (points.empty()) return 0;
  std::sort(points.begin(), points.end());
  const std::size_t n = points.size();
  // from_right[i]: the lowest cone of points i.. at x_i.
  std::vector<Quad> from_right(n);
  from_right[n - 1] = points[n - 1].second;
  for (std::size_t i = n - 1; i-- > 0;) {
    from_right[i] = std::min(points[i].second, from_right[i + 1] + c * (points[i + 1].first - points[i].first));
  }
  Quad peak = from_right[0] + c * points[0].first;  // at `first` (x = 0)
  Quad from_left = points[0].second;                // the lowest cone of points ..i at x_i
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const Quad d = points[i + 1].first - points[i].first;
    const Quad f = from_left, b = from_right[i + 1];
    peak = std::max(peak, std::min({(f + b + c * d) / 2, f + c * d, b + c * d}));
    from_left = std::min(points[i + 1].second, from_left + c * d);
  }
  return std::max(peak, from_left + c * (last - points[n - 1].first));  // at `last`
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
  std::vector<std::pair<Quad, Quad>> above, below;
  for (const MessagePoint& p : a_to_b) above.push_back({static_cast<Quad>(p.x - first), -line_minus_y(p)});
  for (const MessagePoint& p : b_to_a) below.push_back({static_cast<Quad>(p.x - first), line_minus_y(p)});
  const Quad c = model::to_quad(cone_rate), span = static_cast<Quad>(last - first);
  return std::max(lowest_cone_peak(std::move(above), c, span), lowest_cone_peak(std::move(below), c, span));
}

}  // namespace tracesync::verify
