// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string>

namespace tracesync::cli {

// Whether to colour what goes to file descriptor `fd`: only a terminal, and
// never when NO_COLOR is set (https://no-color.org) or TERM is "dumb".
bool colour_wanted(int fd);

// A text report with its warnings in colour: "not synchronized" and FAIL in
// red, INCOMPLETE in yellow. Escape codes go around words already laid out,
// so columns stay aligned on screen.
std::string paint_report(std::string text);

// `words` in red (for stderr warnings), when `colour`.
std::string red(const std::string& words, bool colour);

}  // namespace tracesync::cli
