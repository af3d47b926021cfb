// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tracesync::testing {

// What recomputing a report's trace transforms found.
struct CompositionCheck {
  std::size_t segments_checked = 0;
  std::vector<std::string> disagreements;  // empty: every segment agrees to the last printed digit
};

// Recomputes, in exact rational arithmetic and from the JSON report alone,
// every synchronized trace's transform: the links of the tree (in_tree)
// from the island's reference to the trace's domain, each taken as its line
// (alpha, beta as printed) or, when the report lists one, its clock map
// (knots, y as printed), composed exactly; each reported segment must be
// the chord of that composition between its ends, rounded once to 34
// significant digits, digit for digit. This is the test's own code: it
// shares nothing with the engine but the report's format.
CompositionCheck recompute_trace_transforms(const nlohmann::json& report);

}  // namespace tracesync::testing
