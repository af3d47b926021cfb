// SPDX-License-Identifier: EPL-2.0
// Exact again (issue 36): every trace transform a report prints is the
// exact composition of the report's own link lines (or clock maps) along
// the report's own tree, rounded once to the printed 34 digits. Checked by
// an exact recomputation of the test's own (e2e/exact_composition.h) on
// every real fixture and on simulated experiments of several sizes,
// topologies and clock models, with both clock models of sync. And every
// one of those syncs writes a certificate that `tracesync verify` accepts;
// mutated certificates (a moved timestamp, a dropped vertex, a swapped
// path) it rejects, naming the disagreement.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <nlohmann/json.hpp>

#include "e2e/exact_composition.h"
#include "support/run_command.h"
#include "support/sanitized.h"

namespace tracesync {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::run_command;
using testing::tracesync_binary;

const std::string kFixtures = std::string(TRACESYNC_SHARED_DIR) + "/fixtures";

testing::CommandResult verify(const std::string& report, const std::string& certificate,
                              const std::vector<std::string>& traces = {}) {
  std::vector<std::string> args = {"verify", "--format", "json", report, certificate};
  args.insert(args.end(), traces.begin(), traces.end());
  return run_command(tracesync_binary(), args);
}

// Completeness: every message the sync used (as many as its links count)
// was found on its allowed side, or in a segment without lines, by verify
// given the traces or the match file.
void expect_every_message_on_its_side(const json& verdict, const json& report) {
  std::size_t used = 0;
  bool accurate = false;
  for (const json& l : report["links"]) {
    used += l["messages"].get<std::size_t>();
    for (const json& segment : l["segments"]) accurate = accurate || segment["quality"] == "ACCURATE";
  }
  ASSERT_FALSE(verdict["messages_on_allowed_side"].is_null()) << verdict.dump();
  if (accurate) {
    EXPECT_GT(verdict["messages_on_allowed_side"].get<std::size_t>(), 0u);
  }
  EXPECT_EQ(verdict["messages_on_allowed_side"].get<std::size_t>() +
                verdict["messages_in_unbounded_segments"].get<std::size_t>(),
            used);
  EXPECT_EQ(verdict["messages_on_no_link"].get<std::size_t>(), 0u);
  // And every knot of a clock map made of local bands (under a stability
  // assumption: several segments, or one whose clocks bend) re-derived.
  std::size_t knots = 0;
  if (report["options"]["clock_stability_ppm"].get<double>() > 0) {
    for (const json& l : report["links"]) knots += l.contains("clock_map") ? l["clock_map"].size() : 0;
  }
  EXPECT_EQ(verdict["knot_bounds"].is_null() ? 0u : verdict["knot_bounds"].get<std::size_t>(), knots);
}

std::size_t cited_messages(const json& certificate) {
  std::size_t n = 0;
  for (const json& l : certificate["links"]) {
    for (const json& s : l["segments"]) n += s["a_to_b"].size() + s["b_to_a"].size();
  }
  return n;
}

// Verifies with the traces: every cited message must be found in them.
void expect_found_in_traces(const std::string& report, const std::string& certificate,
                            const std::vector<std::string>& traces) {
  const auto v = verify(report, certificate, traces);
  ASSERT_EQ(v.exit_code, 0) << v.out << v.err;
  const json verdict = json::parse(v.out);
  const std::size_t cited = cited_messages(json::parse(testing::read_file(certificate)));
  EXPECT_GT(cited, 0u);
  EXPECT_EQ(verdict["messages_in_traces"].get<std::size_t>(), cited);
  EXPECT_GE(verdict["traces_read"].get<std::size_t>(), 2u);
  expect_every_message_on_its_side(verdict, json::parse(testing::read_file(report)));
  // The scanner names its stream files: when it read every trace, every
  // cited event names its file and is found in it.
  bool scanned = true;
  for (const json& t : json::parse(testing::read_file(report))["traces"]) {
    scanned = scanned && t.value("reader", "") == "scanner";
  }
  EXPECT_EQ(verdict["events_in_cited_stream_files"].get<std::size_t>(), scanned ? 2 * cited : 0u);
}

// Syncs with a certificate, which `verify` must accept: every sync of this
// file is verified, and, when it read traces (`traces`), verified against
// them too.
json sync(std::vector<std::string> args, const std::vector<std::string>& traces = {}) {
  testing::TempDir dir;
  args.insert(args.begin(), {"sync", "--format", "json", "--output", dir.file("report.json"), "--certificate",
                             dir.file("certificate.json")});
  const auto r = run_command(tracesync_binary(), args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  if (r.exit_code != 0) return json();
  const auto v = verify(dir.file("report.json"), dir.file("certificate.json"));
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  const json report = json::parse(testing::read_file(dir.file("report.json")));
  if (v.exit_code == 0) {
    // Every ACCURATE link segment re-derived, every trace segment recomputed.
    std::size_t accurate = 0, trace_segments = 0;
    for (const json& l : report["links"]) {
      for (const json& segment : l["segments"]) accurate += segment["quality"] == "ACCURATE";
    }
    for (const json& t : report["traces"]) {
      if (t["synchronized"].get<bool>()) trace_segments += t["segments"].size();
    }
    const json verdict = json::parse(v.out);
    EXPECT_TRUE(verdict["agrees"].get<bool>());
    EXPECT_EQ(verdict["link_segments"].get<std::size_t>(), accurate);
    EXPECT_EQ(verdict["trace_segments"].get<std::size_t>(), trace_segments);
    EXPECT_GT(trace_segments, 0u);
    // Every bound too: each trace segment's at both ends, exactly; each
    // ACCURATE link segment's either covering what its cited messages allow
    // or, tighter, the local envelope's (resting on uncited messages).
    EXPECT_EQ(verdict["trace_bounds"].get<std::size_t>(), 2 * trace_segments);
    EXPECT_EQ(verdict["link_bounds"].get<std::size_t>() / 2 +
                  verdict["link_bounds_resting_on_uncited_messages"].get<std::size_t>(),
              accurate);
    EXPECT_TRUE(verdict["messages_in_traces"].is_null());  // not asked
    EXPECT_TRUE(verdict["messages_on_allowed_side"].is_null());
    // Without the messages, a clock map's knot bounds are taken as
    // reported, and said to be.
    std::size_t maps = 0, said = 0;
    for (const json& l : report["links"]) maps += l.contains("clock_map");
    for (const json& u : verdict["unverified"]) {
      said += u.get<std::string>().find("knots rest on local bands") != std::string::npos ||
              u.get<std::string>().find("knots bridge its segments") != std::string::npos;
    }
    EXPECT_EQ(said, maps);
  }
  // A sync of a match file: every message of it on its allowed side.
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] != "--matches" || v.exit_code != 0) continue;
    const auto complete = run_command(tracesync_binary(), {"verify", "--format", "json", "--matches", args[i + 1],
                                                           dir.file("report.json"), dir.file("certificate.json")});
    EXPECT_EQ(complete.exit_code, 0) << complete.out << complete.err;
    if (complete.exit_code == 0) expect_every_message_on_its_side(json::parse(complete.out), report);
  }
  if (!traces.empty()) expect_found_in_traces(dir.file("report.json"), dir.file("certificate.json"), traces);
  return report;
}

std::vector<std::string> trace_dirs(const std::string& experiment) {
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(experiment)) {
    if (entry.is_directory()) out.push_back(entry.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

void expect_exact(const json& report, std::size_t at_least_segments) {
  const testing::CompositionCheck check = testing::recompute_trace_transforms(report);
  EXPECT_GE(check.segments_checked, at_least_segments);
  for (const std::string& d : check.disagreements) ADD_FAILURE() << d;
}

const json& trace_named(const json& report, const std::string& prefix) {
  for (const json& t : report["traces"]) {
    if (t["name"].get<std::string>().rfind(prefix, 0) == 0) return t;
  }
  throw std::runtime_error("no trace " + prefix);
}

// The numbers of the issue, literally: Trace Compass 10.3 prints the same.
TEST(ExactTransforms, DjangoVoteV1SlopesAreTheExactInversesOfTheirLinks) {
  const std::string experiment = kFixtures + "/lttng-modules-2.4-addons/django-vote-v1";
  if (!fs::exists(experiment)) GTEST_SKIP() << "shared fixtures absent: " << experiment;
  for (const std::string model : {"piecewise", "linear"}) {
    std::vector<std::string> args = trace_dirs(experiment);
    args.insert(args.end(), {"--reference", "django-httpd", "--clock-model", model});
    const json report = sync(args, trace_dirs(experiment));
    const json& client = trace_named(report, "django-client");
    EXPECT_EQ(client["slope"], "1.000021940707521070626952332542269") << model;
    ASSERT_EQ(client["segments"].size(), 1u);
    EXPECT_EQ(client["segments"][0]["slope"], "1.000021940707521070626952332542269") << model;
    bool seen = false;
    for (const json& l : report["links"]) {
      if (l["a_hostname"] == "django-httpd" && l["b_hostname"] == "django-client") {
        EXPECT_EQ(l["alpha"], "0.9999780597738630139908069469370680");
        seen = true;
      }
    }
    EXPECT_TRUE(seen);
    expect_exact(report, 3);
  }
}

TEST(ExactTransforms, EveryFixtureRecomputesExactly) {
  struct Case {
    std::string experiment;
    std::vector<std::string> extra;
  };
  const std::vector<Case> cases = {
      {"lttng-modules-2.1-addons", {}},
      {"lttng-modules-2.4-addons/django-vote-v1", {}},
      {"lttng-modules-2.4-addons/django-vote-v1", {"--reference", "django-httpd"}},
      {"lttng-modules-2.4-addons/django-vote-v1", {"--reference", "django-db"}},
      {"lttng-modules-2.4-addons/django-vote-v2", {}},
      {"lttng-modules-2.4-addons/django-vote-v2", {"--reference", "django-client"}},
  };
  for (const Case& c : cases) {
    const std::string experiment = kFixtures + "/" + c.experiment;
    if (!fs::exists(experiment)) GTEST_SKIP() << "shared fixtures absent: " << experiment;
    for (const std::string model : {"piecewise", "linear"}) {
      SCOPED_TRACE(c.experiment + " " + model + (c.extra.empty() ? "" : " " + c.extra[1]));
      std::vector<std::string> args = trace_dirs(experiment);
      args.insert(args.end(), c.extra.begin(), c.extra.end());
      args.insert(args.end(), {"--clock-model", model});
      expect_exact(sync(args, trace_dirs(experiment)), 2);
    }
  }
}

struct Simulated {
  std::string name;
  std::vector<std::string> simulate;
};

void PrintTo(const Simulated& s, std::ostream* out) { *out << s.name; }

class SimulatedExactTest : public ::testing::TestWithParam<Simulated> {};

// Matches only (--no-traces): the transforms depend on the messages alone.
TEST_P(SimulatedExactTest, RecomputesExactly) {
  testing::TempDir dir;
  std::vector<std::string> args = {"simulate", "--quiet", "--no-traces", "--write-matches", "--output", dir.path()};
  args.insert(args.end(), GetParam().simulate.begin(), GetParam().simulate.end());
  if (testing::sanitized()) {
    // The sanitized command is run for memory errors, not for long
    // experiments: a minute of each (verify of a bending clock's many
    // local-band segments takes minutes under ASan).
    for (std::size_t i = 0; i + 1 < args.size(); ++i) {
      if (args[i] == "--duration") args[i + 1] = "1min";
    }
  }
  const auto sim = run_command(tracesync_binary(), args);
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  for (const std::string model : {"piecewise", "linear"}) {
    SCOPED_TRACE(model);
    const json report = sync({"--matches", dir.file("matches.txt"), "--clock-model", model});
    expect_exact(report, report["traces"].size());
  }
}

// With --clock-stability 0 the link bounds rest on the cited messages alone,
// and verify checks them too.
TEST(Verify, ChecksLinkBoundsOfLinearClocks) {
  const std::string experiment = kFixtures + "/lttng-modules-2.4-addons/django-vote-v2";
  if (!fs::exists(experiment)) GTEST_SKIP() << "shared fixtures absent: " << experiment;
  testing::TempDir dir;
  std::vector<std::string> args = {"sync", "--format", "json", "--output", dir.file("r.json"), "--certificate",
                                   dir.file("c.json"), "--clock-stability", "0"};
  for (const std::string& t : trace_dirs(experiment)) args.push_back(t);
  ASSERT_EQ(run_command(tracesync_binary(), args).exit_code, 0);
  const auto v = verify(dir.file("r.json"), dir.file("c.json"));
  ASSERT_EQ(v.exit_code, 0) << v.out << v.err;
  const json verdict = json::parse(v.out);
  EXPECT_GE(verdict["link_bounds"].get<int>(), 4);
  EXPECT_GE(verdict["trace_bounds"].get<int>(), 6);
  EXPECT_TRUE(verdict["unverified"].empty()) << verdict.dump();
}

// A certificate changed in one place must be caught, and the disagreement
// named; each mutation starts from a certificate verify accepts. Under
// linear clocks (every bound rests on the cited messages) and under the
// defaults (piecewise, 100 ppm).
class MutatedCertificateTest : public ::testing::TestWithParam<std::vector<std::string>> {
 protected:
  void SetUp() override {
    const auto sim = run_command(tracesync_binary(), {"simulate", "--quiet", "--no-traces", "--write-matches", "--output",
                                                      dir_.path(), "--hosts", "3", "--topology", "chain", "--duration",
                                                      "60s", "--seed", "9"});
    ASSERT_EQ(sim.exit_code, 0) << sim.err;
    std::vector<std::string> args = {"sync", "--format", "json", "--matches", dir_.file("matches.txt"), "--output",
                                     dir_.file("report.json"), "--certificate", dir_.file("certificate.json")};
    args.insert(args.end(), GetParam().begin(), GetParam().end());
    const auto r = run_command(tracesync_binary(), args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ASSERT_EQ(verify(dir_.file("report.json"), dir_.file("certificate.json")).exit_code, 0);
    certificate_ = json::parse(testing::read_file(dir_.file("certificate.json")));
    report_ = json::parse(testing::read_file(dir_.file("report.json")));
  }

  // Verifies `report` against the certificate: must exit 6 naming `expected`.
  void expect_report_caught(const json& report, const std::string& expected) {
    testing::write_file(dir_.file("changed.json"), report.dump(1));
    const auto v = verify(dir_.file("changed.json"), dir_.file("certificate.json"));
    EXPECT_EQ(v.exit_code, 6) << v.out << v.err;
    EXPECT_NE(v.err.find(expected), std::string::npos) << v.err;
  }

  // Verifies the report against `mutated`: must exit 6 naming `expected`.
  void expect_caught(const json& mutated, const std::string& expected) {
    testing::write_file(dir_.file("mutated.json"), mutated.dump(1));
    const auto v = verify(dir_.file("report.json"), dir_.file("mutated.json"));
    EXPECT_EQ(v.exit_code, 6) << v.out << v.err;
    EXPECT_NE(v.err.find(expected), std::string::npos) << v.err;
    ASSERT_FALSE(v.out.empty());
    EXPECT_FALSE(json::parse(v.out)["agrees"].get<bool>());
  }

  json& first_segment() { return certificate_["links"][0]["segments"][0]; }

  testing::TempDir dir_;
  json certificate_;
  json report_;
};

TEST_P(MutatedCertificateTest, MovedTimestampOfAPinningMessage) {
  json mutated = certificate_;
  json& segment = mutated["links"][0]["segments"][0];
  const std::size_t pin = segment["lmax"]["a_to_b"].get<std::size_t>();
  segment["a_to_b"][pin]["receive_ns"] = segment["a_to_b"][pin]["receive_ns"].get<int64_t>() + 1;
  expect_caught(mutated, "segment 0");
}

TEST_P(MutatedCertificateTest, MovedTimestampOfAnyMessageToTheWrongSide) {
  // Every other vertex moved far across the estimate: a line it no longer allows.
  json mutated = certificate_;
  json& list = mutated["links"][0]["segments"][0]["b_to_a"];
  for (json& m : list) m["send_ns"] = m["send_ns"].get<int64_t>() + 1'000'000'000;
  expect_caught(mutated, "segment 0");
}

TEST_P(MutatedCertificateTest, DroppedPinningVertex) {
  json mutated = certificate_;
  json& segment = mutated["links"][0]["segments"][0];
  const std::size_t pin = segment["lmin"]["b_to_a"].get<std::size_t>();
  segment["b_to_a"].erase(pin);
  expect_caught(mutated, "segment 0");
}

TEST_P(MutatedCertificateTest, SwappedPaths) {
  json mutated = certificate_;
  json& paths = mutated["paths"];
  ASSERT_GE(paths.size(), 3u);
  std::swap(paths[0]["path"], paths[2]["path"]);
  expect_caught(mutated, "its path starts at");
}

TEST_P(MutatedCertificateTest, PathThroughALinkOffTheTree) {
  // A chain of three: one leaf's path detoured through the other leaf
  // crosses from one leaf to the other, where there is no link.
  json mutated = certificate_;
  json* one_hop = nullptr;
  const json* other_leaf = nullptr;
  for (json& p : mutated["paths"]) {
    if (p["path"].size() != 2) continue;
    if (one_hop == nullptr) {
      one_hop = &p;
    } else {
      other_leaf = &p["path"][0];
    }
  }
  ASSERT_NE(other_leaf, nullptr) << "a chain of three hosts has two one-hop paths";
  (*one_hop)["path"].insert((*one_hop)["path"].begin() + 1, *other_leaf);
  expect_caught(mutated, "by no link of the tree");
}

TEST_P(MutatedCertificateTest, MalformedCertificateIsBadInput) {
  json mutated = certificate_;
  mutated["links"][0]["segments"][0]["a_to_b"][0].erase("send_ns");
  testing::write_file(dir_.file("mutated.json"), mutated.dump());
  const auto v = verify(dir_.file("report.json"), dir_.file("mutated.json"));
  EXPECT_EQ(v.exit_code, 2) << v.err;
  EXPECT_NE(v.err.find("send_ns"), std::string::npos) << v.err;
  testing::write_file(dir_.file("garbage.json"), "{ not json");
  const auto g = verify(dir_.file("report.json"), dir_.file("garbage.json"));
  EXPECT_EQ(g.exit_code, 2);
  EXPECT_NE(g.err.find("garbage.json"), std::string::npos) << g.err;
}

// A report changed in one digit of a trace's slope disagrees too.
TEST_P(MutatedCertificateTest, ReportWithATraceSlopeOffInItsLastDigit) {
  json report = json::parse(testing::read_file(dir_.file("report.json")));
  for (json& t : report["traces"]) {
    if (t["reference"].get<bool>()) continue;
    std::string slope = t["segments"][0]["slope"];
    slope.back() = slope.back() == '9' ? '8' : static_cast<char>(slope.back() + 1);
    t["segments"][0]["slope"] = slope;
    break;
  }
  testing::write_file(dir_.file("changed.json"), report.dump());
  const auto v = verify(dir_.file("changed.json"), dir_.file("certificate.json"));
  EXPECT_EQ(v.exit_code, 6) << v.out;
  EXPECT_NE(v.err.find("not the exact composition"), std::string::npos) << v.err;
}

// `verify REPORT CERTIFICATE TRACES...` re-reads the traces: a simulated
// CTF experiment (no shared fixtures needed), its traces changed, a trace
// left out, and a certificate changed where only the traces can tell.
class VerifyTracesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    simulate("11");
    const auto r = run_command(tracesync_binary(), {"sync", "--format", "json", experiment(), "--output",
                                                    dir_.file("report.json"), "--certificate", dir_.file("c.json")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    certificate_ = json::parse(testing::read_file(dir_.file("c.json")));
  }

  void simulate(const std::string& seed) {
    const auto sim = run_command(tracesync_binary(), {"simulate", "--quiet", "--overwrite", "--output", experiment(),
                                                      "--hosts", "3", "--topology", "chain", "--duration", "5s",
                                                      "--cpus", "2", "--seed", seed});
    ASSERT_EQ(sim.exit_code, 0) << sim.err;
  }

  std::string experiment() const { return dir_.file("experiment"); }

  testing::TempDir dir_;
  json certificate_;
};

TEST_F(VerifyTracesTest, EveryCitedMessageIsFoundInTheTraces) {
  expect_found_in_traces(dir_.file("report.json"), dir_.file("c.json"), {experiment()});
  // The same, read in this process, and given trace by trace.
  const auto v = run_command(tracesync_binary(), {"verify", "--in-process", "--jobs", "1", dir_.file("report.json"),
                                                  dir_.file("c.json"), experiment() + "/host2", experiment() + "/host0",
                                                  experiment() + "/host1"});
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  EXPECT_NE(v.out.find("cited messages found in the 3 traces re-read"), std::string::npos) << v.out;
}

TEST_F(VerifyTracesTest, TracesOfAnotherRunHoldNoneOfTheCitedMessages) {
  simulate("12");  // the same hosts and paths, other messages
  const auto v = verify(dir_.file("report.json"), dir_.file("c.json"), {experiment()});
  EXPECT_EQ(v.exit_code, 6) << v.out << v.err;
  EXPECT_NE(v.err.find("the certificate cites a message the traces do not hold"), std::string::npos) << v.err;
  EXPECT_NE(v.err.find("segment 0, a -> b message 0"), std::string::npos) << v.err;
  EXPECT_NE(v.err.find("no send event at " +
                       std::to_string(certificate_["links"][0]["segments"][0]["a_to_b"][0]["send_ns"].get<int64_t>())),
            std::string::npos)
      << v.err;
  EXPECT_FALSE(json::parse(v.out)["agrees"].get<bool>());
}

TEST_F(VerifyTracesTest, AMessageMovedInTheCertificateOnlyTheTracesCanTell) {
  // A vertex that pins neither line, moved 1 ns to its allowed side: the
  // lines and bounds still follow, so only the traces show the change.
  json mutated = certificate_;
  json& segment = mutated["links"][0]["segments"][0];
  std::size_t moved = segment["a_to_b"].size();
  for (std::size_t i = 0; i < segment["a_to_b"].size(); ++i) {
    if (i != segment["lmin"]["a_to_b"].get<std::size_t>() && i != segment["lmax"]["a_to_b"].get<std::size_t>()) {
      moved = i;
      break;
    }
  }
  ASSERT_LT(moved, segment["a_to_b"].size()) << "a hull with a vertex that pins neither line";
  const int64_t receive = segment["a_to_b"][moved]["receive_ns"].get<int64_t>() + 1;
  segment["a_to_b"][moved]["receive_ns"] = receive;
  testing::write_file(dir_.file("moved.json"), mutated.dump(1));
  EXPECT_EQ(verify(dir_.file("report.json"), dir_.file("moved.json")).exit_code, 0);
  const auto v = verify(dir_.file("report.json"), dir_.file("moved.json"), {experiment()});
  EXPECT_EQ(v.exit_code, 6) << v.out << v.err;
  EXPECT_NE(v.err.find("a -> b message " + std::to_string(moved) + " "), std::string::npos) << v.err;
  EXPECT_NE(v.err.find("no receive event at " + std::to_string(receive) + " ns"), std::string::npos) << v.err;
}

// The scanner read the simulated traces, so the certificate names the
// trace and stream file of every event it cites; verify finds each one in
// that file, and a certificate that names another file or another host's
// trace is caught, though its lines and bounds still follow.
TEST_F(VerifyTracesTest, EveryCitedEventIsInTheStreamFileItNames) {
  const json report = json::parse(testing::read_file(dir_.file("report.json")));
  std::map<std::string, std::string> path_of;
  for (const json& t : report["traces"]) path_of[t["name"].get<std::string>()] = t["path"].get<std::string>();
  std::size_t cited = 0;
  for (const json& link : certificate_["links"]) {
    for (const json& segment : link["segments"]) {
      for (const char* direction : {"a_to_b", "b_to_a"}) {
        for (const json& m : segment[direction]) {
          ++cited;
          for (const char* end : {"send", "receive"}) {
            const std::string trace = m.value(std::string(end) + "_trace", "");
            const std::string stream = m.value(std::string(end) + "_stream", "");
            ASSERT_TRUE(path_of.count(trace)) << m;
            EXPECT_TRUE(fs::is_regular_file(fs::path(path_of[trace]) / stream)) << m;
          }
        }
      }
    }
  }
  ASSERT_GT(cited, 0u);
  const auto v = verify(dir_.file("report.json"), dir_.file("c.json"), {experiment()});
  ASSERT_EQ(v.exit_code, 0) << v.out << v.err;
  EXPECT_EQ(json::parse(v.out)["events_in_cited_stream_files"].get<std::size_t>(), 2 * cited);

  // The first cited send, placed in another stream file of its trace.
  json mutated = certificate_;
  json& first = mutated["links"][0]["segments"][0]["a_to_b"][0];
  const std::string trace = first["send_trace"].get<std::string>();
  std::string other;
  for (const auto& entry : fs::directory_iterator(path_of[trace])) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name != "metadata" && name != first["send_stream"].get<std::string>()) other = name;
  }
  ASSERT_FALSE(other.empty()) << "a trace of two stream files (--cpus 2)";
  first["send_stream"] = other;
  testing::write_file(dir_.file("stream.json"), mutated.dump(1));
  EXPECT_EQ(verify(dir_.file("report.json"), dir_.file("stream.json")).exit_code, 0);
  auto caught = verify(dir_.file("report.json"), dir_.file("stream.json"), {experiment()});
  EXPECT_EQ(caught.exit_code, 6) << caught.out << caught.err;
  EXPECT_NE(caught.err.find("segment 0, a -> b message 0"), std::string::npos) << caught.err;
  EXPECT_NE(caught.err.find("no send event at " + std::to_string(first["send_ns"].get<int64_t>()) +
                            " ns in stream file " + other + " of trace " + trace),
            std::string::npos)
      << caught.err;

  // Its receive, placed on a trace of the sender's host.
  mutated = certificate_;
  mutated["links"][0]["segments"][0]["a_to_b"][0]["receive_trace"] = trace;
  testing::write_file(dir_.file("trace.json"), mutated.dump(1));
  caught = verify(dir_.file("report.json"), dir_.file("trace.json"), {experiment()});
  EXPECT_EQ(caught.exit_code, 6) << caught.out << caught.err;
  EXPECT_NE(caught.err.find("names trace " + trace + ", not one of the receiver's traces"), std::string::npos)
      << caught.err;
}

TEST_F(VerifyTracesTest, ATraceLeftOutIsBadUsageNamingIt) {
  const auto v = verify(dir_.file("report.json"), dir_.file("c.json"), {experiment() + "/host0", experiment() + "/host1"});
  EXPECT_EQ(v.exit_code, 2) << v.out << v.err;
  EXPECT_NE(v.err.find("host2/kernel"), std::string::npos) << v.err;
  EXPECT_NE(v.err.find("is not among the traces given"), std::string::npos) << v.err;
  const auto missing = verify(dir_.file("report.json"), dir_.file("c.json"), {dir_.file("nowhere")});
  EXPECT_EQ(missing.exit_code, 2) << missing.err;
  EXPECT_NE(missing.err.find("nowhere"), std::string::npos) << missing.err;
}

// A trace's bound moved by a nanosecond either way, or a link's bound it
// rests on: the exact sum no longer agrees.
TEST_P(MutatedCertificateTest, ReportWithATraceBoundOffByANanosecond) {
  for (const double change : {1.0, -1.0}) {
    json report = report_;
    for (json& t : report["traces"]) {
      if (t["reference"].get<bool>()) continue;
      t["segments"][0]["uncertainty_last_ns"] = t["segments"][0]["uncertainty_last_ns"].get<double>() + change;
      break;
    }
    expect_report_caught(report, "is not the sum of its links' bounds along its path there");
  }
}

TEST_P(MutatedCertificateTest, ReportWithALinkBoundTheTracesDoNotSum) {
  json report = report_;
  for (json& l : report["links"]) {
    if (!l["in_tree"].get<bool>()) continue;
    if (l.contains("clock_map") && !l["clock_map"].is_null()) {
      for (json& k : l["clock_map"]) k["bound_ns"] = k["bound_ns"].get<double>() * 2;
    } else {
      l["uncertainty_ns"] = l["uncertainty_ns"].get<double>() * 2;
    }
    break;
  }
  expect_report_caught(report, "is not the sum of its links' bounds along its path there");
}

// A link's clock map whose knots do not rise defines no map: named, not
// composed (verify finds a piece by binary search over the knots). A
// clock that steps gives the link a clock map of many knots (at 2 messages
// a second, so that it takes little time under the sanitizers).
TEST(Verify, AClockMapThatDoesNotRiseIsNamed) {
  testing::TempDir dir;
  const auto sim = run_command(tracesync_binary(), {"simulate", "--quiet", "--no-traces", "--write-matches", "--output",
                                                    dir.path(), "--hosts", "2", "--topology", "pairs", "--clock-model",
                                                    "steps", "--duration", "20min", "--rate", "2", "--seed", "3"});
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  const auto r = run_command(tracesync_binary(), {"sync", "--format", "json", "--matches", dir.file("matches.txt"), "--output",
                                                  dir.file("report.json"), "--certificate", dir.file("certificate.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(verify(dir.file("report.json"), dir.file("certificate.json")).exit_code, 0);
  json report = json::parse(testing::read_file(dir.file("report.json")));
  json& knots = report["links"][0]["clock_map"];
  ASSERT_TRUE(knots.is_array());
  ASSERT_GE(knots.size(), 3u);
  std::swap(knots[knots.size() - 2]["x_ns"], knots[knots.size() - 1]["x_ns"]);
  testing::write_file(dir.file("changed.json"), report.dump(1));
  const auto v = verify(dir.file("changed.json"), dir.file("certificate.json"));
  EXPECT_EQ(v.exit_code, 6) << v.out << v.err;
  EXPECT_NE(v.err.find("its clock map does not rise at knot " + std::to_string(knots.size() - 1)), std::string::npos) << v.err;
}

// A link whose clock steps gets a clock map from local bands (several
// segments). Given the match file, verify re-derives every knot's bound from
// every message, by the engine's rule in its own exact code; without it the
// knots are listed as not verified. A knot bound 1 ns narrower (with the
// trace bounds that sum it, so that report and certificate still agree) is
// caught given the messages, naming the link and the knot. 20 messages a
// second for a minute: a fraction of a second, sanitized too.
TEST(Verify, KnotBoundsOfLocalBandsAreReDerivedFromEveryMessage) {
  testing::TempDir dir;
  const auto sim = run_command(tracesync_binary(), {"simulate", "--quiet", "--no-traces", "--write-matches", "--output",
                                                    dir.path(), "--hosts", "2", "--topology", "pairs", "--clock-model",
                                                    "steps", "--step-interval", "10s", "--step-size", "20", "--duration",
                                                    "60s", "--rate", "20", "--seed", "1"});
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  const auto r = run_command(tracesync_binary(), {"sync", "--format", "json", "--matches", dir.file("matches.txt"), "--output",
                                                  dir.file("report.json"), "--certificate", dir.file("certificate.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = json::parse(testing::read_file(dir.file("report.json")));
  const json& link = report["links"][0];
  ASSERT_GE(link["segments"].size(), 2u) << "the clock bends";
  ASSERT_TRUE(link.contains("clock_map"));
  const std::size_t knots = link["clock_map"].size();
  ASSERT_GE(knots, 3u);
  const auto with_matches = [&](const std::string& report_file) {
    return run_command(tracesync_binary(), {"verify", "--format", "json", "--matches", dir.file("matches.txt"),
                                            report_file, dir.file("certificate.json")});
  };

  const auto whole = with_matches(dir.file("report.json"));
  ASSERT_EQ(whole.exit_code, 0) << whole.out << whole.err;
  const json verdict = json::parse(whole.out);
  EXPECT_EQ(verdict["knot_bounds"].get<std::size_t>(), knots) << verdict.dump();
  EXPECT_GE(verdict["band_instants"].get<std::size_t>(), knots);
  EXPECT_TRUE(verdict["unverified"].empty()) << verdict.dump();
  const auto alone = verify(dir.file("report.json"), dir.file("certificate.json"));
  ASSERT_EQ(alone.exit_code, 0) << alone.out << alone.err;
  EXPECT_TRUE(json::parse(alone.out)["knot_bounds"].is_null());
  EXPECT_NE(alone.out.find("link host0 / host1: the bounds at its clock map's " + std::to_string(knots) +
                           " knots rest on local bands and are taken as reported"),
            std::string::npos)
      << alone.out;

  // Knot 1 narrowed by 1 ns, and the b trace's bounds at it (its segments
  // follow the map's pieces: host0 is the reference).
  json narrowed = report;
  json& knot = narrowed["links"][0]["clock_map"][1];
  knot["bound_ns"] = knot["bound_ns"].get<double>() - 1;
  for (json& t : narrowed["traces"]) {
    if (t["name"] != link["b"]) continue;
    ASSERT_EQ(t["segments"].size(), knots - 1);
    t["segments"][0]["uncertainty_last_ns"] = t["segments"][0]["uncertainty_last_ns"].get<double>() - 1;
    t["segments"][1]["uncertainty_first_ns"] = t["segments"][1]["uncertainty_first_ns"].get<double>() - 1;
  }
  testing::write_file(dir.file("narrowed.json"), narrowed.dump(1));
  const auto certificate_only = verify(dir.file("narrowed.json"), dir.file("certificate.json"));
  EXPECT_EQ(certificate_only.exit_code, 0) << certificate_only.out << certificate_only.err;
  const auto caught = with_matches(dir.file("narrowed.json"));
  EXPECT_EQ(caught.exit_code, 6) << caught.out << caught.err;
  EXPECT_NE(caught.err.find("link host0 / host1: its clock map's knot 1 (at " +
                            std::to_string(link["clock_map"][1]["x_ns"].get<int64_t>()) + " ns) has bound"),
            std::string::npos)
      << caught.err;
  EXPECT_NE(caught.err.find("narrower than the local bands allow"), std::string::npos) << caught.err;
}

// Read from traces, a link's clock map reaches to its a trace's first and
// last events, beyond its first and last band instants (a match file's
// extent is its messages'): the engine continues the end pieces' lines
// there, the bound growing from the knot at the instant by the rate limit
// plus the line's distance from slope 1. Verify checks those stretches by
// that rule: an end knot's bound 1 ns narrower (with the b trace's bounds
// that interpolate it, so that report and certificate still agree) is
// caught given the traces, naming the link and the knot. The traces of
// the minute above, one CPU each: a fraction of a second.
TEST(Verify, KnotBoundsBeyondTheFirstAndLastBandInstantsGrowByTheRateLimit) {
  testing::TempDir dir;
  const std::string experiment = dir.file("experiment");
  const auto sim = run_command(tracesync_binary(), {"simulate", "--quiet", "--output", experiment, "--hosts", "2",
                                                    "--topology", "pairs", "--clock-model", "steps", "--step-interval",
                                                    "10s", "--step-size", "20", "--duration", "60s", "--rate", "20",
                                                    "--cpus", "1", "--seed", "1"});
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  const auto r = run_command(tracesync_binary(), {"sync", "--format", "json", experiment, "--output",
                                                  dir.file("report.json"), "--certificate", dir.file("certificate.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = json::parse(testing::read_file(dir.file("report.json")));
  const json& link = report["links"][0];
  ASSERT_GE(link["segments"].size(), 2u) << "the clock bends";
  ASSERT_TRUE(link.contains("clock_map"));
  const json& map = link["clock_map"];
  const std::size_t knots = map.size();
  ASSERT_GE(knots, 4u);
  // Stretched at both ends: the end knots' bounds exceed their neighbours'
  // by at least the rate limit's 1,000 ppm of the distance.
  for (const auto& [end, inner] : {std::pair{std::size_t{0}, std::size_t{1}}, std::pair{knots - 1, knots - 2}}) {
    const auto distance = std::abs(map[end]["x_ns"].get<int64_t>() - map[inner]["x_ns"].get<int64_t>());
    EXPECT_GE(map[end]["bound_ns"].get<double>() - map[inner]["bound_ns"].get<double>(),
              0.001 * static_cast<double>(distance))
        << "knot " << end << " lies beyond the band instants";
  }
  const auto whole = verify(dir.file("report.json"), dir.file("certificate.json"), {experiment});
  ASSERT_EQ(whole.exit_code, 0) << whole.out << whole.err;
  const json verdict = json::parse(whole.out);
  EXPECT_EQ(verdict["knot_bounds"].get<std::size_t>(), knots) << verdict.dump();
  EXPECT_TRUE(verdict["unverified"].empty()) << verdict.dump();

  // The knots' y on b's clock, from the first knot's whole ns (a long
  // double holds the differences to a small fraction of a ns).
  const std::string y0 = map[0]["y"].get<std::string>();
  const int64_t origin = std::stoll(y0.substr(0, y0.find('.')));
  auto relative = [&](const std::string& y) {
    const std::size_t point = y.find('.');
    return static_cast<long double>(std::stoll(y.substr(0, point)) - origin) +
           (point == std::string::npos ? 0.0L : std::stold("0" + y.substr(point)));
  };
  std::vector<long double> ys;
  for (const json& k : map) ys.push_back(relative(k["y"].get<std::string>()));
  // How much knot k's bound 1 ns narrower narrows the link's bound at b's
  // time t: linear between the knots, carried beyond the ends.
  auto narrowing = [&](std::size_t k, int64_t t) -> long double {
    const long double y = static_cast<long double>(t - origin);
    if (y <= ys.front()) return k == 0 ? 1 : 0;
    if (y >= ys.back()) return k == knots - 1 ? 1 : 0;
    const std::size_t i = static_cast<std::size_t>(std::upper_bound(ys.begin(), ys.end(), y) - ys.begin()) - 1;
    const long double f = (y - ys[i]) / (ys[i + 1] - ys[i]);
    return (k == i ? 1 - f : 0) + (k == i + 1 ? f : 0);
  };
  for (const auto& [k, side] : {std::pair{std::size_t{0}, std::string("before the first")},
                                std::pair{knots - 1, std::string("after the last")}}) {
    json narrowed = report;
    json& knot = narrowed["links"][0]["clock_map"][k];
    knot["bound_ns"] = knot["bound_ns"].get<double>() - 1;
    bool b_found = false;
    for (json& t : narrowed["traces"]) {
      if (t["domain"] == link["a"]) {
        ASSERT_TRUE(t["reference"].get<bool>()) << "b's bound is the link's alone";
      }
      if (t["domain"] != link["b"]) continue;
      b_found = true;
      for (json& segment : t["segments"]) {
        for (const auto& [at, bound] : {std::pair{"first_ns", "uncertainty_first_ns"}, std::pair{"last_ns", "uncertainty_last_ns"}}) {
          const long double by = narrowing(k, segment[at].get<int64_t>());
          if (by != 0) segment[bound] = static_cast<double>(segment[bound].get<double>() - by);
        }
      }
    }
    ASSERT_TRUE(b_found);
    testing::write_file(dir.file("narrowed.json"), narrowed.dump(1));
    const auto certificate_only = verify(dir.file("narrowed.json"), dir.file("certificate.json"));
    EXPECT_EQ(certificate_only.exit_code, 0) << certificate_only.out << certificate_only.err;
    const auto caught = verify(dir.file("narrowed.json"), dir.file("certificate.json"), {experiment});
    EXPECT_EQ(caught.exit_code, 6) << caught.out << caught.err;
    EXPECT_NE(caught.err.find("link " + link["a"].get<std::string>() + " / " + link["b"].get<std::string>() +
                              ": its clock map's knot " + std::to_string(k) + " (at " +
                              std::to_string(map[k]["x_ns"].get<int64_t>()) + " ns) has bound"),
              std::string::npos)
        << caught.err;
    EXPECT_NE(caught.err.find("narrower than the rate limit allows " + side + " band instant"), std::string::npos)
        << caught.err;
  }
}

// A link segment's bound narrowed at one end below what its cited messages
// allow: caught under either assumption. (Narrowed alike at both ends under
// an allowance, it looks like the local envelope's, which rests on messages
// the certificate does not cite: that is listed as unverified, not caught;
// docs/verify.md.)
// Completeness: a message of the match file that the certificate does not
// cite, moved 1 ms below the lines (received earlier than any allowed line
// says it can be), must be caught by `verify --matches`, naming it; the
// certificate alone cannot tell.
TEST_P(MutatedCertificateTest, AnUncitedMessageOfTheMatchFileOnTheWrongSide) {
  const json& link = certificate_["links"][0];
  const std::string a = link["a"], b = link["b"];
  std::set<int64_t> cited;
  for (const json& s : link["segments"]) {
    for (const json& m : s["a_to_b"]) cited.insert(m["send_ns"].get<int64_t>());
  }
  const json& segment = report_["links"][0]["segments"][0];
  const long double alpha = std::stold(segment["alpha"].get<std::string>());
  const long double beta = std::stold(segment["beta"].get<std::string>());
  std::istringstream in(testing::read_file(dir_.file("matches.txt")));
  std::ostringstream out;
  std::string line, moved;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string sender, receiver;
    int64_t send = 0, receive = 0;
    if (moved.empty() && line[0] != '#' && (fields >> sender >> send >> receiver >> receive) && sender == a &&
        receiver == b && !cited.count(send) && send > segment["first_ns"].get<int64_t>() &&
        send < segment["last_ns"].get<int64_t>()) {
      receive = static_cast<int64_t>(alpha * send + beta) - 1'000'000;
      moved = "sent at " + std::to_string(send) + " ns and received at " + std::to_string(receive) + " ns";
      line = sender + " " + std::to_string(send) + " " + receiver + " " + std::to_string(receive);
    }
    out << line << "\n";
  }
  ASSERT_FALSE(moved.empty()) << "an uncited a -> b message in segment 0";
  testing::write_file(dir_.file("moved.txt"), out.str());
  EXPECT_EQ(verify(dir_.file("report.json"), dir_.file("certificate.json")).exit_code, 0);
  const auto v = run_command(tracesync_binary(), {"verify", "--matches", dir_.file("moved.txt"),
                                                  dir_.file("report.json"), dir_.file("certificate.json")});
  EXPECT_EQ(v.exit_code, 6) << v.out << v.err;
  EXPECT_NE(v.err.find("the messages contradict the report"), std::string::npos) << v.err;
  EXPECT_NE(v.err.find("a -> b message " + moved + " lies below segment 0's L"), std::string::npos) << v.err;
}

// Completeness: a sync that left out the message pinning a segment's Lmin
// writes a report and certificate that agree with each other, with a
// smaller Lmin slope; the message left out lies below that line, and
// `verify --matches` with the whole match file must say so.
TEST_P(MutatedCertificateTest, ASyncThatLeftOutAPinningMessage) {
  const json& link = certificate_["links"][0];
  const json& segment = link["segments"][0];
  const json& pin = segment["a_to_b"][segment["lmin"]["a_to_b"].get<std::size_t>()];
  const std::string left_out = link["a"].get<std::string>() + " " + std::to_string(pin["send_ns"].get<int64_t>()) +
                               " " + link["b"].get<std::string>() + " " +
                               std::to_string(pin["receive_ns"].get<int64_t>());
  std::istringstream in(testing::read_file(dir_.file("matches.txt")));
  std::ostringstream out;
  bool found = false;
  for (std::string line; std::getline(in, line);) {
    if (line == left_out) {
      found = true;
      continue;
    }
    out << line << "\n";
  }
  ASSERT_TRUE(found) << left_out;
  testing::write_file(dir_.file("fewer.txt"), out.str());
  std::vector<std::string> args = {"sync", "--format", "json", "--matches", dir_.file("fewer.txt"), "--output",
                                   dir_.file("fewer.json"), "--certificate", dir_.file("fewer-certificate.json")};
  args.insert(args.end(), GetParam().begin(), GetParam().end());
  ASSERT_EQ(run_command(tracesync_binary(), args).exit_code, 0);
  EXPECT_EQ(verify(dir_.file("fewer.json"), dir_.file("fewer-certificate.json")).exit_code, 0);
  const auto v = run_command(tracesync_binary(), {"verify", "--matches", dir_.file("matches.txt"),
                                                  dir_.file("fewer.json"), dir_.file("fewer-certificate.json")});
  EXPECT_EQ(v.exit_code, 6) << v.out << v.err;
  EXPECT_NE(v.err.find("the certificate does not cite it"), std::string::npos) << v.err;
  EXPECT_NE(v.err.find("sent at " + std::to_string(pin["send_ns"].get<int64_t>()) + " ns"), std::string::npos) << v.err;
}

// Default-allowance bounds: the local envelope's bound of a segment (the
// same at both ends, tighter than its cited messages allow) is checked
// against every message of the match file, and 1 ns less at both ends
// must be caught there (the certificate alone cannot tell). Under linear
// clocks every link bound is checked from the cited messages alone.
TEST_P(MutatedCertificateTest, EnvelopeBoundsAreCheckedAgainstEveryMessage) {
  const auto whole = run_command(tracesync_binary(), {"verify", "--format", "json", "--matches", dir_.file("matches.txt"),
                                                      dir_.file("report.json"), dir_.file("certificate.json")});
  ASSERT_EQ(whole.exit_code, 0) << whole.out << whole.err;
  const json verdict = json::parse(whole.out);
  EXPECT_EQ(verdict["link_bounds_resting_on_uncited_messages"].get<std::size_t>(), 0u) << verdict.dump();
  EXPECT_EQ(verdict["link_bounds"].get<std::size_t>(), 2 * verdict["link_segments"].get<std::size_t>());
  EXPECT_TRUE(verdict["unverified"].empty()) << verdict.dump();
  if (!GetParam().empty()) {
    EXPECT_EQ(verdict["link_bounds_from_every_message"].get<std::size_t>(), 0u);
    return;
  }
  ASSERT_GT(verdict["link_bounds_from_every_message"].get<std::size_t>(), 0u) << verdict.dump();
  json report = report_;
  json& segment = report["links"][0]["segments"][0];
  ASSERT_EQ(segment["uncertainty_first_ns"], segment["uncertainty_last_ns"]) << "an envelope bound";
  const double narrowed = segment["uncertainty_first_ns"].get<double>() - 1;
  segment["uncertainty_first_ns"] = narrowed;
  segment["uncertainty_last_ns"] = narrowed;
  testing::write_file(dir_.file("narrowed.json"), report.dump(1));
  const auto alone = verify(dir_.file("narrowed.json"), dir_.file("certificate.json"));
  EXPECT_EQ(alone.exit_code, 0) << alone.out << alone.err;
  EXPECT_EQ(json::parse(alone.out)["link_bounds_resting_on_uncited_messages"].get<std::size_t>(),
            verdict["link_bounds_from_every_message"].get<std::size_t>());
  const auto v = run_command(tracesync_binary(), {"verify", "--matches", dir_.file("matches.txt"),
                                                  dir_.file("narrowed.json"), dir_.file("certificate.json")});
  EXPECT_EQ(v.exit_code, 6) << v.out << v.err;
  EXPECT_NE(v.err.find("segment 0: its bound"), std::string::npos) << v.err;
  EXPECT_NE(v.err.find("is narrower than what every message of the segment allows"), std::string::npos) << v.err;
}

TEST_P(MutatedCertificateTest, ReportWithALinkSegmentBoundNarrowedAtOneEnd) {
  json report = report_;
  json& segment = report["links"][0]["segments"][0];
  segment["uncertainty_first_ns"] = segment["uncertainty_first_ns"].get<double>() / 100;
  expect_report_caught(report, "is narrower than what its cited messages allow there");
}

INSTANTIATE_TEST_SUITE_P(Assumptions, MutatedCertificateTest,
                         ::testing::Values(std::vector<std::string>{"--clock-stability", "0", "--clock-model", "linear"},
                                           std::vector<std::string>{}),
                         [](const ::testing::TestParamInfo<std::vector<std::string>>& assumption) {
                           return assumption.param.empty() ? std::string("Defaults") : std::string("LinearClocks");
                         });

INSTANTIATE_TEST_SUITE_P(
    Experiments, SimulatedExactTest,
    ::testing::Values(
        Simulated{"pair_linear", {"--hosts", "2", "--topology", "pairs", "--duration", "60s"}},
        Simulated{"chain5_steps", {"--hosts", "5", "--topology", "chain", "--clock-model", "steps", "--duration", "5min", "--seed", "3"}},
        Simulated{"star6_slews", {"--hosts", "6", "--topology", "star", "--clock-model", "slews", "--duration", "5min", "--seed", "4"}},
        Simulated{"random8_combined", {"--hosts", "8", "--topology", "random", "--clock-model", "combined", "--duration", "5min", "--seed", "5"}},
        Simulated{"chain4_wander", {"--hosts", "4", "--topology", "chain", "--clock-model", "wander", "--duration", "5min", "--seed", "6"}},
        // One segment whose clocks bend: its map from the local bands.
        Simulated{"pair_wander_one_segment", {"--hosts", "2", "--topology", "pairs", "--clock-model", "wander", "--duration", "3min",
                                              "--wander-period", "3min", "--wander-amplitude", "1", "--rate", "200", "--seed", "1"}},
        Simulated{"fattree16_linear", {"--hosts", "16", "--topology", "fat-tree", "--duration", "30s", "--seed", "7", "--rate", "50"}}),
    [](const ::testing::TestParamInfo<Simulated>& param_info) { return param_info.param.name; });

}  // namespace
}  // namespace tracesync
