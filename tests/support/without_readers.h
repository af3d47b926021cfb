// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace tracesync::testing {

// A report without what names each trace's reader, checked to be there and
// to name `reader`: the JSON's `reader` and `reader_reason`, the text's
// "read by" lines.
inline std::string without_readers(const std::string& report, const std::string& reader) {
  if (report.empty() || report.front() != '{') {
    std::istringstream in(report);
    std::string out, line;
    int lines = 0;
    while (std::getline(in, line)) {
      if (line.rfind("  read by ", 0) == 0) {
        EXPECT_EQ(line.rfind("  read by " + reader + " (", 0), 0u) << line;
        ++lines;
        continue;
      }
      out += line + "\n";
    }
    EXPECT_EQ(lines, 1) << report;  // every trace read alike, for one reason
    return out;
  }
  nlohmann::ordered_json json = nlohmann::ordered_json::parse(report);
  for (auto& trace : json["traces"]) {
    EXPECT_EQ(trace.value("reader", ""), reader) << trace.dump();
    EXPECT_TRUE(trace.contains("reader_reason")) << trace.dump();
    trace.erase("reader");
    trace.erase("reader_reason");
  }
  return json.dump(2);
}

}  // namespace tracesync::testing
