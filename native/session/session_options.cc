// SPDX-License-Identifier: EPL-2.0
#include "session/session_options.h"

#include <cmath>

namespace tracesync::session {

std::string validate(const SessionOptions& options) {
  if (std::string problem = hull::validate(options.estimator); !problem.empty()) return problem;
  const double stability = options.estimator.clock_stability_ppm;
  if (!std::isfinite(stability) || stability < 0) {
    return "the clock stability must be a rate of 0 ppm or more, not " + std::to_string(stability);
  }
  for (const std::string& name : options.forced_references) {
    if (name.empty()) return "--reference needs a domain id, hostname or trace name";
  }
  return {};
}

}  // namespace tracesync::session
