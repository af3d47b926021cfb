// SPDX-License-Identifier: EPL-2.0
#include "verify/allowed_sides.h"

#include <boost/multiprecision/cpp_int.hpp>

#include <algorithm>

#include "verify/certificate_check.h"
#include "verify/cone_envelope.h"
#include "verify/json_fields.h"

namespace tracesync::verify {
namespace {

using nlohmann::json;

// The sign of p.y - line(p.x), for the line through q and r (q.x != r.x).
// In 128-bit integers when every difference is below 2^62 (times of this
// century are), in arbitrary precision otherwise.
int side_of(const MessagePoint& p, const MessagePoint& q, const MessagePoint& r) {
  const __int128 dx = static_cast<__int128>(r.x) - q.x, dy = static_cast<__int128>(r.y) - q.y;
  const __int128 px = static_cast<__int128>(p.x) - q.x, py = static_cast<__int128>(p.y) - q.y;
  constexpr __int128 kLimit = static_cast<__int128>(1) << 62;
  const auto small = [](__int128 v) { return v < kLimit && v > -kLimit; };
  int sign = 0;
  if (small(dx) && small(dy) && small(px) && small(py)) {
    const __int128 v = py * dx - dy * px;
    sign = (v > 0) - (v < 0);
  } else {
    using boost::multiprecision::cpp_int;
    const cpp_int v = (cpp_int(p.y) - q.y) * (cpp_int(r.x) - q.x) - (cpp_int(r.y) - q.y) * (cpp_int(p.x) - q.x);
    sign = v.sign();
  }
  return dx > 0 ? sign : -sign;
}

MessagePoint cited_point(const json& segment, const char* pair, bool a_to_b, const std::string& where) {
  const json& p = field(segment, pair, where);
  const json& index = field(p, a_to_b ? "a_to_b" : "b_to_a", where);
  const json& list = field(segment, a_to_b ? "a_to_b" : "b_to_a", where);
  if (!index.is_number_unsigned() || index.get<std::size_t>() >= list.size()) {
    throw VerifyInputError(where + ": its " + pair + " cites no message");
  }
  const json& m = list[index.get<std::size_t>()];
  const int64_t send = integer(m, "send_ns", where), receive = integer(m, "receive_ns", where);
  return a_to_b ? MessagePoint{send, receive} : MessagePoint{receive, send};
}

}  // namespace

AllowedSides::AllowedSides(const json& certificate) {
  for (const json& l : field(certificate, "links", "certificate")) {
    const std::string a = text(l, "a", "certificate link"), b = text(l, "b", "certificate link");
    Link link{"link " + a + " / " + b, {}, false, {}, {}};
    const json& segments = field(l, "segments", link.name);
    for (std::size_t k = 0; k < segments.size(); ++k) {
      const json& s = segments[k];
      const std::string where = link.name + " segment " + std::to_string(k);
      Segment segment;
      segment.first = integer(s, "first_ns", where);
      segment.last = integer(s, "last_ns", where);
      segment.accurate = text(s, "quality", where) == "ACCURATE";
      if (segment.accurate) {
        segment.lmin = {cited_point(s, "lmin", true, where), cited_point(s, "lmin", false, where)};
        segment.lmax = {cited_point(s, "lmax", true, where), cited_point(s, "lmax", false, where)};
        for (const auto& [l_point, u_point] : {segment.lmin, segment.lmax}) {
          if (l_point.x == u_point.x) throw VerifyInputError(where + ": a cited pair is vertical");
        }
      }
      if (!link.segments.empty() && segment.first < link.segments.back().first) {
        throw VerifyInputError(where + ": its segments are not in time order");
      }
      link.segments.push_back(segment);
    }
    routes_[{a, b}] = {static_cast<int>(links_.size()), true};
    routes_[{b, a}] = {static_cast<int>(links_.size()), false};
    links_.push_back(std::move(link));
  }
}

AllowedSides::Route AllowedSides::route(std::string_view sender, std::string_view receiver) const {
  const auto found = routes_.find({std::string(sender), std::string(receiver)});
  return found == routes_.end() ? Route{} : found->second;
}

std::string AllowedSides::where(const Link& link, bool a_to_b, int64_t send, int64_t receive) const {
  return link.name + ": the " + (a_to_b ? "a -> b" : "b -> a") + " message sent at " + std::to_string(send) +
         " ns and received at " + std::to_string(receive) + " ns";
}

void AllowedSides::check(const Route& route, int64_t send, int64_t receive) {
  if (route.link < 0) {
    ++on_no_link_;
    return;
  }
  Link& link = links_[static_cast<std::size_t>(route.link)];
  // As a point (x on a's clock, y on b's): a -> b messages must lie on or
  // above every allowed line, b -> a ones on or below.
  const MessagePoint p = route.a_to_b ? MessagePoint{send, receive} : MessagePoint{receive, send};
  if (link.keep) (route.a_to_b ? link.a_to_b : link.b_to_a).push_back(p);
  const int wanted = route.a_to_b ? 1 : -1;
  // The segments holding x: the last one starting at or before it, and
  // those before it that end at x too (messages at one instant may be
  // split between two segments).
  auto k = std::upper_bound(link.segments.begin(), link.segments.end(), p.x,
                            [](int64_t x, const Segment& s) { return x < s.first; });
  const Segment* wrong_side = nullptr;
  const char* wrong_line = "";
  bool held = false;
  while (k != link.segments.begin()) {
    --k;
    if (k->last < p.x) break;
    held = true;
    if (!k->accurate) {
      ++in_unbounded_segments_;
      return;
    }
    const bool below_lmin = side_of(p, k->lmin.first, k->lmin.second) * wanted < 0;
    const bool below_lmax = side_of(p, k->lmax.first, k->lmax.second) * wanted < 0;
    if (!below_lmin && !below_lmax) {
      ++on_their_side_;
      if (k->keep) (route.a_to_b ? k->a_to_b : k->b_to_a).push_back(p);
      return;
    }
    if (wrong_side == nullptr) {
      wrong_side = &*k;
      wrong_line = below_lmin ? "Lmin" : "Lmax";
    }
  }
  if (!disagreement_.empty()) return;
  if (!held) {
    disagreement_ = where(link, route.a_to_b, send, receive) + " lies in none of the link's segments (at " +
                    std::to_string(p.x) + " ns on a's clock): the report leaves it out";
    return;
  }
  const std::size_t index = static_cast<std::size_t>(wrong_side - link.segments.data());
  disagreement_ = where(link, route.a_to_b, send, receive) + " lies " + (route.a_to_b ? "below" : "above") +
                  " segment " + std::to_string(index) + "'s " + wrong_line +
                  ": no message may, and the certificate does not cite it";
}

void AllowedSides::keep_messages_for(const std::vector<EnvelopeClaim>& claims) {
  for (const EnvelopeClaim& c : claims) {
    const Route r = route(c.a, c.b);
    if (r.link < 0 || c.segment >= links_[static_cast<std::size_t>(r.link)].segments.size()) continue;
    links_[static_cast<std::size_t>(r.link)].segments[c.segment].keep = true;
  }
}

void AllowedSides::keep_messages_for(const std::vector<KnotClaim>& claims) {
  for (const KnotClaim& c : claims) {
    const Route r = route(c.a, c.b);
    if (r.link >= 0) links_[static_cast<std::size_t>(r.link)].keep = true;
  }
}

std::string AllowedSides::check_knots(Verdict& verdict) {
  // Past this many messages of a link the engine's map is not re-derived:
  // until s36 the engine then bridged a released stretch to its first
  // segment's line; since, it streams the local bands over every message
  // (the rule re-derived here) but leaves out one later than the match
  // horizon allowed, so such a map stays taken as reported.
  constexpr std::size_t kEngineKeepsAtMost = std::size_t{4} << 20;
  for (KnotClaim& c : verdict.knot_claims) {
    const Route r = route(c.a, c.b);
    if (r.link < 0) continue;
    Link& link = links_[static_cast<std::size_t>(r.link)];
    if (!link.keep || link.a_to_b.size() + link.b_to_a.size() > kEngineKeepsAtMost) continue;
    const auto by_xy = [](const MessagePoint& p, const MessagePoint& q) { return p.x != q.x ? p.x < q.x : p.y < q.y; };
    std::sort(link.a_to_b.begin(), link.a_to_b.end(), by_xy);
    std::sort(link.b_to_a.begin(), link.b_to_a.end(), by_xy);
    const KnotBoundCheck found = check_knot_bounds(c.name, link.a_to_b, link.b_to_a, c.knots, c.milli_ppm);
    if (!found.disagreement.empty()) return found.disagreement;
    if (found.instants == 0) continue;  // no band anywhere: not the local bands' map
    c.checked = found.knots;
    c.verified = found.knots == c.knots.size();
    verdict.knot_bounds += found.knots;
    verdict.band_instants += found.instants;
  }
  say_unverified_knots(verdict);
  return {};
}

std::string AllowedSides::check_envelopes(Verdict& verdict) const {
  for (const EnvelopeClaim& c : verdict.envelope_claims) {
    const Route r = route(c.a, c.b);
    if (r.link < 0 || c.segment >= links_[static_cast<std::size_t>(r.link)].segments.size()) continue;
    const Segment& s = links_[static_cast<std::size_t>(r.link)].segments[c.segment];
    if (!s.keep || s.a_to_b.empty() || s.b_to_a.empty()) continue;
    const model::Quad needed = envelope_peak(s.a_to_b, s.b_to_a, {c.alpha, c.beta}, c.cone_rate, c.first, c.last);
    // The bound is printed as a double: allow its rounding.
    const model::Quad reported = c.reported;
    if (reported + model::abs(reported) / 1'000'000'000'000 + static_cast<model::Quad>(1e-6) < needed) {
      return c.name + ": its bound, " + model::to_fixed(reported, 6) + " ns at both ends, is narrower than what " +
             "every message of the segment allows (" + model::to_fixed(needed, 6) + " ns, the lowest of the cones " +
             "their " + std::to_string(s.a_to_b.size() + s.b_to_a.size()) + " messages give, sloped at " +
             model::rounded_decimal(c.cone_rate, 12) + ")";
    }
    --verdict.bounds_resting_on_stability;
    verdict.link_bounds += 2;
    ++verdict.link_bounds_from_every_message;
  }
  say_unverified_envelopes(verdict);
  return {};
}

}  // namespace tracesync::verify
