#include "session/session_options.h"

namespace tracesync::session {

std::string validate(const SessionOptions& options) {
  if (std::string problem = hull::validate(options.estimator); !problem.empty()) return problem;
  for (const std::string& name : options.forced_references) {
    if (name.empty()) return "--reference needs a domain id, hostname or trace name";
  }
  return {};
}

}  // namespace tracesync::session
