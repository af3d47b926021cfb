// SPDX-License-Identifier: EPL-2.0
#include "verify/certificate_check.h"

#include <boost/multiprecision/cpp_int.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "verify/exact_composition.h"
#include "verify/json_fields.h"
#include "verify/message_lines.h"
#include "verify/trace_bounds.h"

namespace tracesync::verify {
namespace {

using model::magnitude;
using model::Rational;
using nlohmann::json;

Rational decimal(const json& object, const char* name, const std::string& where) {
  const std::string t = text(object, name, where);
  const auto r = model::parse_rational(t);
  if (!r) throw VerifyInputError(where + ": '" + name + "' is not a decimal: " + t);
  return *r;
}

Rational of_double(double d) { return model::exact(static_cast<model::Quad>(d)); }

// One unit of the 34th significant digit of `printed` (a plain decimal):
// 10^(exponent - 33).
Rational last_digit_unit(const std::string& printed) {
  const std::size_t first = printed.find_first_of("123456789");
  const std::size_t point = std::min(printed.find('.'), printed.size());
  long exponent = -40;  // of the leading digit; zero prints as "0"
  if (first != std::string::npos) {
    exponent = first < point ? static_cast<long>(point - first) - 1 : -static_cast<long>(first - point);
  }
  const long e = exponent - 33;
  const boost::multiprecision::cpp_int ten = boost::multiprecision::pow(boost::multiprecision::cpp_int(10), static_cast<unsigned>(e < 0 ? -e : e));
  return e >= 0 ? Rational(ten) : Rational(boost::multiprecision::cpp_int(1), ten);
}

// The engine computes a line's slope and intercept in quad (each rounded
// once or twice) before printing them: a printed value agrees with the
// exact one when within 2^-110 of the magnitudes involved and one unit of
// its last digit.
bool agrees(const std::string& printed, const Rational& exact, const Rational& scale) {
  const auto value = model::parse_rational(printed);
  if (!value) return false;
  const Rational quad_rounding = magnitude(scale) * Rational(1, boost::multiprecision::cpp_int(1) << 110);
  return magnitude(*value - exact) <= quad_rounding + last_digit_unit(printed);
}

std::vector<MessagePoint> messages(const json& list, bool a_to_b, const std::string& where) {
  if (!list.is_array()) throw VerifyInputError(where + ": not a list of messages");
  std::vector<MessagePoint> out;
  for (const json& m : list) {
    const int64_t send = integer(m, "send_ns", where), receive = integer(m, "receive_ns", where);
    out.push_back(a_to_b ? MessagePoint{send, receive} : MessagePoint{receive, send});
  }
  return out;
}

std::pair<std::size_t, std::size_t> cited_pair(const json& segment, const char* name, const std::string& where) {
  const json& p = field(segment, name, where);
  const json& l = field(p, "a_to_b", where);
  const json& u = field(p, "b_to_a", where);
  if (!l.is_number_unsigned() || !u.is_number_unsigned()) throw VerifyInputError(where + ": bad " + name + " pair");
  return {l.get<std::size_t>(), u.get<std::size_t>()};
}

std::string link_name(const std::string& a, const std::string& b) { return "link " + a + " / " + b; }

class Checker {
 public:
  Checker(const json& report, const json& certificate) : report_(report), certificate_(certificate) {}

  Verdict run() {
    if (text(certificate_, "format", "certificate") != "tracesync-certificate/1") {
      throw VerifyInputError("certificate: not a tracesync-certificate/1");
    }
    const json& ppm = field(field(certificate_, "assumptions", "certificate"), "clock_stability_ppm", "certificate");
    if (!ppm.is_number()) throw VerifyInputError("certificate: clock_stability_ppm is not a number");
    if (ppm.get<double>() < 0) throw VerifyInputError("certificate: clock_stability_ppm is negative");
    stability_ppm_ = of_double(ppm.get<double>());
    const json& assumptions = field(certificate_, "assumptions", "certificate");
    if (assumptions.contains("rate_limit_ppm") && assumptions["rate_limit_ppm"].is_number()) {
      rate_limit_ppm_ = of_double(assumptions["rate_limit_ppm"].get<double>());
    }
    // Certificates before s37 do not say how a continued map's bound grows:
    // their engine grew it by the stability.
    const std::string growth = assumptions.contains("continued_maps_grow_by")
                                   ? text(assumptions, "continued_maps_grow_by", "certificate")
                                   : std::string("clock_stability");
    if (growth == "rate_limit" && !rate_limit_ppm_) {
      throw VerifyInputError("certificate: continued_maps_grow_by is rate_limit but rate_limit_ppm is missing");
    }
    if (growth != "rate_limit" && growth != "clock_stability") {
      throw VerifyInputError("certificate: continued_maps_grow_by is \"" + growth +
                             "\", neither rate_limit nor clock_stability");
    }
    continued_by_rate_limit_ = growth == "rate_limit";
    index_certificate_links();
    for (const json& link : field(report_, "links", "report")) {
      if (!check_link(link)) return verdict_;
    }
    check_traces();
    say_unverified_envelopes(verdict_);
    say_unverified_knots(verdict_);
    return verdict_;
  }

 private:
  bool fail(std::string what) {
    if (verdict_.disagreement.empty()) verdict_.disagreement = std::move(what);
    return false;
  }

  void index_certificate_links() {
    for (const json& l : field(certificate_, "links", "certificate")) {
      certificate_links_[{text(l, "a", "certificate link"), text(l, "b", "certificate link")}] = &l;
    }
  }

  bool check_link(const json& link) {
    const std::string a = text(link, "a", "report link"), b = text(link, "b", "report link");
    const std::string name = link_name(a, b);
    const auto found = certificate_links_.find({a, b});
    if (found == certificate_links_.end()) return fail(name + ": not in the certificate");
    const json& cited = *found->second;
    const json& segments = field(link, "segments", name);
    const json& cited_segments = field(cited, "segments", name);
    if (segments.size() != cited_segments.size()) {
      return fail(name + ": the report has " + std::to_string(segments.size()) + " segments, the certificate " +
                  std::to_string(cited_segments.size()));
    }
    for (std::size_t k = 0; k < segments.size(); ++k) {
      current_a_ = a;
      current_b_ = b;
      current_segment_ = k;
      if (!check_segment(name + " segment " + std::to_string(k), segments[k], cited_segments[k])) return false;
    }
    if (segments.size() == 1 && text(link, "alpha", name) != text(segments[0], "alpha", name)) {
      return fail(name + ": its alpha is not its only segment's");
    }
    return true;
  }

  bool check_segment(const std::string& name, const json& segment, const json& cited) {
    if (integer(segment, "first_ns", name) != integer(cited, "first_ns", name) ||
        integer(segment, "last_ns", name) != integer(cited, "last_ns", name)) {
      return fail(name + ": its span differs from the certificate's");
    }
    const std::string quality = text(segment, "quality", name);
    if (quality != text(cited, "quality", name)) return fail(name + ": its quality differs from the certificate's");
    if (quality != "ACCURATE") {
      verdict_.unverified.push_back(name + " is " + quality + ": no bounded set of messages pins its line");
      return true;
    }
    const std::vector<MessagePoint> lower = messages(field(cited, "a_to_b", name), true, name);
    const std::vector<MessagePoint> upper = messages(field(cited, "b_to_a", name), false, name);
    verdict_.messages += lower.size() + upper.size();
    std::string why;
    const auto lines = extreme_lines(lower, upper, &why);
    if (!lines) return fail(name + ": " + why);
    for (const char* which : {"lmin", "lmax"}) {
      const auto pair = cited_pair(cited, which, name);
      const ExactLine& derived = std::string(which) == "lmin" ? lines->lmin : lines->lmax;
      if (pair.first >= lower.size() || pair.second >= upper.size()) return fail(name + ": its " + which + " cites no message");
      if (lower[pair.first].x == upper[pair.second].x) return fail(name + ": its " + which + " pair is vertical");
      const ExactLine through = line_through(lower[pair.first], upper[pair.second]);
      if (through.slope != derived.slope || through.intercept != derived.intercept) {
        return fail(name + ": the messages cited for " + which + " do not pin it (the messages allow a " +
                    (std::string(which) == "lmin" ? "smaller" : "larger") + " slope: " +
                    model::rounded_decimal(derived.slope) + ", not " + model::rounded_decimal(through.slope) + ")");
      }
      if (const std::string wrong = first_on_wrong_side(derived, lower, upper); !wrong.empty()) {
        return fail(name + ": " + which + ": " + wrong);
      }
      const json& printed = field(segment, which, name);
      if (printed.is_null()) return fail(name + ": the report gives no " + which);
      if (!agrees(text(printed, "slope", name), derived.slope, derived.slope) ||
          !agrees(text(printed, "intercept", name), derived.intercept, derived.intercept)) {
        return fail(name + ": the report's " + which + " " + text(printed, "slope", name) + " x + " +
                    text(printed, "intercept", name) + " is not the line its messages pin, " +
                    model::rounded_decimal(derived.slope) + " x + " + model::rounded_decimal(derived.intercept));
      }
    }
    // The estimate: the middle of Lmin and Lmax.
    const Rational alpha = decimal(segment, "alpha", name), beta = decimal(segment, "beta", name);
    if (!agrees(text(segment, "alpha", name), (lines->lmin.slope + lines->lmax.slope) / 2,
                magnitude(lines->lmin.slope) + magnitude(lines->lmax.slope)) ||
        !agrees(text(segment, "beta", name), (lines->lmin.intercept + lines->lmax.intercept) / 2,
                magnitude(lines->lmin.intercept) + magnitude(lines->lmax.intercept))) {
      return fail(name + ": its alpha and beta are not the middle of Lmin and Lmax");
    }
    ++verdict_.link_segments;
    return check_link_bounds(name, segment, lower, upper, alpha, beta, *lines);
  }

  // The bound at each end must cover every value the truth may take there
  // under the certificate's assumptions, as the cited messages alone show
  // it: with a clock-stability allowance of P ppm over a segment of length
  // L, the truth lies within slack = ceil(P * L / 4e6) ns of a line (the
  // rate's deviation from the middle of its band, integrated), and that
  // line passes on or below every a -> b message raised by the slack and on
  // or above every b -> a message lowered by it. So the truth at x lies
  // within [lowest such line at x - slack, highest + slack]; with P = 0 that
  // is the lines the messages allow. The engine may bound tighter than that
  // from every message of the segment (its local envelope, one bound for
  // both ends): the certificate does not cite those messages, so such a
  // bound is counted as resting on them, unverified. Any other bound below
  // the cited messages' is a disagreement.
  bool check_link_bounds(const std::string& name, const json& segment, const std::vector<MessagePoint>& lower,
                         const std::vector<MessagePoint>& upper, const Rational& alpha, const Rational& beta,
                         const ExtremeLines& lines) {
    const int64_t first = integer(segment, "first_ns", name), last = integer(segment, "last_ns", name);
    const json& first_bound = field(segment, "uncertainty_first_ns", name);
    const json& last_bound = field(segment, "uncertainty_last_ns", name);
    if (first_bound.is_null() || last_bound.is_null()) {
      verdict_.unverified.push_back(name + ": no bound at an end");
      return true;
    }
    const int64_t slack = stability_slack(last - first);
    std::vector<MessagePoint> raised = lower, lowered = upper;
    for (MessagePoint& l : raised) l.y += slack;
    for (MessagePoint& u : lowered) u.y -= slack;
    struct End {
      const char* name;
      int64_t x;
      Rational reported, needed;
    };
    std::vector<End> ends;
    for (const auto& [end, x, bound] : {std::tuple{"first", first, &first_bound}, std::tuple{"last", last, &last_bound}}) {
      const auto [low, high] = allowed_range_at(x, raised, lowered);
      const Rational estimate = alpha * Rational(x) + beta;
      const Rational above = high + slack - estimate, below = estimate - (low - slack);
      ends.push_back({end, x, of_double(bound->get<double>()), above < below ? below : above});
    }
    // The bound is printed as a double: allow its rounding.
    const auto covers = [](const End& e) {
      return e.reported + magnitude(e.reported) / 1'000'000'000'000 + Rational(1, 1'000'000) >= e.needed;
    };
    if (covers(ends[0]) && covers(ends[1])) {
      verdict_.link_bounds += 2;
      return true;
    }
    const bool envelope = stability_ppm_ > 0 && ends[0].reported == ends[1].reported &&
                          ends[0].reported < std::max(ends[0].needed, ends[1].needed);
    if (envelope) {
      ++verdict_.bounds_resting_on_stability;
      if (rate_limit_ppm_) {
        // The truth's mean rate between the messages pinning Lmin (Lmax) is
        // at least (at most) its slope, and the allowance keeps every rate
        // within P of every mean rate; the rate limit caps it too.
        const Rational band = stability_ppm_ / 1'000'000;
        const Rational from_band = std::max(Rational(lines.lmax.slope + band - alpha), Rational(alpha - lines.lmin.slope + band));
        const Rational limit = *rate_limit_ppm_ / 1'000'000 + magnitude(alpha - 1);
        verdict_.envelope_claims.push_back({name, current_a_, current_b_, current_segment_,
                                            integer(segment, "first_ns", name), integer(segment, "last_ns", name),
                                            alpha, beta, std::min(from_band, limit), ends[0].reported.convert_to<double>()});
      }
      return true;
    }
    const End& e = covers(ends[0]) ? ends[1] : ends[0];
    return fail(name + ": its bound at its " + e.name + " end, " + model::rounded_decimal(e.reported, 12) +
                " ns, is narrower than what its cited messages allow there (" + model::rounded_decimal(e.needed, 12) +
                " ns, with " + std::to_string(slack) + " ns of clock-stability slack)");
  }

  // A clock map under a stability assumption is the engine's local bands'
  // (docs/local-band.md): that of a link of several segments, or of one
  // segment whose bands' centres leave its line (a one-segment link on
  // straight clocks has no map: its line is its map). Its knots' bounds are
  // for AllowedSides::check_knots to re-derive. Another map (the segments'
  // lines bridged, with --clock-stability 0) is taken as reported.
  void knot_claim(const json& link, const std::string& a, const std::string& b) {
    const std::string name = link_name(a, b);
    const json& map = link["clock_map"];
    const bool local_bands = stability_ppm_ > 0 && link.contains("segments") && link["segments"].is_array() &&
                             !link["segments"].empty() && map.size() >= 2;
    KnotClaim claim{name, a, b, {}, 0, false};
    for (const json& k : map) {
      const json& bound = field(k, "bound_ns", name);
      if (!bound.is_number()) throw VerifyInputError(name + ": a clock map knot's bound_ns is not a number");
      claim.knots.push_back({integer(k, "x_ns", name), decimal(k, "y", name), of_double(bound.get<double>())});
    }
    if (!local_bands) {
      verdict_.unverified.push_back(name + ": the bounds at its clock map's " + std::to_string(claim.knots.size()) +
                                    " knots bridge its segments and are taken as reported, not re-derived");
      return;
    }
    const Rational milli = stability_ppm_ * 1000;
    // llround, as the engine rounds the option.
    const Rational half_up = milli + Rational(1, 2);
    claim.milli_ppm = static_cast<int64_t>(boost::multiprecision::numerator(half_up) /
                                           boost::multiprecision::denominator(half_up));
    verdict_.knot_claims.push_back(std::move(claim));
  }

  // ceil(P * length / 4e6) ns for the certificate's P ppm: how far the truth
  // may lie from a line over `length` ns (docs/clock-model.md).
  int64_t stability_slack(int64_t length) const {
    if (stability_ppm_ <= 0 || length <= 0) return 0;
    const Rational ns = stability_ppm_ * Rational(length) / 4'000'000;
    const boost::multiprecision::cpp_int whole = boost::multiprecision::numerator(ns) / boost::multiprecision::denominator(ns);
    return static_cast<int64_t>(Rational(whole) == ns ? whole : whole + 1);
  }

  void check_traces() {
    // The links' maps, as the report defines them.
    std::map<std::pair<std::string, std::string>, LinkMap> maps;
    std::set<std::pair<std::string, std::string>> tree;
    std::map<std::pair<std::string, std::string>, const json*> report_links;
    for (const json& l : field(report_, "links", "report")) {
      const std::string a = text(l, "a", "report link"), b = text(l, "b", "report link");
      LinkMap m{a, b, {decimal(l, "alpha", link_name(a, b)), decimal(l, "beta", link_name(a, b))}, {}, 0, 0};
      const json& span = field(l, "span_ns", link_name(a, b));
      if (!span.is_array() || span.size() != 2 || !span[0].is_number_integer() || !span[1].is_number_integer()) {
        fail(link_name(a, b) + ": its span_ns is not two integers");
        return;
      }
      m.span_first = Rational(span[0].get<int64_t>());
      m.span_last = Rational(span[1].get<int64_t>());
      if (l.contains("clock_map")) {
        for (const json& k : l["clock_map"]) {
          m.knots.push_back({Rational(integer(k, "x_ns", link_name(a, b))), decimal(k, "y", link_name(a, b))});
          // The map is defined only if it rises on both clocks (and its
          // pieces are then found by binary search).
          const std::size_t n = m.knots.size();
          if (n >= 2 && !(m.knots[n - 2].first < m.knots[n - 1].first && m.knots[n - 2].second < m.knots[n - 1].second)) {
            fail(link_name(a, b) + ": its clock map does not rise at knot " + std::to_string(n - 1));
            return;
          }
        }
      }
      if (!m.knots.empty()) knot_claim(l, a, b);
      maps[{a, b}] = std::move(m);
      report_links[{a, b}] = &l;
      if (field(l, "in_tree", link_name(a, b)).get<bool>()) tree.insert({a, b});
    }
    std::map<uint64_t, std::string> island_reference;
    for (const json& island : field(report_, "islands", "report")) {
      island_reference[field(island, "id", "island").get<uint64_t>()] = text(island, "reference", "island");
    }
    std::map<std::string, const json*> paths;
    for (const json& p : field(certificate_, "paths", "certificate")) paths[text(p, "trace", "certificate path")] = &p;

    // Every step of every path; a domain has one next step.
    std::map<std::string, PathStep> steps;
    struct TracePath {
      const json* trace;
      std::vector<std::string> domains;
    };
    std::vector<TracePath> traces;
    for (const json& t : field(report_, "traces", "report")) {
      const std::string name = text(t, "name", "report trace");
      if (!field(t, "synchronized", name).get<bool>()) continue;
      const auto found = paths.find(name);
      if (found == paths.end()) {
        fail("trace " + name + ": the certificate gives no path");
        return;
      }
      const json& path = field(*found->second, "path", name);
      if (!path.is_array() || path.empty()) {
        fail("trace " + name + ": an empty path");
        return;
      }
      TracePath tp{&t, {}};
      for (const json& step : path) tp.domains.push_back(text(step, "domain", name));
      const std::string domain = text(t, "domain", name);
      if (tp.domains.front() != domain) {
        fail("trace " + name + ": its path starts at " + tp.domains.front() + ", not at its domain " + domain);
        return;
      }
      const std::string reference = island_reference[field(t, "island", name).get<uint64_t>()];
      if (tp.domains.back() != reference) {
        fail("trace " + name + ": its path ends at " + tp.domains.back() + ", not at its island's reference " + reference);
        return;
      }
      for (std::size_t i = 0; i < path.size(); ++i) {
        const std::string d = tp.domains[i];
        PathStep step{Rational(integer(path[i], "first_ns", name)), Rational(integer(path[i], "last_ns", name)),
                      i + 1 < path.size() ? tp.domains[i + 1] : std::string(), nullptr};
        if (!step.next.empty()) {
          const auto key = d < step.next ? std::pair{d, step.next} : std::pair{step.next, d};
          if (!tree.count(key)) {
            fail("trace " + name + ": its path crosses from " + d + " to " + step.next + " by no link of the tree");
            return;
          }
          step.link = &maps.at(key);
          std::tie(step.first, step.last) = composed_span(step.first, step.last, d, step.link);
        }
        const auto [it, fresh] = steps.try_emplace(d, step);
        if (!fresh && (it->second.next != step.next || it->second.first != step.first || it->second.last != step.last)) {
          fail("trace " + name + ": its path from " + d + " differs from another trace's");
          return;
        }
      }
      traces.push_back(std::move(tp));
    }
    const TraceBounds bounds = trace_bounds(steps, report_links);
    const PathComposition composition(std::move(steps));
    for (const TracePath& tp : traces) {
      const json& t = *tp.trace;
      const std::string name = text(t, "name", "report trace");
      const json& segments = field(t, "segments", name);
      for (std::size_t i = 0; i < segments.size(); ++i) {
        const std::string where = "trace " + name + " segment " + std::to_string(i);
        const json& s = segments[i];
        const Rational f(integer(s, "first_ns", where)), l(integer(s, "last_ns", where));
        const ExactLine line = f == l ? composition.local(tp.domains.front(), f, true)
                                      : chord(f, composition.local(tp.domains.front(), f, true).at(f), l,
                                              composition.local(tp.domains.front(), l, false).at(l));
        const std::string slope = model::rounded_decimal(line.slope), offset = model::rounded_decimal(line.intercept);
        if (slope != text(s, "slope", where) || offset != text(s, "offset", where)) {
          fail(where + ": the report's slope " + text(s, "slope", where) + " and offset " + text(s, "offset", where) +
               " are not the exact composition along its path, " + slope + " and " + offset);
          return;
        }
        ++verdict_.trace_segments;
        for (const auto& [at, key] : {std::pair{f, "uncertainty_first_ns"}, std::pair{l, "uncertainty_last_ns"}}) {
          const std::optional<Rational> exact = bounds.at(tp.domains.front(), at);
          if (!exact) continue;
          const json& printed = field(s, key, where);
          if (printed.is_null()) {
            fail(where + ": no bound at " + key);
            return;
          }
          const Rational reported = of_double(printed.get<double>());
          if (!bound_agrees(reported, *exact) &&
              !(reported > *exact && bound_agrees(reported, *exact + rounding_allowance(composition, bounds, tp.domains.front(), at)))) {
            fail(where + ": its bound " + model::rounded_decimal(reported, 12) +
                 " ns is not the sum of its links' bounds along its path there, " +
                 model::rounded_decimal(*exact, 12) + " ns");
            return;
          }
          ++verdict_.trace_bounds;
        }
      }
    }
  }

  // A trace bound printed as a double agrees with its exact value within
  // the double's and the engine's quad rounding, and the 1e-6 ns the engine
  // lets a joined piece's bound exceed its parts, plus the allowance it adds
  // where a breakpoint is rounded to a whole ns (the change of slope there).
  static bool bound_agrees(const Rational& reported, const Rational& exact) {
    return magnitude(reported - exact) <= magnitude(exact) / 1'000'000'000'000 + Rational(1, 1'000);
  }

  // Where the report rounds a breakpoint of a transform to a whole ns, its
  // bound there adds how much the map's slope and the bound's slope change
  // at that breakpoint (what moving it by less than 1 ns can cost): the
  // changes within 2 ns of t, read off the exact composition.
  static Rational rounding_allowance(const PathComposition& composition, const TraceBounds& bounds, const std::string& d,
                                     const Rational& t) {
    const Rational map_change = magnitude(composition.local(d, t + 1, true).slope - composition.local(d, t - 1, false).slope);
    const auto b = [&](const Rational& x) { return bounds.at(d, x).value_or(0); };
    const Rational bound_change = magnitude((b(t + 2) - b(t + 1)) - (b(t - 1) - b(t - 2)));
    return map_change + bound_change;
  }

  TraceBounds trace_bounds(const std::map<std::string, PathStep>& steps,
                           const std::map<std::pair<std::string, std::string>, const json*>& links) const {
    std::map<const LinkMap*, std::vector<BoundKnot>> knots;
    for (const auto& [d, step] : steps) {
      if (step.link == nullptr || knots.count(step.link)) continue;
      const LinkMap& map = *step.link;
      const json& link = *links.at({map.a, map.b});
      const std::string name = link_name(map.a, map.b);
      std::vector<BoundKnot> list;
      if (link.contains("clock_map") && link["clock_map"].is_array() && link["clock_map"].size() >= 2) {
        for (const json& k : link["clock_map"]) {
          const json& bound = field(k, "bound_ns", name);
          if (!bound.is_number()) break;
          list.push_back({Rational(integer(k, "x_ns", name)), decimal(k, "y", name), of_double(bound.get<double>())});
        }
        if (list.size() != link["clock_map"].size()) continue;
      } else {
        // The single line's map: the ends of its a domain's span (the
        // link's), both at the link's bound over that span.
        const json& u = field(link, "uncertainty_ns", name);
        if (!u.is_number()) continue;
        const Rational bound = of_double(u.get<double>());
        list.push_back({map.span_first, map.line.at(map.span_first), bound});
        if (map.span_last > map.span_first) list.push_back({map.span_last, map.line.at(map.span_last), bound});
      }
      knots[step.link] = std::move(list);
    }
    // Beyond a map's span the bound grows by the rate limit (0 under
    // --clock-stability 0); engines before s37 grew it by the stability.
    if (!continued_by_rate_limit_) return TraceBounds(steps, std::move(knots), 0, stability_ppm_ / 1'000'000);
    return TraceBounds(steps, std::move(knots), stability_ppm_ > 0 ? *rate_limit_ppm_ / 1'000'000 : Rational(0));
  }

  const json& report_;
  const json& certificate_;
  std::map<std::pair<std::string, std::string>, const json*> certificate_links_;
  Rational stability_ppm_ = 0;  // the certificate's clock-stability allowance
  std::optional<Rational> rate_limit_ppm_;  // its rate limit (certificates before it was stated: none)
  bool continued_by_rate_limit_ = false;  // how a continued map's bound grows (continued_maps_grow_by)
  // The link segment being checked.
  std::string current_a_, current_b_;
  std::size_t current_segment_ = 0;
  Verdict verdict_;
};

}  // namespace

void say_unverified_envelopes(Verdict& verdict) {
  const std::string tail = " link segments' bounds are tighter than the band their cited messages and the";
  verdict.unverified.erase(std::remove_if(verdict.unverified.begin(), verdict.unverified.end(),
                                          [&](const std::string& u) { return u.find(tail) != std::string::npos; }),
                           verdict.unverified.end());
  if (verdict.bounds_resting_on_stability == 0) return;
  verdict.unverified.push_back(std::to_string(verdict.bounds_resting_on_stability) + tail +
                               " clock-stability assumption allow: they rest on messages near the segment the "
                               "certificate does not cite (the local envelope: give verify the traces or --matches "
                               "to check them against every message; sync --clock-stability 0 makes every bound "
                               "checkable from the certificate alone)");
}

void say_unverified_knots(Verdict& verdict) {
  const std::string tail = " knots rest on local bands and are taken as reported, not re-derived";
  verdict.unverified.erase(std::remove_if(verdict.unverified.begin(), verdict.unverified.end(),
                                          [&](const std::string& u) { return u.find(tail) != std::string::npos; }),
                           verdict.unverified.end());
  for (const KnotClaim& c : verdict.knot_claims) {
    if (c.verified) continue;
    if (c.checked > 0) {
      // Knots no band instant reaches (the engine makes no such map).
      verdict.unverified.push_back(c.name + ": the bounds at " + std::to_string(c.knots.size() - c.checked) +
                                   " of its clock map's " + std::to_string(c.knots.size()) + tail +
                                   " (no band instant reaches them)");
      continue;
    }
    verdict.unverified.push_back(c.name + ": the bounds at its clock map's " + std::to_string(c.knots.size()) + tail +
                                 " (give verify the traces or --matches to re-derive them from every message)");
  }
}

Verdict check_certificate(const json& report, const json& certificate) {
  try {
    return Checker(report, certificate).run();
  } catch (const json::exception& e) {
    throw VerifyInputError(std::string("malformed JSON: ") + e.what());
  }
}

}  // namespace tracesync::verify
