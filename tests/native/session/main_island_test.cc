// SPDX-License-Identifier: EPL-2.0
// Which traces are synchronized, and why the others are not, on snapshots
// built by hand.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "session/main_island.h"

namespace tracesync::session {
namespace {

struct T {
  std::string name;
  uint32_t island;
};

v1::Snapshot with_traces(const std::vector<T>& traces) {
  v1::Snapshot s;
  for (const T& t : traces) {
    v1::Trace* out = s.add_traces();
    out->set_name(t.name);
    out->set_domain(t.name);
    out->set_hostname("host-" + t.name);
    out->set_island(t.island);
  }
  return s;
}

void link(v1::Snapshot& s, const std::string& a, const std::string& b, v1::Quality quality) {
  v1::Link* l = s.add_links();
  l->set_a(a);
  l->set_b(b);
  l->set_quality(quality);
}

std::vector<bool> synchronized(const v1::Snapshot& s) {
  std::vector<bool> out;
  for (const v1::Trace& t : s.traces()) out.push_back(t.synchronized());
  return out;
}

TEST(MainIsland, TheIslandWithTheMostTracesWins) {
  // Two traces of one domain count twice: it is traces, not domains.
  v1::Snapshot s = with_traces({{"a", 0}, {"b", 0}, {"c", 1}, {"d", 1}, {"e", 1}});
  mark_main_island(s);
  EXPECT_EQ(synchronized(s), (std::vector<bool>{false, false, true, true, true}));
  EXPECT_EQ(s.traces(0).unsynchronized_reason(), "it exchanged no matched message with another traced host");
  EXPECT_TRUE(s.traces(2).unsynchronized_reason().empty());
}

TEST(MainIsland, ATieGoesToTheIslandHoldingTheSmallestId) {
  // Islands are numbered by the smallest id they hold: island 0 holds it.
  v1::Snapshot s = with_traces({{"a", 0}, {"b", 0}, {"c", 1}, {"d", 1}});
  link(s, "a", "b", v1::ACCURATE);
  link(s, "c", "d", v1::APPROXIMATE);
  mark_main_island(s);
  EXPECT_EQ(synchronized(s), (std::vector<bool>{true, true, false, false}));
  EXPECT_EQ(s.traces(3).unsynchronized_reason(), "it is in island 1, which no usable link joins to the main island (0)");
}

TEST(MainIsland, OneTraceIsSynchronizedWithItself) {
  v1::Snapshot s = with_traces({{"only", 0}});
  mark_main_island(s);
  EXPECT_TRUE(s.traces(0).synchronized());
}

TEST(MainIsland, TheReasonNamesOneWayAndFailedLinksByHostname) {
  v1::Snapshot s = with_traces({{"a", 0}, {"b", 0}, {"c", 1}, {"d", 2}});
  link(s, "a", "b", v1::ACCURATE);  // sorted by (a, b), as in a snapshot
  link(s, "a", "c", v1::INCOMPLETE);
  link(s, "a", "d", v1::INCOMPLETE);
  link(s, "b", "c", v1::FAIL);
  link(s, "b", "d", v1::INCOMPLETE);
  mark_main_island(s);
  EXPECT_EQ(s.traces(2).unsynchronized_reason(),
            "its only links are one-way (messages in one direction only) with host-a and failed (messages contradict "
            "every line) with host-b");
  EXPECT_EQ(s.traces(3).unsynchronized_reason(),
            "its only links are one-way (messages in one direction only) with host-a and host-b");
}

TEST(MainIsland, ATraceWithoutNetworkEventsSaysSo) {
  v1::Snapshot s = with_traces({{"a", 0}, {"b", 0}, {"quiet", 1}});
  s.mutable_traces(2)->set_network_events(0);
  mark_main_island(s);
  EXPECT_FALSE(s.traces(2).synchronized());
  EXPECT_EQ(s.traces(2).unsynchronized_reason(), "it holds none of the network events tracesync reads");
}

}  // namespace
}  // namespace tracesync::session
