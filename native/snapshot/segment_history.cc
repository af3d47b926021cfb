// SPDX-License-Identifier: EPL-2.0
#include "snapshot/segment_history.h"

#include <sstream>

namespace tracesync::snapshot {

std::string segment_history_text_line(uint64_t message, const v1::Link& link, uint32_t previous_segments,
                                      const std::vector<v1::LinkSegment>& segments) {
  std::ostringstream out;
  out << message << "  segments  " << link.a() << "  " << link.b() << "  " << previous_segments << " -> "
      << segments.size();
  // The segment just closed is the last closed one.
  if (segments.size() >= 2) {
    const std::size_t i = segments.size() - 2;
    out << "  closed #" << i << " [" << segments[i].first_ns() << ", " << segments[i].last_ns() << "]";
  }
  if (!segments.empty()) {
    out << "  open #" << segments.size() - 1 << " [" << segments.back().first_ns() << ", "
        << segments.back().last_ns() << "]";
  }
  out << "\n";
  return out.str();
}

}  // namespace tracesync::snapshot
