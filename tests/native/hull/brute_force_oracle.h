// SPDX-License-Identifier: EPL-2.0
#pragma once

// Slow, obviously-correct answers for a link's messages, for property tests.
// Nothing here is shared with the code under test except the exact
// arithmetic primitives of native/model (tested on their own).

#include <algorithm>
#include <optional>
#include <ostream>
#include <span>
#include <vector>

#include "hull/exact_line.h"
#include "hull/link_message.h"
#include "model/orientation.h"

namespace tracesync::model {
// Readable points in GoogleTest failure messages.
inline void PrintTo(const Point& p, std::ostream* os) { *os << "(" << p.x << ", " << p.y << ")"; }
}  // namespace tracesync::model

namespace tracesync::hull::oracle {

using model::Point;

struct Answer {
  bool region_empty = false;
  std::optional<ExactLine> lmin;  // when the bound exists (and the region is not empty)
  std::optional<ExactLine> lmax;
  std::vector<Point> lower_hull;
  std::vector<Point> upper_hull;
};

inline std::vector<Point> points_of(std::span<const LinkMessage> messages, bool lower) {
  std::vector<Point> out;
  for (const auto& m : messages) {
    if (m.is_lower() == lower) out.push_back(m.point);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// p is a strict vertex of the lower (sign -1) or upper (+1) hull of `set`
// iff it is the extreme point of its abscissa and lies strictly on the
// bulge side of every segment between a point on its left and one on its right.
inline std::vector<Point> hull_vertices(const std::vector<Point>& set, int sign) {
  std::vector<Point> out;
  for (const Point& p : set) {
    bool vertex = true;
    for (const Point& a : set) {
      if (a.x == p.x && a != p && sign * (a.y - p.y) >= 0) vertex = false;
      if (!vertex) break;
      if (a.x >= p.x) continue;
      for (const Point& b : set) {
        if (b.x <= p.x) continue;
        if (sign * model::orientation(a, b, p) <= 0) {
          vertex = false;
          break;
        }
      }
    }
    if (vertex) out.push_back(p);
  }
  return out;
}

// Every pair: alpha_max = min slope(u, l) over u left of l; alpha_min = max
// slope(l, u) over l left of u; empty iff alpha_min > alpha_max or a lower
// point lies below an upper point of the same abscissa.
inline Answer pairwise(std::span<const LinkMessage> messages) {
  const auto lower = points_of(messages, true);
  const auto upper = points_of(messages, false);
  Answer answer;
  for (const Point& l : lower) {
    for (const Point& u : upper) {
      if (u.x < l.x) {
        const ExactLine line{u, l};
        if (!answer.lmax || model::compare(line.slope(), answer.lmax->slope()) < 0) answer.lmax = line;
      } else if (l.x < u.x) {
        const ExactLine line{l, u};
        if (!answer.lmin || model::compare(line.slope(), answer.lmin->slope()) > 0) answer.lmin = line;
      } else if (l.y < u.y) {
        answer.region_empty = true;
      }
    }
  }
  if (answer.lmin && answer.lmax && model::compare(answer.lmin->slope(), answer.lmax->slope()) > 0) {
    answer.region_empty = true;
  }
  answer.lower_hull = hull_vertices(lower, -1);
  answer.upper_hull = hull_vertices(upper, +1);
  return answer;
}

// The LP by enumeration: every line through one upper and one lower point
// is a candidate; keep those on or below every lower point and on or above
// every upper point. When the region is bounded, its extreme slopes are
// among these candidates.
struct Enumerated {
  std::optional<ExactLine> steepest;
  std::optional<ExactLine> flattest;
};

inline Enumerated enumerate_feasible_lines(std::span<const LinkMessage> messages) {
  const auto lower = points_of(messages, true);
  const auto upper = points_of(messages, false);
  Enumerated out;
  for (const Point& l : lower) {
    for (const Point& u : upper) {
      if (l.x == u.x) continue;
      const ExactLine line = l.x < u.x ? ExactLine{l, u} : ExactLine{u, l};
      bool feasible = true;
      for (const Point& p : lower) feasible = feasible && line.side_of(p) >= 0;
      for (const Point& p : upper) feasible = feasible && line.side_of(p) <= 0;
      if (!feasible) continue;
      if (!out.steepest || model::compare(line.slope(), out.steepest->slope()) > 0) out.steepest = line;
      if (!out.flattest || model::compare(line.slope(), out.flattest->slope()) < 0) out.flattest = line;
    }
  }
  return out;
}

// Two exact lines are the same line.
inline bool same_line(const ExactLine& a, const ExactLine& b) {
  return model::compare(a.slope(), b.slope()) == 0 && a.side_of(b.left) == 0;
}

}  // namespace tracesync::hull::oracle
