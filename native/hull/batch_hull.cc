// SPDX-License-Identifier: EPL-2.0
#include "hull/batch_hull.h"

#include <algorithm>

#include "hull/tangent.h"

namespace tracesync::hull {
namespace {

using model::Point;

// Andrew's monotone chain over points sorted by x (then by y).
std::vector<Point> half_hull(std::vector<Point> points, ChainKind kind) {
  std::sort(points.begin(), points.end());
  std::vector<Point> chain;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Point& p = points[i];
    // Among equal x keep the lowest point (lower hull) or the highest (upper).
    if (!chain.empty() && chain.back().x == p.x) {
      if (kind == ChainKind::kLowerHull) continue;  // sorted by y: the first was lowest
      chain.pop_back();
    }
    while (chain.size() >= 2 &&
           bulge(kind) * model::orientation(chain[chain.size() - 2], p, chain.back()) <= 0) {
      chain.pop_back();
    }
    chain.push_back(p);
  }
  return chain;
}

std::optional<Point> tangent(const std::vector<Point>& chain, ChainKind kind, const Point& q, Side side) {
  std::size_t lo = 0;
  std::size_t hi = chain.size();
  while (lo < hi) {  // first index where before_tangent is false
    const std::size_t mid = lo + (hi - lo) / 2;
    const bool has_next = mid + 1 < chain.size();
    if (before_tangent(kind, side, q, chain[mid], has_next, has_next ? chain[mid + 1] : chain[mid])) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (lo == chain.size()) return std::nullopt;
  const bool on_side = side == Side::kLeftOf ? chain[lo].x < q.x : chain[lo].x > q.x;
  if (!on_side) return std::nullopt;
  return chain[lo];
}

void keep_tighter(std::optional<ExactLine>& current, const ExactLine& candidate, int sign) {
  if (!current || sign * model::compare(candidate.slope(), current->slope()) > 0) current = candidate;
}

}  // namespace

BatchHull compute_batch_hull(std::span<const LinkMessage> messages) {
  std::vector<Point> lower_points;
  std::vector<Point> upper_points;
  for (const LinkMessage& m : messages) (m.is_lower() ? lower_points : upper_points).push_back(m.point);

  BatchHull result;
  result.lower_hull = half_hull(std::move(lower_points), ChainKind::kLowerHull);
  result.upper_hull = half_hull(std::move(upper_points), ChainKind::kUpperHull);

  for (const Point& l : result.lower_hull) {
    if (auto u = tangent(result.upper_hull, ChainKind::kUpperHull, l, Side::kLeftOf)) {
      keep_tighter(result.lmax, ExactLine{*u, l}, -1);
    }
    if (auto u = tangent(result.upper_hull, ChainKind::kUpperHull, l, Side::kRightOf)) {
      keep_tighter(result.lmin, ExactLine{l, *u}, +1);
    }
    const auto twin = std::lower_bound(result.upper_hull.begin(), result.upper_hull.end(), l,
                                       [](const Point& a, const Point& b) { return a.x < b.x; });
    if (twin != result.upper_hull.end() && twin->x == l.x && twin->y > l.y) result.region_empty = true;
  }
  if (result.lmin && result.lmax && model::compare(result.lmin->slope(), result.lmax->slope()) > 0) {
    result.region_empty = true;
  }
  return result;
}

}  // namespace tracesync::hull
