// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <vector>

#include "model/quad.h"
#include "model/rational.h"
#include "verify/message_lines.h"

namespace tracesync::verify {

// The bound every message of a segment gives, in code of verify's own
// (docs/verify.md, "Bounds of links"). If the truth's rate stays within c of
// the estimate line's slope, an a -> b message (x_i, y_i) caps how far the
// truth may rise above the line at x: f(x) - line(x) <= (y_i - line(x_i)) +
// c |x - x_i|, and a b -> a message caps how far it may fall below. The
// lowest cone of each side bounds the truth; this is its largest value over
// [first, last], over both sides.
//
// Between two consecutive messages of a side, x_i and x_i + d, the cones of
// the messages to the left form one rising line (from F at x_i) and those to
// the right one falling line (from B at x_i + d), so the largest lowest value
// there is min((F + B + c d) / 2, F + c d, B + c d); before the first and
// after the last message only one of them holds.
//
// In quad precision, relative to `first` (each residual within 1e-20 ns of
// the exact one for segments shorter than days): the caller compares it
// with a printed double within that double's rounding.
model::Quad envelope_peak(const std::vector<MessagePoint>& a_to_b, const std::vector<MessagePoint>& b_to_a,
                          const ExactLine& estimate, const model::Rational& cone_rate, int64_t first, int64_t last);

}  // namespace tracesync::verify
