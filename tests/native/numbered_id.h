// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string>

namespace tracesync::testutil {

// "h" and 3 give "h3": the ids tests give their hosts and vertices.
// Appended rather than written `"h" + std::to_string(n)`: GCC 12 at -O3
// inlines that operator+ into a memcpy it wrongly reports as overlapping
// (-Wrestrict), which fails a Release build with warnings as errors.
template <typename Number>
std::string numbered_id(const char* prefix, Number n) {
  std::string id(prefix);
  id += std::to_string(n);
  return id;
}

}  // namespace tracesync::testutil
