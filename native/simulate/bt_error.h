#pragma once

#include <string>

namespace tracesync::simulate {

// Takes the current thread's babeltrace2 error, if any, and returns its
// causes as one line ("module: message; module: message"), most recent
// first; empty when there is none.
std::string take_babeltrace_error();

}  // namespace tracesync::simulate
