// SPDX-License-Identifier: EPL-2.0
// Names in the order people expect: host2 before host10.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "base/natural_order.h"

namespace tracesync::base {
namespace {

TEST(NaturalOrder, DigitRunsCompareByValue) {
  EXPECT_TRUE(natural_less("host2", "host10"));
  EXPECT_FALSE(natural_less("host10", "host2"));
  EXPECT_TRUE(natural_less("host9/kernel", "host10/kernel"));
  EXPECT_TRUE(natural_less("rack2-node10", "rack10-node2"));
  EXPECT_TRUE(natural_less("rack2-node9", "rack2-node10"));
  EXPECT_TRUE(natural_less("host", "host0"));
  EXPECT_TRUE(natural_less("a99999999999999999999999", "a100000000000000000000000"));  // beyond 64 bits
  EXPECT_TRUE(natural_less("host-b", "host-c"));
  EXPECT_TRUE(natural_less("Host", "host"));  // byte order outside digits
}

TEST(NaturalOrder, IsAStrictTotalOrder) {
  EXPECT_FALSE(natural_less("host1", "host1"));
  // Equal by value, different bytes: still ordered, one way only.
  EXPECT_NE(natural_less("host01", "host1"), natural_less("host1", "host01"));
  std::vector<std::string> names = {"host10", "host1",  "host01", "host2",  "host", "host0",
                                    "host-a", "host10a", "host10b", "h2o",   "",     "10",  "9"};
  std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) { return natural_less(a, b); });
  EXPECT_EQ(names, (std::vector<std::string>{"", "9", "10", "h2o", "host", "host-a", "host0", "host01", "host1",
                                             "host2", "host10", "host10a", "host10b"}));
  for (const auto& a : names) {
    for (const auto& b : names) {
      EXPECT_FALSE(natural_less(a, b) && natural_less(b, a)) << a << " " << b;
      if (a != b) {
        EXPECT_TRUE(natural_less(a, b) || natural_less(b, a)) << a << " " << b;
      }
      for (const auto& c : names) {
        if (natural_less(a, b) && natural_less(b, c)) {
          EXPECT_TRUE(natural_less(a, c)) << a << " " << b << " " << c;
        }
      }
    }
  }
}

}  // namespace
}  // namespace tracesync::base
