// SPDX-License-Identifier: EPL-2.0
#include "simulate/simulation_options.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "simulate/simulate.h"
#include "temp_directory.h"

namespace tracesync::simulate {
namespace {

using testing::TempDirectory;

SimulationOptions valid_options() {
  SimulationOptions o;
  o.output_dir = "/nonexistent-but-not-checked-by-validate";
  return o;
}

// validate() must name the option in the CLI's words.
void expect_problem(const SimulationOptions& o, const std::string& option) {
  const std::string problem = validate(o);
  EXPECT_NE(problem.find(option), std::string::npos) << "expected a problem with " << option << ", got: " << problem;
}

TEST(SimulationOptions, DefaultsAreValidOnceAnOutputIsGiven) {
  EXPECT_EQ(validate(valid_options()), "");
  EXPECT_NE(validate(SimulationOptions{}).find("--output"), std::string::npos);
}

TEST(SimulationOptions, TopologyNamesRoundTrip) {
  for (const Topology t : {Topology::kPairs, Topology::kChain, Topology::kStar, Topology::kRandom, Topology::kFatTree}) {
    EXPECT_EQ(parse_topology(to_string(t)), t);
  }
  EXPECT_EQ(parse_topology("fat-tree"), Topology::kFatTree);
  EXPECT_FALSE(parse_topology("ring").has_value());
}

TEST(SimulationOptions, EachOutOfRangeValueIsNamed) {
  auto with = [](auto change) {
    SimulationOptions o = valid_options();
    change(o);
    return o;
  };
  expect_problem(with([](auto& o) { o.hosts = 1; }), "--hosts");
  expect_problem(with([](auto& o) { o.duration_s = 0; }), "--duration");
  expect_problem(with([](auto& o) { o.duration_s = std::nan(""); }), "--duration");
  expect_problem(with([](auto& o) { o.cpus_per_host = 0; }), "--cpus");
  expect_problem(with([](auto& o) { o.message_rate = -1; }), "--rate");
  expect_problem(with([](auto& o) { o.filler_ratio = -0.5; }), "--filler-ratio");
  expect_problem(with([](auto& o) { o.ipv6_fraction = 1.5; }), "--ipv6-fraction");
  expect_problem(with([](auto& o) { o.start_ns = 5; }), "--start");
  expect_problem(with([](auto& o) { o.clock_offset_max_ns = -1; }), "--offset-max");
  expect_problem(with([](auto& o) { o.drift_max_ppm = 2000; }), "--drift-max");
  expect_problem(with([](auto& o) { o.drift_change_at_s = 11; }), "--drift-change-at");
  expect_problem(with([](auto& o) { o.min_delay_us = -3; }), "--min-delay");
  expect_problem(with([](auto& o) { o.mean_delay_us = 1e12; }), "--mean-delay");
  expect_problem(with([](auto& o) { o.asymmetry = 0; }), "--asymmetry");
  expect_problem(with([](auto& o) { o.loaded_host_fraction = 2; }), "--loaded-hosts");
  expect_problem(with([](auto& o) { o.loss_rate = 1; }), "--loss");
  expect_problem(with([](auto& o) { o.retransmission_rate = -0.1; }), "--retransmit");
  expect_problem(with([](auto& o) { o.retransmission_timeout_ms = 0; }), "--rto");
  expect_problem(with([](auto& o) { o.hostname_prefix = "a b"; }), "hostname prefix");
  expect_problem(with([](auto& o) {
                   o.topology = Topology::kRandom;
                   o.random_degree = 10;
                 }),
                 "--random-degree");
  expect_problem(with([](auto& o) { o.fat_tree_k = 3; }), "--fat-tree-k");
  expect_problem(with([](auto& o) {
                   o.hosts = 20;
                   o.fat_tree_k = 4;  // 16 hosts at most
                 }),
                 "--fat-tree-k");
}

TEST(SimulationOptions, ExplicitClocksAndLinkDelaysAreChecked) {
  SimulationOptions o = valid_options();
  o.host_clocks = {{.host = 7, .offset_ns = 0, .drift_ppm = 0, .drift_change_at_s = {}, .drift_after_change_ppm = 0}};
  expect_problem(o, "--clock for host 7: there are only 4 hosts");
  o.host_clocks = {{.host = 1, .offset_ns = 0, .drift_ppm = 5000, .drift_change_at_s = {}, .drift_after_change_ppm = 0},
                   {.host = 1, .offset_ns = 0, .drift_ppm = 0, .drift_change_at_s = 99, .drift_after_change_ppm = 0}};
  expect_problem(o, "--clock for host 1: drift 5000 ppm");
  expect_problem(o, "--clock for host 1: given twice");
  expect_problem(o, "--clock for host 1: drift change at 99 s");

  o = valid_options();
  o.link_delays = {{.host_a = 2, .host_b = 2, .min_delay_us = {}, .mean_delay_us = {}, .asymmetry = {}},
                   {.host_a = 0, .host_b = 1, .min_delay_us = -1, .mean_delay_us = {}, .asymmetry = {}}};
  expect_problem(o, "--link-delay 2-2: a link joins two different hosts");
  expect_problem(o, "--link-delay 0-1: minimum delay");
}

TEST(SimulationOptions, ClockSpecsParse) {
  HostClockSpec spec;
  EXPECT_EQ(parse_host_clock("2:-1500000:12.5", spec), "");
  EXPECT_EQ(spec.host, 2U);
  EXPECT_EQ(spec.offset_ns, -1'500'000);
  EXPECT_EQ(spec.drift_ppm, 12.5);
  EXPECT_FALSE(spec.drift_change_at_s.has_value());
  EXPECT_EQ(parse_host_clock("1:0:-3:30:14", spec), "");
  EXPECT_EQ(spec.drift_change_at_s, 30.0);
  EXPECT_EQ(spec.drift_after_change_ppm, 14.0);

  const HostClockSpec before = spec;
  EXPECT_NE(parse_host_clock("1:0", spec).find("expected HOST:OFFSET_NS:DRIFT_PPM"), std::string::npos);
  EXPECT_NE(parse_host_clock("x:0:1", spec).find("--clock x:0:1: the host"), std::string::npos);
  EXPECT_NE(parse_host_clock("1:0.5:1", spec).find("the offset"), std::string::npos);
  EXPECT_NE(parse_host_clock("1:0:fast", spec).find("the drift"), std::string::npos);
  EXPECT_NE(parse_host_clock("1:0:1:soon:2", spec).find("the drift change time"), std::string::npos);
  EXPECT_EQ(spec.host, before.host);  // untouched on error
  EXPECT_EQ(spec.drift_ppm, before.drift_ppm);
}

TEST(SimulationOptions, LinkDelaySpecsParse) {
  LinkDelaySpec spec;
  EXPECT_EQ(parse_link_delay("0-3:40:20", spec), "");
  EXPECT_EQ(spec.host_a, 0U);
  EXPECT_EQ(spec.host_b, 3U);
  EXPECT_EQ(spec.min_delay_us, 40.0);
  EXPECT_EQ(spec.mean_delay_us, 20.0);
  EXPECT_FALSE(spec.asymmetry.has_value());
  EXPECT_EQ(parse_link_delay("1-2::500:3", spec), "");
  EXPECT_FALSE(spec.min_delay_us.has_value());
  EXPECT_EQ(spec.mean_delay_us, 500.0);
  EXPECT_EQ(spec.asymmetry, 3.0);

  EXPECT_NE(parse_link_delay("0-3", spec).find("expected A-B"), std::string::npos);
  EXPECT_NE(parse_link_delay("03:1:2", spec).find("the link is not written A-B"), std::string::npos);
  EXPECT_NE(parse_link_delay("0-3:a:2", spec).find("the minimum delay"), std::string::npos);
  EXPECT_NE(parse_link_delay("0-3:1:2:x", spec).find("the asymmetry"), std::string::npos);
}

TEST(SimulationOptions, AllProblemsAreReportedAtOnce) {
  SimulationOptions o = valid_options();
  o.hosts = 0;
  o.loss_rate = 5;
  const std::string problem = validate(o);
  EXPECT_NE(problem.find("--hosts"), std::string::npos);
  EXPECT_NE(problem.find("--loss"), std::string::npos);
}

TEST(SimulationRun, InvalidOptionsThrowTheValidationMessage) {
  SimulationOptions o = valid_options();
  o.hosts = 1;
  try {
    run(o);
    FAIL() << "run accepted one host";
  } catch (const SimulationError& e) {
    EXPECT_EQ(std::string(e.what()), validate(o));
  }
}

TEST(SimulationRun, LinkDelayOnHostsThatDoNotTalkIsAnError) {
  TempDirectory dir;
  SimulationOptions o;
  o.output_dir = dir / "out";
  o.topology = Topology::kChain;
  o.link_delays = {{.host_a = 3, .host_b = 0, .min_delay_us = 10, .mean_delay_us = {}, .asymmetry = {}}};
  try {
    run(o);
    FAIL() << "run accepted a delay for a link that does not exist";
  } catch (const SimulationError& e) {
    EXPECT_NE(std::string(e.what()).find("--link-delay 3-0: hosts 0 and 3 do not talk in this chain topology"),
              std::string::npos)
        << e.what();
  }
}

TEST(SimulationRun, OutputThatIsAFileIsAnError) {
  TempDirectory dir;
  const std::string file = dir / "a-file";
  std::ofstream(file) << "x";
  SimulationOptions o;
  o.output_dir = file;
  EXPECT_THROW(run(o), SimulationError);
  o.output_dir = file + "/below";
  try {
    run(o);
    FAIL() << "run wrote below a regular file";
  } catch (const SimulationError& e) {
    EXPECT_NE(std::string(e.what()).find(o.output_dir), std::string::npos) << e.what();
  }
}

TEST(SimulationRun, NonEmptyOutputNeedsOverwriteWhichKeepsForeignFiles) {
  TempDirectory dir;
  SimulationOptions o;
  o.output_dir = dir / "out";
  o.hosts = 2;
  o.duration_s = 0.05;
  run(o);
  const std::string foreign = dir / "out/notes.txt";
  std::ofstream(foreign) << "mine";
  try {
    run(o);
    FAIL() << "run wrote into a non-empty directory";
  } catch (const SimulationError& e) {
    EXPECT_NE(std::string(e.what()).find("--overwrite"), std::string::npos) << e.what();
  }

  // A previous simulation with more hosts: --overwrite removes all its traces.
  o.overwrite = true;
  o.hosts = 3;
  run(o);
  o.hosts = 2;
  run(o);
  EXPECT_TRUE(std::filesystem::exists(dir / "out/host1/kernel/metadata"));
  EXPECT_FALSE(std::filesystem::exists(dir / "out/host2"));
  EXPECT_TRUE(std::filesystem::exists(foreign));
}

}  // namespace
}  // namespace tracesync::simulate

namespace tracesync::simulate {
namespace {

TEST(SimulationOptions, ClockModelParametersAreNamedWhenOutOfRange) {
  const auto with = [](auto change) {
    SimulationOptions o;
    o.output_dir = "unused";
    change(o);
    return o;
  };
  const auto expect = [](const SimulationOptions& o, const std::string& option) {
    const std::string problem = validate(o);
    EXPECT_NE(problem.find(option), std::string::npos) << "expected " << option << ", got: " << problem;
  };
  expect(with([](SimulationOptions& o) { o.step_interval_s = 0.5; }), "--step-interval");
  expect(with([](SimulationOptions& o) { o.step_size_ppm = -1; }), "--step-size");
  expect(with([](SimulationOptions& o) { o.slew_length_s = 0; }), "--slew-length");
  expect(with([](SimulationOptions& o) { o.slew_interval_s = 9; }), "--slew-interval");  // not > 2 * 5 s
  expect(with([](SimulationOptions& o) { o.slew_rate_ppm = std::nan(""); }), "--slew-rate");
  expect(with([](SimulationOptions& o) { o.wander_ppm = 2000; }), "--wander-amplitude");
  expect(with([](SimulationOptions& o) { o.wander_period_s = 0; }), "--wander-period");
  expect(with([](SimulationOptions& o) { o.wander_step_s = 1000; }), "--wander-step");  // > 3600 / 4
  expect(with([](SimulationOptions& o) {
           o.clock_model = ClockModel::kWander;
           o.duration_s = 20 * 86'400.0;
           o.wander_step_s = 1;
         }),
         "--clock-model wander");
  expect(with([](SimulationOptions& o) { o.gaps = {{.at_s = 11, .length_s = 1}}; }), "--gap");
  expect(with([](SimulationOptions& o) { o.gaps = {{.at_s = 1, .length_s = -1}}; }), "--gap");
  // The defaults of every model are valid, over a day too.
  for (const ClockModel m : {ClockModel::kSteps, ClockModel::kSlews, ClockModel::kWander, ClockModel::kCombined}) {
    EXPECT_EQ(validate(with([&](SimulationOptions& o) {
                o.clock_model = m;
                o.duration_s = 86'400;
              })),
              "");
  }
}

}  // namespace
}  // namespace tracesync::simulate
