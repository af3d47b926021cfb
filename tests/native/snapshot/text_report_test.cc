// SPDX-License-Identifier: EPL-2.0
// The text report in human units, on a snapshot built by hand: a piecewise
// transform lists its pieces, an unsynchronized trace shows no figures.

#include <gtest/gtest.h>

#include <regex>
#include <tuple>

#include "session/human_figures.h"
#include "session/main_island.h"
#include "snapshot/text_report.h"

namespace tracesync::snapshot {
namespace {

v1::Decimal decimal(const char* text) {
  v1::Decimal d;
  d.set_exact(text);
  d.set_approx(std::stod(text));
  return d;
}

TEST(TextReport, PiecesAreListedWithTheirDriftAndWorstBound) {
  v1::Snapshot s;
  v1::Trace* ref = s.add_traces();
  ref->set_name("ref");
  ref->set_hostname("ref");
  ref->set_domain("ref");
  ref->set_reference(true);
  *ref->mutable_slope() = decimal("1");
  *ref->mutable_offset() = decimal("0");
  v1::Trace* t = s.add_traces();
  t->set_name("moving");
  t->set_hostname("moving");
  t->set_domain("moving");
  t->set_first_ns(1'000'000'000);
  t->set_last_ns(3'000'000'000);
  // t_ref = 1.000002 t + 0.25 s: shift at the first event = 2000 ns + 0.25 s.
  *t->mutable_slope() = decimal("1.000002");
  *t->mutable_offset() = decimal("250000000");
  t->set_uncertainty_ns(1500);
  for (const auto& [first, last, slope, u1, u2] :
       {std::tuple{1'000'000'000LL, 2'000'000'000LL, "1.000001", 20.0, 800.0},
        std::tuple{2'000'000'000LL, 3'000'000'000LL, "1.000003", 800.0, 40.5}}) {
    v1::Segment* p = t->add_segments();
    p->set_first_ns(first);
    p->set_last_ns(last);
    *p->mutable_slope() = decimal(slope);
    *p->mutable_offset() = decimal("0");
    p->set_uncertainty_first_ns(u1);
    p->set_uncertainty_last_ns(u2);
  }
  v1::Trace* lone = s.add_traces();
  lone->set_name("lone");
  lone->set_hostname("lone");
  lone->set_domain("lone");
  lone->set_island(1);
  session::add_human_figures(s);
  session::mark_main_island(s);

  const std::string text = to_text(s);
  const auto has_row = [&](const std::string& pattern) { return std::regex_search(text, std::regex(pattern)); };
  EXPECT_TRUE(has_row("\n  ref +ref +ref +0 +reference +\\+0\\.000 ppm +\\+0\\.0 ns +exact +1 ")) << text;
  EXPECT_TRUE(has_row("\n  moving +moving +moving +0 +synchronized +\\+2\\.000 ppm +\\+250\\.002 ms +\\+/- 1\\.500 us +2 "))
      << text;
  EXPECT_TRUE(has_row("\n  lone +lone +lone +1 +not synchronized +- +- +- +- +- +-\n")) << text;
  EXPECT_NE(text.find("  moving in 2 pieces (in time order):\n"
                      "    1. from 0.0 ns to 1.000000 s after its first event: drift +1.000 ppm, worst bound +/- 800.0 ns\n"
                      "    2. from 1.000000 s to 2.000000 s after its first event: drift +3.000 ppm, worst bound +/- 800.0 ns\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("NOT SYNCHRONIZED with the rest: lone: it exchanged no matched message with another traced host"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace tracesync::snapshot
