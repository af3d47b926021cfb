// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string>
#include <string_view>

namespace tracesync::bt {

// Takes the current thread's babeltrace2 error, if any, and says in one line
// what went wrong: its root cause (the first appended), without the object
// addresses and line breaks babeltrace2 adds for developers. `fallback` when
// there is no error or no cause has a message.
std::string take_bt_error(std::string_view fallback);

// Takes the current thread's babeltrace2 error, if any, and returns every
// cause as one line ("module: message; module: message"), root cause first;
// empty when there is none. For errors where the chain itself explains
// (a sink that failed because our own source did).
std::string take_bt_error_causes();

// The cleanup take_bt_error applies to one cause message.
std::string tidy_bt_message(std::string_view message);

}  // namespace tracesync::bt
