// SPDX-License-Identifier: EPL-2.0
#include "verify/message_lines.h"

#include <boost/multiprecision/cpp_int.hpp>

namespace tracesync::verify {
namespace {

using model::Rational;
using Int = boost::multiprecision::int256_t;  // differences of int64 and their products fit

// Compares (n1 / d1) with (n2 / d2) for d1, d2 > 0: -1, 0, +1.
int compare(const Int& n1, const Int& d1, const Int& n2, const Int& d2) {
  const Int left = n1 * d2;
  const Int right = n2 * d1;
  return left < right ? -1 : left > right ? 1 : 0;
}

std::string describe(const MessagePoint& p, bool a_to_b) {
  return a_to_b ? "a -> b message sent " + std::to_string(p.x) + " received " + std::to_string(p.y)
                : "b -> a message sent " + std::to_string(p.y) + " received " + std::to_string(p.x);
}

}  // namespace

ExactLine line_through(const MessagePoint& l, const MessagePoint& u) {
  const Rational s = (Rational(l.y) - Rational(u.y)) / (Rational(l.x) - Rational(u.x));
  return {s, Rational(l.y) - s * Rational(l.x)};
}

std::optional<ExtremeLines> extreme_lines(const std::vector<MessagePoint>& a_to_b,
                                          const std::vector<MessagePoint>& b_to_a, std::string* why) {
  ExtremeLines out;
  bool has_max = false, has_min = false;
  Int max_n = 0, max_d = 1, min_n = 0, min_d = 1;
  for (std::size_t i = 0; i < a_to_b.size(); ++i) {
    const MessagePoint& l = a_to_b[i];
    for (std::size_t j = 0; j < b_to_a.size(); ++j) {
      const MessagePoint& u = b_to_a[j];
      const Int dx = Int(l.x) - Int(u.x);
      const Int dy = Int(l.y) - Int(u.y);
      if (dx == 0) {
        if (dy < 0) {
          *why = "no line is allowed: the " + describe(u, false) + " lies above the " + describe(l, true);
          return std::nullopt;
        }
      } else if (dx > 0) {  // u left of l: an upper limit on the slope
        if (!has_max || compare(dy, dx, max_n, max_d) < 0) {
          max_n = dy, max_d = dx, has_max = true;
          out.lmax_pair = {i, j};
        }
      } else {  // l left of u: a lower limit
        if (!has_min || compare(-dy, -dx, min_n, min_d) > 0) {
          min_n = -dy, min_d = -dx, has_min = true;
          out.lmin_pair = {i, j};
        }
      }
    }
  }
  if (!has_max || !has_min) {
    *why = "the messages do not bound the slope on both sides";
    return std::nullopt;
  }
  if (compare(min_n, min_d, max_n, max_d) > 0) {
    *why = "no line is allowed: the least slope allowed exceeds the greatest";
    return std::nullopt;
  }
  out.lmax = line_through(a_to_b[out.lmax_pair.first], b_to_a[out.lmax_pair.second]);
  out.lmin = line_through(a_to_b[out.lmin_pair.first], b_to_a[out.lmin_pair.second]);
  return out;
}

std::string first_on_wrong_side(const ExactLine& line, const std::vector<MessagePoint>& a_to_b,
                                const std::vector<MessagePoint>& b_to_a) {
  for (const MessagePoint& l : a_to_b) {
    if (Rational(l.y) < line.at(Rational(l.x))) return "the " + describe(l, true) + " lies below the line";
  }
  for (const MessagePoint& u : b_to_a) {
    if (Rational(u.y) > line.at(Rational(u.x))) return "the " + describe(u, false) + " lies above the line";
  }
  return {};
}

std::pair<Rational, Rational> allowed_range_at(int64_t x, const std::vector<MessagePoint>& a_to_b,
                                               const std::vector<MessagePoint>& b_to_a) {
  // Every corner line passes through two messages (either direction).
  std::vector<MessagePoint> all = a_to_b;
  all.insert(all.end(), b_to_a.begin(), b_to_a.end());
  const auto allowed = [&](const MessagePoint& p, const MessagePoint& q) {
    // Sign tests with integers: (q - p) x (r - p) against the line p -> q (p.x < q.x).
    const Int dx = Int(q.x) - Int(p.x), dy = Int(q.y) - Int(p.y);
    for (const MessagePoint& l : a_to_b) {
      if (dx * (Int(l.y) - Int(p.y)) - dy * (Int(l.x) - Int(p.x)) < 0) return false;  // below
    }
    for (const MessagePoint& u : b_to_a) {
      if (dx * (Int(u.y) - Int(p.y)) - dy * (Int(u.x) - Int(p.x)) > 0) return false;  // above
    }
    return true;
  };
  bool any = false;
  Rational low, high;
  const Rational at(x);
  for (std::size_t i = 0; i < all.size(); ++i) {
    for (std::size_t j = 0; j < all.size(); ++j) {
      if (!(all[i].x < all[j].x) || !allowed(all[i], all[j])) continue;
      const Rational s = (Rational(all[j].y) - Rational(all[i].y)) / (Rational(all[j].x) - Rational(all[i].x));
      const Rational value = Rational(all[i].y) + s * (at - Rational(all[i].x));
      if (!any || value < low) low = value;
      if (!any || value > high) high = value;
      any = true;
    }
  }
  return {low, high};
}

}  // namespace tracesync::verify
