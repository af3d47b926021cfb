// SPDX-License-Identifier: EPL-2.0
// `tracesync apply` end to end: the copies babeltrace2 reads are the same
// events at transform(original time), synchronizing them again gives the
// identity, tree links are causal in them, the inputs are untouched, and a
// failed or interrupted apply leaves nothing.

#include <gtest/gtest.h>
#include <sys/mount.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <tuple>
#include <nlohmann/json.hpp>

#include "apply/trace_events.h"
#include "model/linear_transform.h"
#include "model/quad.h"
#include "snapshot/tracesync.pb.h"
#include "support/run_command.h"

namespace tracesync {
namespace {

using nlohmann::json;
using testing::run_command;
using testing::tracesync_binary;
namespace fs = std::filesystem;

// babeltrace2 turns cycles into ns with a truncating conversion, once for
// the clock's offset and once for the value: up to 2 ns.
constexpr double kReaderNs = 2;

const fs::path kShared = TRACESYNC_SHARED_DIR;

model::Quad decimal(const std::string& text) { return *model::parse_decimal(text); }

// Every file under `root`, with its content: to show inputs untouched.
std::map<std::string, std::string> contents(const fs::path& root) {
  std::map<std::string, std::string> out;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_regular_file()) out[entry.path().string()] = testing::read_file(entry.path().string());
  }
  return out;
}

v1::Snapshot sync_snapshot(const std::vector<std::string>& paths, const std::vector<std::string>& options = {}) {
  std::vector<std::string> args = {"sync", "--format", "protobuf"};
  args.insert(args.end(), options.begin(), options.end());
  args.insert(args.end(), paths.begin(), paths.end());
  const auto r = run_command(tracesync_binary(), args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  v1::Snapshot snapshot;
  EXPECT_TRUE(snapshot.ParseFromString(r.out));
  return snapshot;
}

// A simulated experiment of `hosts` hosts in `directory`: simulate's exit code.
int simulate(const std::string& directory, int hosts, const std::string& duration) {
  return run_command(tracesync_binary(), {"simulate", "--quiet", "--output", directory, "--hosts", std::to_string(hosts),
                                          "--duration", duration})
      .exit_code;
}

json apply(const std::vector<std::string>& paths, const std::string& output, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"apply", "--format", "json", "--output", output};
  args.insert(args.end(), extra.begin(), extra.end());
  args.insert(args.end(), paths.begin(), paths.end());
  const auto r = run_command(tracesync_binary(), args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out.empty() ? json() : json::parse(r.out);
}

// Messages of a link whose receive comes before its send on the copies'
// (or the inputs') clocks, among its hull vertices: where (on a's clock)
// and by how much. The hulls bound every message, so none among them means
// none at all.
std::vector<std::pair<int64_t, int64_t>> non_causal_messages(const v1::Link& link) {
  v1::LinkDetail detail;
  detail.ParseFromString(link.detail());
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const v1::Point& p : detail.lower_hull_points()) {  // a sends at x, b receives at y
    if (p.y() < p.x()) out.emplace_back(p.x(), p.x() - p.y());
  }
  for (const v1::Point& p : detail.upper_hull_points()) {  // b sends at y, a receives at x
    if (p.y() > p.x()) out.emplace_back(p.x(), p.y() - p.x());
  }
  return out;
}

// The first and last hull message of a link, on a's clock: where its
// messages are.
std::vector<int64_t> message_span(const v1::Link& link) {
  v1::LinkDetail detail;
  detail.ParseFromString(link.detail());
  std::vector<int64_t> xs;
  for (const v1::Point& p : detail.lower_hull_points()) xs.push_back(p.x());
  for (const v1::Point& p : detail.upper_hull_points()) xs.push_back(p.x());
  if (xs.empty()) return {};
  return {*std::min_element(xs.begin(), xs.end()), *std::max_element(xs.begin(), xs.end())};
}

// The whole check of one apply: `inputs` synchronized into `output`.
void expect_synchronized_copies(const std::vector<std::string>& inputs, const std::string& output,
                                bool expect_links, const std::string& method = "clock-only") {
  const auto before = contents(inputs.front());
  const v1::Snapshot original = sync_snapshot(inputs);
  const json report = apply(inputs, output, method == "full-rewrite" ? std::vector<std::string>{"--rewrite"}
                                                                     : std::vector<std::string>{});
  ASSERT_TRUE(report.is_object());
  EXPECT_EQ(report["traces"].size(), static_cast<std::size_t>(original.traces_size()));
  EXPECT_EQ(contents(inputs.front()), before) << "an input changed";

  const json manifest = json::parse(testing::read_file(output + "/tracesync-manifest.json"));
  EXPECT_EQ(manifest["format"], "tracesync-manifest/1");
  ASSERT_EQ(manifest["traces"].size(), static_cast<std::size_t>(original.traces_size()));
  std::vector<std::string> copies;
  for (std::size_t i = 0; i < manifest["traces"].size(); ++i) {
    const json& m = manifest["traces"][i];
    const v1::Trace& trace = original.traces(static_cast<int>(i));
    SCOPED_TRACE(trace.name());
    ASSERT_EQ(m["method"], method) << m.dump(2);
    EXPECT_EQ(m["output"], trace.name());
    EXPECT_EQ(m["input"], trace.path());
    EXPECT_EQ(m["domain"], trace.domain());
    const double rounding = m["bound_ns"]["method"];
    EXPECT_LE(rounding, 5.0) << "the integer clock frequency costs more than expected";
    EXPECT_DOUBLE_EQ(m["bound_ns"]["total"].get<double>(),
                     m["bound_ns"]["synchronization"].get<double>() + rounding);
    const model::LinearTransform line{decimal(trace.slope().exact()), decimal(trace.offset().exact())};
    const std::string copy = output + "/" + trace.name();
    copies.push_back(copy);

    // The same events, stream by stream, every field equal, each at
    // transform(original time).
    const auto in = apply::testing::read_trace_events(trace.path());
    const auto out = apply::testing::read_trace_events(copy);
    ASSERT_EQ(in.error, "");
    ASSERT_EQ(out.error, "");
    ASSERT_EQ(out.count(), in.count());
    EXPECT_EQ(out.count(), trace.events());
    double worst = 0;
    for (const auto& [stream, events] : in.streams) {
      const auto& moved = out.streams.at(stream);
      ASSERT_EQ(moved.size(), events.size());
      for (std::size_t e = 0; e < events.size(); ++e) {
        ASSERT_EQ(moved[e].name, events[e].name);
        ASSERT_EQ(moved[e].fields, events[e].fields) << "event " << e << " of stream " << stream;
        const double error = model::to_double(model::abs(static_cast<model::Quad>(moved[e].ns_from_origin) -
                                                         line.apply(events[e].ns_from_origin)));
        worst = std::max(worst, error);
      }
    }
    EXPECT_LE(worst, kReaderNs + rounding);
    std::cout << "[ apply    ] " << method << " " << trace.name() << ": " << in.count() << " events, worst |copy - transform| "
              << worst << " ns (rounding " << rounding << " ns)" << std::endl;
    // Stream files are hard links where the file systems allow.
    if (fs::exists(copy + "/index") && fs::exists(trace.path() + "/index")) {
      EXPECT_TRUE(fs::exists(copy + "/index")) << "index files are kept";
    }
  }
  if (!expect_links) return;

  // Synchronizing the copies again: the identity, and causal tree links.
  // Were the copies' times exactly transform(t), the estimate would be the
  // identity exactly (the hull midpoint follows any affine change of either
  // clock). Each copied time is off by up to the reader's 2 ns plus the
  // rounding: where the messages are (the first and last on a hull), the
  // identity holds within twice that;
  // beyond them, the slope's share grows, and the identity must stay within
  // the re-synchronization's own bound.
  const v1::Snapshot again = sync_snapshot(copies);
  ASSERT_EQ(again.traces_size(), original.traces_size());
  std::map<std::string, std::string> hostname;
  double worst_rounding = 0;
  for (const json& m : manifest["traces"]) worst_rounding = std::max(worst_rounding, m["bound_ns"]["method"].get<double>());
  for (const v1::Trace& t : again.traces()) {
    hostname[t.domain()] = t.hostname();
    const model::LinearTransform line{decimal(t.slope().exact()), decimal(t.offset().exact())};
    for (const int64_t at : {t.first_ns(), t.last_ns()}) {
      const double moved = model::to_double(line.apply(at) - static_cast<model::Quad>(at));
      EXPECT_LE(std::abs(moved), t.uncertainty_ns() + kReaderNs + worst_rounding) << t.name() << " at " << at;
      std::cout << "[ apply    ] again: " << t.name() << " moves by " << moved << " ns at its end " << at
                << " (bound " << t.uncertainty_ns() << " ns)" << std::endl;
    }
  }
  ASSERT_EQ(again.links_size(), original.links_size());
  for (int i = 0; i < original.links_size(); ++i) {
    const v1::Link& was = original.links(i);
    const v1::Link& now = again.links(i);
    const std::string name = hostname[was.a()] + " - " + hostname[was.b()];
    EXPECT_EQ(now.messages(), was.messages()) << name;
    const model::LinearTransform estimate{decimal(now.alpha().exact()), decimal(now.beta().exact())};
    for (const int64_t at : message_span(now)) {
      const double moved = model::to_double(estimate.apply(at) - static_cast<model::Quad>(at));
      EXPECT_LE(std::abs(moved), 2 * (kReaderNs + worst_rounding)) << name << " at " << at;
      std::cout << "[ apply    ] again: link " << name << " is the identity within " << moved << " ns at " << at
                << std::endl;
    }
    std::cout << "[ apply    ] link " << name << (was.in_tree() ? " (tree)" : "") << ": " << was.messages()
              << " messages; non-causal hull messages " << non_causal_messages(was).size() << " in the inputs, "
              << non_causal_messages(now).size() << " in the copies" << std::endl;
    if (was.in_tree() && was.quality() == v1::ACCURATE) {
      EXPECT_EQ(non_causal_messages(now).size(), 0u);
    }
  }
}

TEST(Apply, SimulatedExperiment) {
  testing::TempDir dir;
  const auto r = run_command(tracesync_binary(), {"simulate", "--quiet", "--output", dir.file("in"), "--hosts", "4",
                                                  "--topology", "chain", "--duration", "3s", "--seed", "7"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_synchronized_copies({dir.file("in")}, dir.file("out"), true);
  // Same file system: every stream file is a hard link to the input's.
  const json manifest = json::parse(testing::read_file(dir.file("out/tracesync-manifest.json")));
  for (const json& m : manifest["traces"]) {
    const fs::path input = m["input"].get<std::string>();
    for (const auto& entry : fs::directory_iterator(input)) {
      if (entry.path().filename() == "metadata" || !entry.is_regular_file()) continue;
      EXPECT_TRUE(fs::equivalent(entry.path(), fs::path(dir.file("out")) / m["output"].get<std::string>() / entry.path().filename()))
          << entry.path();
    }
  }
}

TEST(Apply, Lttng21FixturesClockOnly) {
  const fs::path fixtures = kShared / "fixtures/lttng-modules-2.1-addons";
  if (!fs::exists(fixtures)) GTEST_SKIP() << "shared fixtures absent: " << fixtures;
  testing::TempDir dir;
  expect_synchronized_copies({fixtures.string()}, dir.file("out"), true);
}

TEST(Apply, DjangoVoteThreeRealHosts) {
  const fs::path fixtures = kShared / "fixtures/lttng-modules-2.4-addons/django-vote-v2";
  if (!fs::exists(fixtures)) GTEST_SKIP() << "shared fixtures absent: " << fixtures;
  testing::TempDir dir;
  expect_synchronized_copies({fixtures.string()}, dir.file("out"), true);
  // The environment is kept: Trace Compass still sees an LTTng kernel trace.
  const std::string metadata = testing::read_file(dir.file("out/django-vote-v2/django-db.phd.vm/kernel/metadata"));
  EXPECT_TRUE(metadata.starts_with("/* CTF 1.8 */"));
  EXPECT_NE(metadata.find("domain = \"kernel\""), std::string::npos);
  EXPECT_NE(metadata.find("tracer_name = \"lttng-modules\""), std::string::npos);
  EXPECT_NE(metadata.find("hostname = \"django-db\""), std::string::npos);
  EXPECT_TRUE(fs::exists(dir.file("out/django-vote-v2/django-db.phd.vm/kernel/index/k_0.idx")));
}

// Method 2: every timestamp rewritten, src.ctf.fs reading without the muxer
// (so the LTTng 2.1 traces whose packet beginnings step back go through
// too) and tracesync's CTF writer writing.
TEST(Apply, FullRewriteOfSimulatedAndRealTraces) {
  testing::TempDir dir;
  const auto r = run_command(tracesync_binary(), {"simulate", "--quiet", "--output", dir.file("in"), "--hosts", "3",
                                                  "--topology", "chain", "--duration", "2s", "--seed", "11"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_synchronized_copies({dir.file("in")}, dir.file("out"), true, "full-rewrite");
  for (const char* fixture : {"fixtures/lttng-modules-2.1-addons", "fixtures/lttng-modules-2.4-addons/django-vote-v1"}) {
    if (!fs::exists(kShared / fixture)) {
      std::cout << "[ apply    ] shared fixture absent, not rewritten: " << fixture << std::endl;
      continue;
    }
    SCOPED_TRACE(fixture);
    expect_synchronized_copies({(kShared / fixture).string()}, dir.file(fs::path(fixture).filename().string()), true,
                               "full-rewrite");
  }
}

// What babeltrace 1.5 (the `babeltrace` command: a CTF reader written apart
// from babeltrace2's src.ctf.fs) shows of a trace: each event's time in ns
// and the rest of its line (host, event name, contexts, fields).
struct ReaderLine {
  int64_t ns;
  std::string rest;
  bool operator<(const ReaderLine& o) const { return std::tie(rest, ns) < std::tie(o.rest, o.ns); }
};

const char* const kBabeltrace1 = "/usr/bin/babeltrace";

std::vector<ReaderLine> babeltrace1_lines(const std::string& trace) {
  const auto r = run_command(kBabeltrace1, {"--clock-seconds", "--no-delta", trace});
  EXPECT_EQ(r.exit_code, 0) << trace << ": " << r.err;
  std::vector<ReaderLine> lines;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    // "[1400000000.000001000] host event: { ... }"
    const std::size_t dot = line.find('.');
    const std::size_t close = line.find("] ");
    if (line.empty() || line[0] != '[' || dot == std::string::npos || close == std::string::npos || dot > close) {
      ADD_FAILURE() << trace << ": an unexpected line from babeltrace: " << line;
      continue;
    }
    const int64_t seconds = std::stoll(line.substr(1, dot - 1));
    const int64_t nanoseconds = std::stoll(line.substr(dot + 1, close - dot - 1));
    lines.push_back({seconds * 1'000'000'000 + nanoseconds, line.substr(close + 2)});
  }
  return lines;
}

// The full rewrite's copies are written by tracesync's own CTF writer, and
// the other tests read them with babeltrace2, whose src.ctf.fs also read
// the originals. A second reader, written apart from it (as Trace Compass's
// own CTF parser is), must read them too: the same events with the same
// text, each at transform(original time).
TEST(Apply, AnIndependentCtfReaderReadsTheRewrittenCopies) {
  if (access(kBabeltrace1, X_OK) != 0) {
    GTEST_SKIP() << "no " << kBabeltrace1 << " (Debian package babeltrace, the CTF reader 1.5)";
  }
  testing::TempDir dir;
  ASSERT_EQ(simulate(dir.file("in"), 3, "2s"), 0);
  std::vector<std::string> experiments = {dir.file("in")};
  for (const char* fixture : {"fixtures/lttng-modules-2.1-addons", "fixtures/lttng-modules-2.4-addons/django-vote-v1"}) {
    if (fs::exists(kShared / fixture)) {
      experiments.push_back((kShared / fixture).string());
    } else {
      std::cout << "[ apply    ] shared fixture absent, not read with babeltrace 1.5: " << fixture << std::endl;
    }
  }
  for (std::size_t x = 0; x < experiments.size(); ++x) {
    SCOPED_TRACE(experiments[x]);
    const std::string output = dir.file("out" + std::to_string(x));
    const v1::Snapshot snapshot = sync_snapshot({experiments[x]});
    apply({experiments[x]}, output, {"--rewrite"});
    const json manifest = json::parse(testing::read_file(output + "/tracesync-manifest.json"));
    ASSERT_EQ(manifest["traces"].size(), static_cast<std::size_t>(snapshot.traces_size()));
    for (int i = 0; i < snapshot.traces_size(); ++i) {
      const v1::Trace& trace = snapshot.traces(i);
      SCOPED_TRACE(trace.name());
      std::vector<ReaderLine> in = babeltrace1_lines(trace.path());
      std::vector<ReaderLine> out = babeltrace1_lines(output + "/" + trace.name());
      ASSERT_EQ(out.size(), in.size());
      EXPECT_EQ(out.size(), trace.events());
      // A monotonic transform keeps the order of equal lines: sorted by
      // (text, time), the k-th of each text pairs with the k-th.
      std::sort(in.begin(), in.end());
      std::sort(out.begin(), out.end());
      const model::LinearTransform line{decimal(trace.slope().exact()), decimal(trace.offset().exact())};
      const double rounding = manifest["traces"][i]["bound_ns"]["method"];
      double worst = 0;
      for (std::size_t e = 0; e < in.size(); ++e) {
        ASSERT_EQ(out[e].rest, in[e].rest);
        worst = std::max(worst, model::to_double(model::abs(static_cast<model::Quad>(out[e].ns) - line.apply(in[e].ns))));
      }
      EXPECT_LE(worst, kReaderNs + rounding);
      std::cout << "[ apply    ] babeltrace 1.5 reads the rewritten " << trace.name() << ": " << in.size()
                << " events, the same text; worst |copy - transform| " << worst << " ns (rounding " << rounding
                << " ns)" << std::endl;
    }
  }
}

// One piece of a manifest's transform: t_ref = slope * t + offset over
// [first_ns, last_ns] of the trace's own clock.
struct ManifestPiece {
  int64_t first_ns;
  int64_t last_ns;
  model::LinearTransform line;
  double bound_ns;  // the larger of its two ends
};

std::vector<ManifestPiece> manifest_pieces(const json& trace) {
  std::vector<ManifestPiece> pieces;
  for (const json& p : trace["transform"]) {
    pieces.push_back({p["first_ns"], p["last_ns"], {decimal(p["slope"]), decimal(p["offset"])},
                      std::max(p["uncertainty_first_ns"].get<double>(), p["uncertainty_last_ns"].get<double>())});
  }
  return pieces;
}

model::Quad through(const std::vector<ManifestPiece>& pieces, int64_t t) {
  auto piece = std::upper_bound(pieces.begin(), pieces.end(), t,
                                [](int64_t x, const ManifestPiece& p) { return x < p.first_ns; });
  if (piece != pieces.begin()) --piece;
  return piece->line.apply(t);
}

// Clocks that change rate, as the piecewise model's truth tests generate
// them: apply rewrites a trace of several pieces in full, through each
// piece, and the copies' messages are causal except right at the joins
// between pieces, where neighbouring segments' lines disagree and the map
// must stay increasing (docs/clock-model.md, "The clock map").
TEST(Apply, ClocksThatChangeRateAreRewrittenPieceByPiece) {
  testing::TempDir dir;
  const std::vector<std::pair<std::string, std::vector<std::string>>> models = {
      {"steps", {"--step-interval", "1min", "--step-size", "50"}},
      {"slews", {}},
      {"wander", {}},
      {"combined", {}},
  };
  std::size_t traces_in_pieces = 0;
  for (const auto& [model, parameters] : models) {
    SCOPED_TRACE(model);
    const std::string in = dir.file(model);
    const std::string out = dir.file(model + "-synced");
    std::vector<std::string> arguments = {"simulate", "--quiet", "--output", in, "--hosts", "2", "--topology", "pairs",
                                          "--duration", "4min", "--cpus", "2", "--rate", "20", "--seed", "1", "--clock-model", model};
    arguments.insert(arguments.end(), parameters.begin(), parameters.end());
    const auto simulated = run_command(tracesync_binary(), arguments);
    ASSERT_EQ(simulated.exit_code, 0) << simulated.err;
    apply({in}, out);
    const json manifest = json::parse(testing::read_file(out + "/tracesync-manifest.json"));
    std::vector<int64_t> joins;  // on the common time base
    double largest_bound = 0;
    for (const json& trace : manifest["traces"]) {
      const std::vector<ManifestPiece> pieces = manifest_pieces(trace);
      ASSERT_FALSE(pieces.empty());
      if (pieces.size() == 1) continue;
      EXPECT_EQ(trace["method"], "full-rewrite") << trace.dump(2);
      ++traces_in_pieces;
      for (std::size_t i = 1; i < pieces.size(); ++i) {
        joins.push_back(static_cast<int64_t>(model::to_double(pieces[i].line.apply(pieces[i].first_ns))));
      }
      for (const ManifestPiece& p : pieces) largest_bound = std::max(largest_bound, p.bound_ns);
      // The same events, every field equal, each at the piecewise
      // transform of its original time.
      const auto original = apply::testing::read_trace_events(trace["input"]);
      const auto copy = apply::testing::read_trace_events(out + "/" + trace["output"].get<std::string>());
      ASSERT_EQ(original.error, "");
      ASSERT_EQ(copy.error, "");
      ASSERT_EQ(copy.count(), original.count());
      const double rounding = trace["bound_ns"]["method"];
      double worst = 0;
      for (const auto& [stream, events] : original.streams) {
        const auto& moved = copy.streams.at(stream);
        ASSERT_EQ(moved.size(), events.size());
        for (std::size_t e = 0; e < events.size(); ++e) {
          ASSERT_EQ(moved[e].fields, events[e].fields) << "event " << e << " of stream " << stream;
          const model::Quad expected = through(pieces, events[e].ns_from_origin);
          worst = std::max(worst, model::to_double(model::abs(static_cast<model::Quad>(moved[e].ns_from_origin) - expected)));
        }
      }
      EXPECT_LE(worst, kReaderNs + rounding);
      std::cout << "[ apply    ] " << model << ": " << trace["output"].get<std::string>() << " in " << pieces.size()
                << " pieces, " << original.count() << " events, worst |copy - transform| " << worst << " ns" << std::endl;
    }
    // Causal away from the joins: a message still received before it was
    // sent lies within twice the largest bound of a join (the map leaves
    // the segments' lines only there, and by less than the bound).
    const v1::Snapshot before = sync_snapshot({in}, {"--clock-model", "linear"});
    const v1::Snapshot after = sync_snapshot({out + "/" + model}, {"--clock-model", "linear"});
    ASSERT_EQ(after.links_size(), before.links_size());
    for (int l = 0; l < after.links_size(); ++l) {
      const auto wrong = non_causal_messages(after.links(l));
      for (const auto& [at, by] : wrong) {
        const int64_t x = at;  // clang 14 lambdas cannot capture structured bindings
        const bool near_a_join = std::any_of(joins.begin(), joins.end(), [&](int64_t join) {
          return std::abs(static_cast<double>(x - join)) <= 2 * largest_bound;
        });
        EXPECT_TRUE(near_a_join) << "received " << by << " ns before it was sent, at " << at << ", far from any join";
        EXPECT_LE(static_cast<double>(by), largest_bound);
      }
      std::cout << "[ apply    ] " << model << ": non-causal hull messages " << non_causal_messages(before.links(l)).size()
                << " in the inputs, " << wrong.size() << " in the copies (all within " << 2 * largest_bound
                << " ns of one of " << joins.size() << " joins)" << std::endl;
    }
  }
  EXPECT_GT(traces_in_pieces, 0u) << "no clock model gave a transform of several pieces: the case under test did not occur";
}

TEST(Apply, RefusesUnsafeOutputs) {
  testing::TempDir dir;
  ASSERT_EQ(simulate(dir.file("in"), 2, "1s"), 0);
  fs::create_directories(dir.file("full"));
  testing::write_file(dir.file("full/keep"), "keep");
  struct Case {
    std::string output;
    std::string error;
  };
  const Case cases[] = {
      {dir.file("in"), "is inside the input"},
      {dir.file("in/host0"), "is inside the input"},
      {dir.path(), "holds the input"},
      {dir.file("full"), "is not empty (give --force to replace it)"},
      {"/proc/tracesync-out", "cannot write --output /proc/tracesync-out"},
  };
  const auto before = contents(dir.file("in"));
  for (const Case& c : cases) {
    const auto r = run_command(tracesync_binary(), {"apply", "--output", c.output, dir.file("in")});
    EXPECT_EQ(r.exit_code, 2) << c.output;
    EXPECT_NE(r.err.find(c.error), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "") << "refused before synchronizing";
  }
  EXPECT_EQ(testing::read_file(dir.file("full/keep")), "keep");
  EXPECT_EQ(contents(dir.file("in")), before);
  const auto no_output = run_command(tracesync_binary(), {"apply", dir.file("in")});
  EXPECT_EQ(no_output.exit_code, 2);
  EXPECT_NE(no_output.err.find("--output DIR"), std::string::npos) << no_output.err;
  // --force replaces a full directory with the copies.
  const auto forced = run_command(tracesync_binary(), {"apply", "--force", "--output", dir.file("full"), dir.file("in")});
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_FALSE(fs::exists(dir.file("full/keep")));
  EXPECT_TRUE(fs::exists(dir.file("full/tracesync-manifest.json")));
}

// Exit 3 as for sync: the trace that could not be read gets no copy, and
// the manifest says why; the others are copied.
TEST(Apply, ASkippedTraceGetsNoCopyAndTheManifestSaysWhy) {
  testing::TempDir dir;
  ASSERT_EQ(simulate(dir.file("in"), 2, "1s"), 0);
  fs::create_directories(dir.file("in/broken/kernel"));
  testing::write_file(dir.file("in/broken/kernel/metadata"), "this is not CTF");
  testing::write_file(dir.file("in/broken/kernel/channel0_0"), "junk");
  const auto r = run_command(tracesync_binary(), {"apply", "--output", dir.file("out"), dir.file("in")});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  const json manifest = json::parse(testing::read_file(dir.file("out/tracesync-manifest.json")));
  ASSERT_EQ(manifest["problems"].size(), 1u);
  EXPECT_EQ(manifest["problems"][0]["input"], dir.file("in/broken/kernel"));
  EXPECT_TRUE(manifest["problems"][0]["skipped"]);
  EXPECT_NE(manifest["problems"][0]["reason"].get<std::string>().find("not CTF metadata"), std::string::npos);
  EXPECT_EQ(manifest["traces"].size(), 2u);
  EXPECT_FALSE(fs::exists(dir.file("out/in/broken")));
  EXPECT_TRUE(fs::exists(dir.file("out/in/host0/kernel/metadata")));
}

// Leftovers of a failed apply: anything beside the output but the inputs.
std::vector<std::string> entries(const std::string& directory) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(directory)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(Apply, AFullDiskLeavesNothing) {
  testing::TempDir dir;
  ASSERT_EQ(simulate(dir.file("in"), 2, "2s"), 0);
  fs::create_directories(dir.file("small"));
  if (::geteuid() != 0 || ::mount("tracesync-test", dir.file("small").c_str(), "tmpfs", 0, "size=64k") != 0) {
    GTEST_SKIP() << "cannot mount a small tmpfs here (needs root): the full disk is not tested";
  }
  const auto r = run_command(tracesync_binary(), {"apply", "--output", dir.file("small/out"), dir.file("in")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(dir.file("small/out") + " was not written"), std::string::npos) << r.err;
  EXPECT_TRUE(entries(dir.file("small")).empty()) << "left behind: " << entries(dir.file("small")).front();
  ::umount(dir.file("small").c_str());
}

// A whole output: its manifest, and every copy it lists.
void expect_whole(const std::string& out, const std::string& when) {
  ASSERT_TRUE(fs::exists(out + "/tracesync-manifest.json")) << "half-written " << when;
  const json manifest = json::parse(testing::read_file(out + "/tracesync-manifest.json"));
  for (const json& m : manifest["traces"]) {
    EXPECT_TRUE(fs::exists(out + "/" + m["output"].get<std::string>() + "/metadata")) << "half-written " << when;
  }
}

// Killed outright at any moment: the output is absent or whole, never half
// written; only a hidden staging directory can be left beside it.
TEST(Apply, AKilledApplyLeavesNoHalfWrittenOutput) {
  testing::TempDir dir;
  ASSERT_EQ(simulate(dir.file("in"), 3, "2s"), 0);
  int whole = 0;
  int absent = 0;
  for (int ms : {5, 20, 50, 100, 200, 400, 800}) {
    const std::string out = dir.file("out" + std::to_string(ms));
    const auto r = testing::run_command_with_signals(tracesync_binary(), {"apply", "--output", out, dir.file("in")},
                                                     {{std::chrono::milliseconds(ms), SIGKILL}});
    if (!fs::exists(out)) {
      ++absent;
      continue;
    }
    ++whole;
    expect_whole(out, "after " + std::to_string(ms) + " ms");
  }
  std::cout << "[ apply    ] killed: " << absent << " outputs absent, " << whole << " whole" << std::endl;
  // Ctrl-C while reading or while rewriting: 130 and no output, or (too
  // late) a whole one.
  for (int ms : {30, 300, 1000, 2000}) {
    const std::string out = dir.file("int" + std::to_string(ms));
    const auto r = testing::run_command_with_signals(tracesync_binary(), {"apply", "--rewrite", "--output", out, dir.file("in")},
                                                     {{std::chrono::milliseconds(ms), SIGINT}});
    std::cout << "[ apply    ] Ctrl-C after " << ms << " ms: exit " << r.exit_code << std::endl;
    if (r.exit_code == 130) {
      EXPECT_FALSE(fs::exists(out));
    } else {
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_TRUE(fs::exists(out + "/tracesync-manifest.json"));
    }
  }
  for (const std::string& name : entries(dir.path())) {
    EXPECT_TRUE(name == "in" || name.starts_with("out") || name.starts_with("int") || name.starts_with(".out"))
        << "unexpected " << name;
  }
}

// The same, killed exactly at each step that changes the file system (strace
// injects SIGKILL into the Nth call of a system call), where a timed kill
// only rarely lands: between making and removing the writability probe,
// say. What is left beside the output is only the hidden `.NAME.tracesync-*`
// directory the documentation names.
TEST(Apply, KilledAtEachFileSystemStepLeavesOnlyTheHiddenStagingDirectory) {
  if (!fs::exists("/usr/bin/strace")) GTEST_SKIP() << "strace is not installed: the kill at each step is not tested";
  testing::TempDir dir;
  ASSERT_EQ(simulate(dir.file("in"), 2, "1s"), 0);
  int killed = 0;
  std::set<std::string> outputs;
  for (const std::string syscall : {"mkdir", "rmdir", "rename", "link", "fsync"}) {
    for (int nth = 1; nth <= 3; ++nth) {
      outputs.insert(syscall + std::to_string(nth));
      const std::string out = dir.file(syscall + std::to_string(nth));
      const auto r = run_command("/usr/bin/strace", {"-qq", "-o", "/dev/null", "-e", "trace=" + syscall, "-e",
                                                     "inject=" + syscall + ":signal=KILL:when=" + std::to_string(nth),
                                                     tracesync_binary(), "apply", "--output", out, dir.file("in")});
      if (r.err.find("ptrace") != std::string::npos) GTEST_SKIP() << "strace cannot trace here: " << r.err;
      if (r.exit_code == 0) continue;  // fewer than nth such calls
      ++killed;
      EXPECT_EQ(r.exit_code, 128 + SIGKILL) << syscall << " #" << nth << ": " << r.err;
      if (fs::exists(out)) expect_whole(out, "when killed at " + syscall + " #" + std::to_string(nth));
    }
  }
  std::cout << "[ apply    ] killed at " << killed << " file-system steps" << std::endl;
  EXPECT_GE(killed, 9) << "apply makes and renames directories: some kills must have landed";
  for (const std::string& name : entries(dir.path())) {
    if (name == "in" || outputs.count(name)) continue;
    // `.OUTPUT.tracesync-XXXXXX`
    const std::size_t mark = name.find(".tracesync-");
    EXPECT_TRUE(name.starts_with(".") && mark != std::string::npos && outputs.count(name.substr(1, mark - 1)) &&
                name.size() == mark + std::string(".tracesync-XXXXXX").size())
        << "left behind: " << name;
  }
}

}  // namespace
}  // namespace tracesync
