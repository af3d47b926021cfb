// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <stdexcept>
#include <string>

namespace tracesync::simulate {

// Why a simulation could not be written, in words for the user (invalid
// options, an output directory that cannot be written, a babeltrace2
// failure with its causes). The CLI prints what() and exits non-zero.
class SimulationError : public std::runtime_error {
 public:
  explicit SimulationError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace tracesync::simulate
