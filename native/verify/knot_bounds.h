// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "model/rational.h"
#include "verify/message_lines.h"

namespace tracesync::verify {

// A knot of a link's clock map as the report prints it: a's time, b's
// time, and the bound there.
struct ReportedKnot {
  int64_t x = 0;
  model::Rational y;
  model::Rational bound;
};

struct KnotBoundCheck {
  std::size_t instants = 0;  // instants whose band was re-derived and used
  std::size_t knots = 0;     // knots whose bound was checked against them
  std::string disagreement;  // the first knot narrower than the rule, in words
};

// The knot bounds of a clock map built from local bands (a link of several
// segments), re-derived from every message of the link by the engine's rule
// (docs/local-band.md, "As built"; docs/verify.md, "The knot bounds"), in
// verify's own exact code:
// - the instants: every message's abscissa and the middle of every gap over
//   2 ms, at least 10 ms apart; at each, the band (exact_band.h) over the
//   32 nearest messages of each direction on each side (a window of 10 ms to
//   60 s) and, beyond them up to 2 s, the fastest message of each 50 ms;
//   under the assumed stability where the messages can check it (2 of each
//   direction on each side within S = 10 s), the rate limit's 2,000 ppm
//   elsewhere, and where the band is empty the least stability (to a
//   thousandth of a ppm, by bisection up to 2,000 ppm) that makes it not;
//   instants with no bounded band, and those whose centre does not rise
//   above the previous one's, are not used, as the engine does not use them;
// - per piece of the map between two knots: the largest half-width plus
//   distance of the band's centre from the piece's chord over the instants
//   it holds, plus the largest slack between two consecutive instants
//   around it (P D / 4 for D within S, the rate limit's D / 2,000 beyond);
//   both of the piece's knots must be at least that (exactly: the engine
//   adds 0.001 ns for its quad rounding; a knot bound 1 ns narrower than the
//   engine's fails where that knot's bound is its own pieces' rule, which it
//   is for every knot not beside a piece joined over dropped knots).
// - beyond the first and the last instant (to the trace's extent), where
//   the engine continues the end pieces' lines: each knot out there must
//   have at least its inner neighbour's bound (the knot at the instant's,
//   or where the instant lies inside a piece the band's need on its chord
//   there) plus R + |s - 1| per ns of the distance, s its piece's slope
//   and R the rate limit (1,000 ppm): the most the truth can leave that
//   line by. Exactly, but for the rounding of the printed doubles (1e-15
//   of the bound, plus 1e-9 ns): a knot 1 ns narrower fails.
// `lower` and `upper` are the a -> b and b -> a points sorted by (x, y);
// `map` the reported knots, rising.
KnotBoundCheck check_knot_bounds(const std::string& link, std::span<const MessagePoint> lower,
                                 std::span<const MessagePoint> upper, const std::vector<ReportedKnot>& map,
                                 int64_t milli_ppm);

}  // namespace tracesync::verify
