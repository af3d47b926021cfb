// SPDX-License-Identifier: EPL-2.0
// `tracesync extract` and syncing from extracts, end to end (issue 31): the
// report from extracts is the report from the traces, byte for byte, on
// every real fixture and on simulated experiments, however the traces are
// split between extracts and traces and in whatever order they are given;
// a damaged extract costs its own traces only.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>

#include "support/run_command.h"

namespace tracesync {
namespace {

using nlohmann::json;
using testing::CommandResult;
using testing::run_command;
using testing::tracesync_binary;
namespace fs = std::filesystem;

std::vector<std::string> joined(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// Extracts `paths` into `file`; fails the test unless it exits `expected`.
void extract(const std::vector<std::string>& paths, const std::string& file, int expected = 0) {
  const CommandResult r = run_command(tracesync_binary(), joined(joined({"extract"}, paths), {"-o", file}));
  ASSERT_EQ(r.exit_code, expected) << r.err;
  ASSERT_TRUE(fs::is_regular_file(file));
}

CommandResult sync(const std::vector<std::string>& inputs, const std::vector<std::string>& options) {
  return run_command(tracesync_binary(), joined(joined({"sync"}, options), inputs));
}

// The same report, byte for byte, and the same exit code.
void expect_same_report(const std::vector<std::string>& traces, const std::vector<std::string>& extracts,
                        const std::vector<std::string>& options, const std::string& what) {
  const CommandResult want = sync(traces, options);
  const CommandResult got = sync(extracts, options);
  EXPECT_EQ(got.exit_code, want.exit_code) << what << "\n" << got.err;
  EXPECT_EQ(got.out, want.out) << what;
  EXPECT_FALSE(want.out.empty()) << what;
}

std::vector<std::string> subdirectories(const std::string& root) {
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(root)) {
    if (entry.is_directory()) out.push_back(entry.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

const std::vector<std::vector<std::string>> kOptionSets = {
    {"--format", "json"},
    {"--format", "text"},
    {"--format", "json", "--match-key", "strict", "--clock-model", "linear", "--jobs", "1"},
};

std::string fixtures_dir() { return std::string(TRACESYNC_SHARED_DIR) + "/fixtures"; }

// Every fixture set: one extract of the whole set; one extract per part of
// it (its subdirectories) given in reverse order; and half of them as
// traces, the rest as extracts.
TEST(CliExtract, EveryRealFixtureGivesTheSameReport) {
  if (!fs::exists(fixtures_dir())) GTEST_SKIP() << "shared fixtures absent: " << fixtures_dir();
  testing::TempDir dir;
  std::size_t sets = 0;
  for (const std::string& root : subdirectories(fixtures_dir())) {
    ++sets;
    const std::string whole = dir.file(fs::path(root).filename().string() + ".tsx");
    extract({root}, whole);
    const std::vector<std::string> parts = subdirectories(root);
    std::vector<std::string> part_extracts;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      part_extracts.push_back(dir.file(fs::path(root).filename().string() + "-" + std::to_string(i) + ".tsx"));
      extract({parts[i]}, part_extracts.back());
    }
    std::vector<std::string> reversed(part_extracts.rbegin(), part_extracts.rend());
    std::vector<std::string> mixed;
    for (std::size_t i = 0; i < parts.size(); ++i) mixed.push_back(i % 2 == 0 ? parts[i] : part_extracts[i]);
    for (const auto& options : kOptionSets) {
      expect_same_report({root}, {whole}, options, root + " as one extract");
      expect_same_report(parts, reversed, options, root + " as one extract per part");
      expect_same_report(parts, mixed, options, root + " as traces and extracts");
    }
    // A few percent of the trace at most (the fixtures' kernel traces hold
    // few network events among many others).
    uint64_t trace_bytes = 0;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
      if (entry.is_regular_file()) trace_bytes += entry.file_size();
    }
    EXPECT_LT(fs::file_size(whole) * 20, trace_bytes) << root;
  }
  EXPECT_GT(sets, 0u);
}

// A simulated experiment split at random into extracts of one to three
// hosts each, the rest given as traces, in a shuffled order; --domain
// applies to a trace read from an extract as to the trace.
TEST(CliExtract, SimulatedExperimentAnySplitGivesTheSameReport) {
  testing::TempDir dir;
  const CommandResult simulated = run_command(
      tracesync_binary(), {"simulate", "--quiet", "--output", dir.file("sim"), "--hosts", "6", "--topology", "random",
                           "--duration", "3s", "--seed", "7", "--clock-model", "steps"});
  ASSERT_EQ(simulated.exit_code, 0) << simulated.err;
  const std::vector<std::string> hosts = subdirectories(dir.file("sim"));
  ASSERT_EQ(hosts.size(), 6u);
  std::mt19937 random(31);
  for (int split = 0; split < 4; ++split) {
    std::vector<std::string> order = hosts;
    std::shuffle(order.begin(), order.end(), random);
    std::vector<std::string> inputs;
    for (std::size_t i = 0; i < order.size();) {
      const std::size_t take = std::min<std::size_t>(order.size() - i, 1 + random() % 3);
      if (random() % 4 == 0) {  // as traces
        inputs.insert(inputs.end(), order.begin() + static_cast<long>(i), order.begin() + static_cast<long>(i + take));
      } else {
        const std::string file = dir.file("split" + std::to_string(split) + "-" + std::to_string(i) + ".tsx");
        extract(std::vector<std::string>(order.begin() + static_cast<long>(i), order.begin() + static_cast<long>(i + take)),
                file);
        inputs.push_back(file);
      }
      i += take;
    }
    std::shuffle(inputs.begin(), inputs.end(), random);
    for (const auto& options : kOptionSets) {
      expect_same_report(hosts, inputs, options, "split " + std::to_string(split));
    }
    expect_same_report(hosts, inputs, {"--format", "json", "--domain", hosts[0] + "=shared", "--domain",
                                       hosts[1] + "=shared"},
                       "split " + std::to_string(split) + " with --domain");
  }
}

// Application messages (issue 29) travel in extracts made with the same
// --messages specs: the same report as from the user-space traces.
TEST(CliExtract, ApplicationMessagesGiveTheSameReport) {
  testing::TempDir dir;
  const CommandResult simulated =
      run_command(tracesync_binary(), {"simulate", "--quiet", "--user-space", "--output", dir.file("sim"), "--hosts",
                                       "3", "--duration", "3s", "--seed", "29"});
  ASSERT_EQ(simulated.exit_code, 0) << simulated.err;
  const std::vector<std::string> hosts = subdirectories(dir.file("sim"));
  ASSERT_EQ(hosts.size(), 3u);
  const std::vector<std::string> spec = {"--messages", "send=tsapp:msg_send,recv=tsapp:msg_recv,key=msg_id"};
  const CommandResult r = run_command(
      tracesync_binary(), joined(joined({"extract"}, joined(spec, {hosts[0], hosts[1]})), {"-o", dir.file("a.tsx")}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> options = joined({"--format", "json"}, spec);
  expect_same_report(hosts, {dir.file("a.tsx"), hosts[2]}, options, "two extracted, one trace");
  const CommandResult report = sync({dir.file("a.tsx"), hosts[2]}, options);
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const json j = json::parse(report.out);
  ASSERT_FALSE(j["links"].empty());
  for (const auto& link : j["links"]) EXPECT_EQ(link["quality"], "ACCURATE") << link.dump();
}

// Cut short anywhere, or with any byte changed: the extract's traces are
// read up to the damage at most (a problem names the file), the other
// traces are synchronized, and nothing crashes.
TEST(CliExtract, DamagedExtractCostsItsOwnTracesOnly) {
  testing::TempDir dir;
  const CommandResult simulated =
      run_command(tracesync_binary(), {"simulate", "--quiet", "--output", dir.file("sim"), "--hosts", "3",
                                       "--topology", "star", "--duration", "2s", "--seed", "3"});
  ASSERT_EQ(simulated.exit_code, 0) << simulated.err;
  const std::vector<std::string> hosts = subdirectories(dir.file("sim"));
  ASSERT_EQ(hosts.size(), 3u);
  const std::string good = dir.file("host0.tsx");
  extract({hosts[0]}, good);
  const std::string bytes = testing::read_file(good);
  const CommandResult whole = sync({good, hosts[1], hosts[2]}, {"--format", "json"});
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  std::mt19937 random(5);
  std::vector<std::string> damaged;
  for (int i = 0; i < 12; ++i) damaged.push_back(bytes.substr(0, random() % bytes.size()));
  for (int i = 0; i < 12; ++i) {
    std::string changed = bytes;
    changed[8 + random() % (changed.size() - 8)] ^= static_cast<char>(1 + random() % 255);
    damaged.push_back(changed);
  }
  for (std::size_t i = 0; i < damaged.size(); ++i) {
    const std::string file = dir.file("damaged.tsx");
    testing::write_file(file, damaged[i]);
    const CommandResult r = sync({file, hosts[1], hosts[2]}, {"--format", "json"});
    ASSERT_EQ(r.exit_code, 3) << "case " << i << "\n" << r.err;
    EXPECT_NE(r.err.find(file), std::string::npos) << "case " << i << "\n" << r.err;
    const json report = json::parse(r.out);
    std::size_t others = 0;
    for (const json& t : report["traces"]) {
      const std::string name = t["name"];
      if (name.starts_with("host1/") || name.starts_with("host2/")) ++others;
    }
    EXPECT_EQ(others, 2u) << "case " << i;
  }
}

// A trace damaged when it was extracted: the extract records what was read
// before the damage and the problem; the report and exit code are the ones
// from the damaged trace itself.
TEST(CliExtract, TraceDamagedWhenExtractedGivesTheSameReport) {
  testing::TempDir dir;
  const CommandResult simulated = run_command(
      tracesync_binary(), {"simulate", "--quiet", "--output", dir.file("sim"), "--hosts", "3", "--duration", "2s"});
  ASSERT_EQ(simulated.exit_code, 0) << simulated.err;
  const std::vector<std::string> hosts = subdirectories(dir.file("sim"));
  std::string stream;
  for (const auto& entry : fs::directory_iterator(hosts[1] + "/kernel")) {
    if (entry.is_regular_file() && entry.path().filename() != "metadata" && entry.file_size() > 4096) {
      stream = entry.path().string();
      break;
    }
  }
  ASSERT_FALSE(stream.empty());
  fs::resize_file(stream, fs::file_size(stream) / 2 + 13);  // cut inside a packet
  extract({hosts[1]}, dir.file("damaged.tsx"), 3);
  extract({hosts[0], hosts[2]}, dir.file("others.tsx"));
  for (const auto& options : kOptionSets) {
    expect_same_report(hosts, {dir.file("damaged.tsx"), dir.file("others.tsx")}, options, "a damaged trace");
  }
}

TEST(CliExtract, WrongVersionOrNotAnExtractIsNamedAndSkipped) {
  testing::TempDir dir;
  const CommandResult simulated = run_command(
      tracesync_binary(), {"simulate", "--quiet", "--output", dir.file("sim"), "--hosts", "2", "--duration", "1s"});
  ASSERT_EQ(simulated.exit_code, 0) << simulated.err;
  // The magic, then a header frame of format version 99: field 1 = 99,
  // with its CRC-32.
  const std::string header("\x08\x63", 2);
  std::string future = std::string("TSYNCX\r\n", 8) + '\0' + '\x02' + header;
  const uint32_t crc = 0x5DBBA815;  // zlib.crc32(b"\x08\x63")
  for (int i = 0; i < 4; ++i) future += static_cast<char>(crc >> (8 * i));
  testing::write_file(dir.file("future.tsx"), future);
  testing::write_file(dir.file("notes.txt"), "not an extract");
  const CommandResult r = sync({dir.file("future.tsx"), dir.file("notes.txt"), dir.file("sim")}, {"--format", "json"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find(dir.file("future.tsx") + ": is a tracesync extract of format version 99"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find(dir.file("notes.txt") + ": not a directory"), std::string::npos) << r.err;
  EXPECT_EQ(json::parse(r.out)["traces"].size(), 2u);
}

TEST(CliExtract, ApplyCopiesFromTheRecordedPathOrSaysItCannot) {
  testing::TempDir dir;
  const CommandResult simulated = run_command(
      tracesync_binary(), {"simulate", "--quiet", "--output", dir.file("sim"), "--hosts", "2", "--duration", "1s"});
  ASSERT_EQ(simulated.exit_code, 0) << simulated.err;
  const std::vector<std::string> hosts = subdirectories(dir.file("sim"));
  extract({hosts[0]}, dir.file("host0.tsx"));
  // The trace is still where it was extracted from: copied from there.
  CommandResult r = run_command(tracesync_binary(),
                                {"apply", dir.file("host0.tsx"), hosts[1], "--output", dir.file("copies")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_regular_file(dir.file("copies/host0/kernel/metadata")));
  // It is gone: no copy of it, said, and the manifest says why.
  fs::rename(hosts[0], dir.file("elsewhere"));
  r = run_command(tracesync_binary(), {"apply", dir.file("host0.tsx"), hosts[1], "--output", dir.file("copies2")});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("no copy of host0/kernel: there is no trace at " + hosts[0] + "/kernel"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_regular_file(dir.file("copies2/host1/kernel/metadata")));
  EXPECT_NE(testing::read_file(dir.file("copies2/tracesync-manifest.json")).find("there is no trace at"),
            std::string::npos);
}

TEST(CliExtract, UsageErrors) {
  testing::TempDir dir;
  CommandResult r = run_command(tracesync_binary(), {"extract", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("usage: tracesync extract"), std::string::npos);
  r = run_command(tracesync_binary(), {"extract", dir.path()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("-o FILE"), std::string::npos) << r.err;
  r = run_command(tracesync_binary(), {"extract", dir.path(), "-o", dir.file("x.tsx")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_FALSE(fs::exists(dir.file("x.tsx")));
  const CommandResult simulated = run_command(
      tracesync_binary(), {"simulate", "--quiet", "--output", dir.file("sim"), "--hosts", "2", "--duration", "1s"});
  ASSERT_EQ(simulated.exit_code, 0) << simulated.err;
  extract({dir.file("sim")}, dir.file("sim.tsx"));
  r = run_command(tracesync_binary(), {"extract", dir.file("sim.tsx"), "-o", dir.file("again.tsx")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("is an extract already"), std::string::npos) << r.err;
  // To stdout, the same bytes as to a file.
  r = run_command(tracesync_binary(), {"extract", dir.file("sim"), "-o", "-"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, 8), std::string("TSYNCX\r\n", 8));
  EXPECT_EQ(r.out.size(), fs::file_size(dir.file("sim.tsx")));
}

}  // namespace
}  // namespace tracesync
