// SPDX-License-Identifier: EPL-2.0
// CTF 2 end to end (issue 38): the real fixtures (scp, django-vote) given
// CTF 2 metadata by `tracesync to-ctf2` over their unchanged stream files
// (copied to a temporary directory) synchronize to the very same report as
// the originals; check says which format each trace is in; extract reads
// them; apply copies them as CTF 2, clock-only or fully rewritten (through
// a CTF 1.8 view babeltrace2 2.0 reads), and refuses in words with exit
// code 2 what CTF 1.8 cannot say.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/run_command.h"
#include "support/without_readers.h"

namespace tracesync {
namespace {

using testing::CommandResult;
using testing::read_file;
using testing::run_command;
using testing::tracesync_binary;
namespace fs = std::filesystem;

const fs::path kFixtures = fs::path(TRACESYNC_SHARED_DIR) / "fixtures";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// `set` (a fixture directory) copied under `dir` with every trace's
// metadata translated to CTF 2 by `tracesync to-ctf2`.
fs::path ctf2_copy(const fs::path& set, const fs::path& dir) {
  const fs::path copy = dir / set.filename();
  fs::copy(set, copy, fs::copy_options::recursive);
  int translated = 0;
  for (const auto& entry : fs::recursive_directory_iterator(copy)) {
    if (entry.path().filename() != "metadata") continue;
    const fs::path original = set / fs::relative(entry.path(), copy);
    const CommandResult r = run_command(tracesync_binary(), {"to-ctf2", original.string(), "-o", entry.path().string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_file(entry.path().string()).substr(0, 1), "\x1e");
    ++translated;
  }
  EXPECT_GT(translated, 0);
  return copy;
}

CommandResult sync(const fs::path& set, const std::vector<std::string>& options) {
  std::vector<std::string> args = {"sync"};
  args.insert(args.end(), options.begin(), options.end());
  args.push_back(set.string());
  return run_command(tracesync_binary(), args);
}

TEST(CliCtf2, FixturesGivenCtf2MetadataSyncToTheSameReport) {
  if (!fs::is_directory(kFixtures)) GTEST_SKIP() << "shared fixtures not found at " << kFixtures;
  for (const fs::path& set : {kFixtures / "lttng-modules-2.1-addons", kFixtures / "lttng-modules-2.4-addons" / "django-vote-v1",
                             kFixtures / "lttng-modules-2.4-addons" / "django-vote-v2"}) {
    SCOPED_TRACE(set.string());
    const testing::TempDir dir;
    const fs::path copy = ctf2_copy(set, dir.path());
    for (const std::vector<std::string>& options : std::vector<std::vector<std::string>>{
             {"--format", "json"}, {"--format", "text"}, {"--format", "json", "--reader", "babeltrace2"}}) {
      const CommandResult ctf2 = sync(copy, options);
      ASSERT_EQ(ctf2.exit_code, 0) << ctf2.err;
      const CommandResult expected = sync(set, options);
      EXPECT_EQ(ctf2.exit_code, expected.exit_code);
      // The copies' paths aside, byte for byte, but for the lines naming the
      // reader: the scanner reads CTF 2 whatever --reader says.
      EXPECT_NE(ctf2.out.find("the trace is CTF 2"), std::string::npos) << ctf2.out;
      const std::string reader = options.back() == "babeltrace2" ? "babeltrace2" : "scanner";  // auto: the scanner
      EXPECT_EQ(testing::without_readers(replaced(ctf2.out, copy.string(), set.string()), "scanner"),
                testing::without_readers(expected.out, reader))
          << options.back();
    }
    // check says which format, for each trace.
    const CommandResult check = run_command(tracesync_binary(), {"check", "--format", "json", copy.string()});
    const auto report = nlohmann::json::parse(check.out);
    ASSERT_FALSE(report["traces"].empty());
    for (const auto& trace : report["traces"]) {
      EXPECT_EQ(trace["metadata_format"], "CTF 2") << trace.dump();
      EXPECT_EQ(trace["reader"], "scanner") << trace.dump();
    }
    const CommandResult text = run_command(tracesync_binary(), {"check", copy.string()});
    EXPECT_NE(text.out.find("metadata format CTF 2"), std::string::npos) << text.out;
  }
}

TEST(CliCtf2, ExtractReadsCtf2Traces) {
  if (!fs::is_directory(kFixtures)) GTEST_SKIP() << "shared fixtures not found at " << kFixtures;
  const testing::TempDir dir;
  const fs::path copy = ctf2_copy(kFixtures / "lttng-modules-2.1-addons", dir.path());
  const std::string extract = dir.file("scp.tsx");
  const CommandResult e = run_command(tracesync_binary(), {"extract", copy.string(), "-o", extract});
  ASSERT_EQ(e.exit_code, 0) << e.err;
  const CommandResult from_extract = run_command(tracesync_binary(), {"sync", "--format", "json", extract});
  ASSERT_EQ(from_extract.exit_code, 0) << from_extract.err;
  EXPECT_EQ(from_extract.out, sync(copy, {"--format", "json"}).out);
  const CommandResult check = run_command(tracesync_binary(), {"check", "--format", "json", extract});
  ASSERT_EQ(check.exit_code, 0) << check.err;
  const nlohmann::json checked = nlohmann::json::parse(check.out);  // held: the loop reads into it
  ASSERT_EQ(checked["traces"].size(), 2u);
  for (const auto& trace : checked["traces"]) EXPECT_EQ(trace["metadata_format"], "CTF 2");
}

TEST(CliCtf2, ApplyCopiesCtf2AsCtf2OrSaysWhatItCannotWrite) {
  if (!fs::is_directory(kFixtures)) GTEST_SKIP() << "shared fixtures not found at " << kFixtures;
  const testing::TempDir dir;
  const fs::path set = kFixtures / "lttng-modules-2.1-addons";
  const fs::path copy = ctf2_copy(set, dir.path());
  const CommandResult ctf2 = run_command(tracesync_binary(), {"apply", "--output", dir.file("out2"), copy.string()});
  ASSERT_EQ(ctf2.exit_code, 0) << ctf2.err;
  const CommandResult ctf18 = run_command(tracesync_binary(), {"apply", "--output", dir.file("out18"), set.string()});
  ASSERT_EQ(ctf18.exit_code, 0) << ctf18.err;
  for (const char* trace : {"scp_src", "scp_dest"}) {
    const std::string metadata = dir.file(std::string("out2/lttng-modules-2.1-addons/") + trace + "/metadata");
    EXPECT_EQ(read_file(metadata).substr(0, 1), "\x1e") << metadata;
  }
  // The copies, CTF 2 and CTF 1.8, synchronize alike: the same clocks.
  const CommandResult a = run_command(tracesync_binary(), {"sync", "--format", "json", dir.file("out2")});
  const CommandResult b = run_command(tracesync_binary(),
                                       {"sync", "--format", "json", "--reader", "babeltrace2", dir.file("out18")});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(testing::without_readers(replaced(a.out, "out2/", "out18/"), "scanner"),
            testing::without_readers(b.out, "babeltrace2"));

  // The full rewrite: babeltrace2 2.0 reads the CTF 2 traces through CTF
  // 1.8 views of them; the copies are CTF 2, their stream files the very
  // bytes of the full rewrite of the CTF 1.8 originals.
  const CommandResult rewrite2 =
      run_command(tracesync_binary(), {"apply", "--rewrite", "--output", dir.file("rewritten2"), copy.string()});
  ASSERT_EQ(rewrite2.exit_code, 0) << rewrite2.err;
  const CommandResult rewrite18 =
      run_command(tracesync_binary(), {"apply", "--rewrite", "--output", dir.file("rewritten18"), set.string()});
  ASSERT_EQ(rewrite18.exit_code, 0) << rewrite18.err;
  for (const char* trace : {"scp_src", "scp_dest"}) {
    const std::string two = dir.file(std::string("rewritten2/lttng-modules-2.1-addons/") + trace);
    const std::string one = dir.file(std::string("rewritten18/lttng-modules-2.1-addons/") + trace);
    EXPECT_EQ(read_file(two + "/metadata").substr(0, 1), "\x1e") << two;
    EXPECT_EQ(read_file(two + "/channel0_0"), read_file(one + "/channel0_0")) << trace;
    std::vector<std::string> left;  // the CTF 1.8 view is gone
    for (const auto& entry : fs::directory_iterator(fs::path(two).parent_path())) left.push_back(entry.path().filename());
    EXPECT_EQ(left.size(), 2u);
  }
  const CommandResult c = run_command(tracesync_binary(), {"sync", "--format", "json", dir.file("rewritten2")});
  const CommandResult d = run_command(tracesync_binary(),
                                       {"sync", "--format", "json", "--reader", "babeltrace2", dir.file("rewritten18")});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(testing::without_readers(replaced(c.out, "rewritten2/", "rewritten18/"), "scanner"),
            testing::without_readers(d.out, "babeltrace2"));

  // What CTF 1.8 cannot say is refused by name, exit code 2, nothing
  // written: a packet size named otherwise than CTF 1.8 readers know it.
  const fs::path renamed = dir.file("renamed");
  fs::create_directories(renamed);
  fs::copy(copy / "scp_src", renamed / "scp_src", fs::copy_options::recursive);
  const std::string metadata = (renamed / "scp_src" / "metadata").string();
  const std::string text = read_file(metadata);
  ASSERT_NE(text.find("\"packet_size\""), std::string::npos);
  testing::write_file(metadata, replaced(text, "\"packet_size\"", "\"total_bits\""));
  const CommandResult refused =
      run_command(tracesync_binary(), {"apply", "--rewrite", "--output", dir.file("refused"), renamed.string()});
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_NE(refused.err.find("has no CTF 1.8 form: `stream.packet.context.total_bits` has the role "
                             "`packet-total-length`, which CTF 1.8 readers know by the name `packet_size`"),
            std::string::npos)
      << refused.err;
  EXPECT_NE(refused.err.find("--clock-only"), std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(dir.file("refused")));
}

// Simulates the same experiment twice into `dir`, as CTF 2 (simtwo) and as
// CTF 1.8 (simone), with `options`.
void simulate_twins(const testing::TempDir& dir, const std::vector<std::string>& options) {
  for (const auto& [out, ctf2] : {std::pair<std::string, bool>{"simtwo", true}, {"simone", false}}) {
    std::vector<std::string> args = {"simulate", "--quiet", "--output", dir.file(out)};
    args.insert(args.end(), options.begin(), options.end());
    if (ctf2) args.push_back("--ctf2");
    const CommandResult r = run_command(tracesync_binary(), args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
}

// The CTF 2 twin's report (read by the scanner) is the CTF 1.8 twin's (read
// by babeltrace2) but for the lines naming the reader, and the truth lies
// inside every bound of it.
void expect_twins_agree_and_hold_the_truth(const testing::TempDir& dir, const CommandResult& ctf2,
                                           const CommandResult& ctf18) {
  EXPECT_EQ(testing::without_readers(replaced(ctf2.out, "simtwo/", "simone/"), "scanner"),
            testing::without_readers(ctf18.out, "babeltrace2"));
  testing::write_file(dir.file("report.json"), ctf2.out);
  const CommandResult checked =
      run_command(tracesync_binary(), {"check-truth", dir.file("report.json"), dir.file("simtwo/truth.json")});
  EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;
}

TEST(CliCtf2, SimulateWritesCtf2ThatSyncsAsItsCtf18Twin) {
  const testing::TempDir dir;
  ASSERT_NO_FATAL_FAILURE(simulate_twins(dir, {"--hosts", "3", "--duration", "2s", "--seed", "7"}));
  EXPECT_EQ(read_file(dir.file("simtwo/host0/kernel/metadata")).substr(0, 1), "\x1e");
  const CommandResult a = run_command(tracesync_binary(), {"sync", "--format", "json", dir.file("simtwo")});
  const CommandResult b = run_command(tracesync_binary(),
                                       {"sync", "--format", "json", "--reader", "babeltrace2", dir.file("simone")});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  expect_twins_agree_and_hold_the_truth(dir, a, b);
}

// The scanner decodes application keys in CTF 2 as in CTF 1.8: `--messages`
// on a CTF 2 experiment gives its CTF 1.8 twin's report (read by
// babeltrace2), and the truth lies inside every bound.
TEST(CliCtf2, ApplicationMessagesInCtf2SyncAsTheirCtf18Twin) {
  const testing::TempDir dir;
  ASSERT_NO_FATAL_FAILURE(simulate_twins(dir, {"--hosts", "2", "--duration", "1s", "--user-space", "--seed", "29"}));
  const std::string spec = "send=tsapp:msg_send,recv=tsapp:msg_recv,key=channel+msg_id";
  const CommandResult a = run_command(tracesync_binary(), {"sync", "--format", "json", "--messages", spec, dir.file("simtwo")});
  const CommandResult b = run_command(
      tracesync_binary(), {"sync", "--format", "json", "--reader", "babeltrace2", "--messages", spec, dir.file("simone")});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  const nlohmann::json report = nlohmann::json::parse(a.out);
  ASSERT_EQ(report["matching_by_kind"].size(), 2u);
  EXPECT_GT(report["matching_by_kind"][1]["matching"]["matches"].get<uint64_t>(), 0u) << a.out;
  expect_twins_agree_and_hold_the_truth(dir, a, b);
}

TEST(CliCtf2, ToCtf2SaysWhatIsWrong) {
  const testing::TempDir dir;
  testing::write_file(dir.file("metadata"), "/* CTF 1.8 */ trace { major = 1; minor = 8; byte_order = sideways; };");
  const CommandResult bad = run_command(tracesync_binary(), {"to-ctf2", dir.path()});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find(dir.file("metadata")), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("line 1"), std::string::npos) << bad.err;
  const CommandResult missing = run_command(tracesync_binary(), {"to-ctf2", dir.file("absent")});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("absent"), std::string::npos) << missing.err;
  const CommandResult help = run_command(tracesync_binary(), {"to-ctf2", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("usage: tracesync to-ctf2"), std::string::npos);
}

}  // namespace
}  // namespace tracesync
