// SPDX-License-Identifier: EPL-2.0
// Finding traces in nested session layouts, naming them, and choosing their
// clock domains (DESIGN.md, "Clock domain"; `--domain TRACE=ID`).

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <functional>

#include "ctf_test_writer.h"
#include "bt/error.h"
#include "ingest/domain_overrides.h"
#include "ingest/trace_discovery.h"
#include "ingest/trace_info.h"

namespace tracesync::ingest {
namespace {

namespace fs = std::filesystem;

// Discovery only looks for `metadata` files: empty ones do.
void make_trace(const fs::path& directory, std::size_t stream_bytes = 0) {
  fs::create_directories(directory);
  std::ofstream(directory / "metadata") << "";
  if (stream_bytes > 0) std::ofstream(directory / "channel0_0") << std::string(stream_bytes, 'x');
}

// An LTTng session: a kernel trace and a userspace trace per user and ABI.
fs::path make_session(const fs::path& root) {
  const fs::path session = root / "mysession-20240101-120000";
  make_trace(session / "kernel", 100);
  make_trace(session / "ust" / "uid" / "1000" / "64-bit", 30);
  make_trace(session / "ust" / "uid" / "1000" / "32-bit", 20);
  fs::create_directories(session / "kernel" / "index");  // LTTng's packet index: not a trace
  std::ofstream(session / "kernel" / "index" / "channel0_0.idx") << "index";
  return session;
}

std::vector<std::string> names_of(const Discovery& d) {
  std::vector<std::string> names;
  for (const auto& t : d.traces) names.push_back(t.name);
  return names;
}

TEST(Discovery, FindsEveryTraceOfANestedSession) {
  testing::TempDir dir("discover");
  const fs::path session = make_session(dir.path());
  const Discovery found = discover_traces({session.string()});
  EXPECT_TRUE(found.problems.empty());
  EXPECT_EQ(names_of(found), (std::vector<std::string>{"mysession-20240101-120000/kernel",
                                                       "mysession-20240101-120000/ust/uid/1000/32-bit",
                                                       "mysession-20240101-120000/ust/uid/1000/64-bit"}));
  EXPECT_EQ(found.traces[0].path, (session / "kernel").string());
  EXPECT_FALSE(found.traces[0].domain_override.has_value());
}

TEST(Discovery, APathThatIsATraceIsNamedByItsDirectory) {
  testing::TempDir dir("discover");
  make_trace(dir.path() / "scp_src");
  const Discovery found = discover_traces({(dir.path() / "scp_src").string() + "/"});
  ASSERT_EQ(found.traces.size(), 1u);
  EXPECT_EQ(found.traces[0].name, "scp_src");
  EXPECT_EQ(found.traces[0].path, (dir.path() / "scp_src").string());
}

TEST(Discovery, ATraceGivenTwiceIsReadOnce) {
  testing::TempDir dir("discover");
  const fs::path session = make_session(dir.path());
  const Discovery found = discover_traces({session.string(), (session / "kernel").string(), session.string() + "/."});
  EXPECT_EQ(found.traces.size(), 3u);
  EXPECT_TRUE(found.problems.empty());
}

TEST(Discovery, BadPathsAreNamedAndTheOthersStillSearched) {
  testing::TempDir dir("discover");
  make_trace(dir.path() / "good");
  fs::create_directories(dir.path() / "empty" / "sub");
  std::ofstream(dir.path() / "file.txt") << "not a directory";
  const Discovery found = discover_traces({(dir.path() / "missing").string(), (dir.path() / "empty").string(),
                                           (dir.path() / "file.txt").string(), (dir.path() / "good").string()});
  ASSERT_EQ(found.traces.size(), 1u);
  EXPECT_EQ(found.traces[0].name, "good");
  ASSERT_EQ(found.problems.size(), 3u);
  EXPECT_EQ(found.problems[0].source, (dir.path() / "missing").string());
  EXPECT_EQ(found.problems[0].message, "no such file or directory");
  EXPECT_EQ(found.problems[1].source, (dir.path() / "empty").string());
  EXPECT_NE(found.problems[1].message.find("holds no CTF trace"), std::string::npos);
  EXPECT_EQ(found.problems[2].source, (dir.path() / "file.txt").string());
  EXPECT_NE(found.problems[2].message.find("not a directory"), std::string::npos);
}

// Runs `check` as a user that directory permissions apply to: root reads
// every directory, so as root the check runs in a child process as nobody.
// The check returns what is wrong, or "" when all is well.
void as_unprivileged_user(const std::function<std::string()>& check) {
  if (geteuid() != 0) {
    const std::string wrong = check();
    EXPECT_EQ(wrong, "");
    return;
  }
  EXPECT_EXIT(
      {
        if (setgid(65534) != 0 || setuid(65534) != 0) {
          std::fprintf(stderr, "cannot become nobody\n");
          std::_Exit(2);
        }
        const std::string wrong = check();
        std::fprintf(stderr, "%s\n", wrong.c_str());
        std::_Exit(wrong.empty() ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(Discovery, AnUnreadableDirectoryIsAProblemAndTheRestIsStillFound) {
  testing::TempDir dir("discover");
  make_trace(dir.path() / "session" / "host1");
  make_trace(dir.path() / "session" / "locked" / "host2");
  make_trace(dir.path() / "session" / "zz" / "host3");
  // Readable by all but `locked` (for the user who runs the check).
  for (const fs::path& p : {dir.path(), dir.path() / "session", dir.path() / "session" / "host1",
                            dir.path() / "session" / "zz", dir.path() / "session" / "zz" / "host3"}) {
    fs::permissions(p, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                           fs::perms::others_read | fs::perms::others_exec);
  }
  fs::permissions(dir.path() / "session" / "locked", fs::perms::none);
  const std::string locked = (dir.path() / "session" / "locked").string();
  as_unprivileged_user([&]() -> std::string {
    const Discovery found = discover_traces({(dir.path() / "session").string()});
    if (names_of(found) != std::vector<std::string>{"session/host1", "session/zz/host3"}) {
      return "found " + std::to_string(found.traces.size()) + " traces, not host1 and host3";
    }
    if (found.problems.size() != 1 || found.problems[0].source != locked ||
        found.problems[0].message.find("cannot be read: Permission denied") == std::string::npos) {
      return "not one problem naming the locked directory";
    }
    return "";
  });
  fs::permissions(dir.path() / "session" / "locked", fs::perms::owner_all);  // so that it can be removed
}

TEST(Discovery, AMetadataThatIsNoFileIsAProblem) {
  testing::TempDir dir("discover");
  make_trace(dir.path() / "good");
  fs::create_directories(dir.path() / "dir_metadata" / "metadata");
  fs::create_directories(dir.path() / "loop");
  fs::create_symlink("metadata", dir.path() / "loop" / "metadata");  // points at itself
  const Discovery found = discover_traces({dir.path().string()});
  ASSERT_EQ(found.traces.size(), 1u);
  ASSERT_EQ(found.problems.size(), 2u);
  EXPECT_EQ(found.problems[0].source, (dir.path() / "dir_metadata" / "metadata").string());
  EXPECT_EQ(found.problems[0].message, "is not a regular file: not a trace's metadata");
  EXPECT_EQ(found.problems[1].source, (dir.path() / "loop" / "metadata").string());
  EXPECT_NE(found.problems[1].message.find("cannot be read: Too many levels of symbolic links"), std::string::npos)
      << found.problems[1].message;
}

TEST(Discovery, CountsOnlyStreamFileBytes) {
  testing::TempDir dir("discover");
  const fs::path session = make_session(dir.path());
  std::ofstream(session / "kernel" / ".hidden") << "12345";
  EXPECT_EQ(stream_file_bytes((session / "kernel").string()), 100u);  // not metadata, index/ or hidden files
}

TEST(DomainOverrides, ParseTraceEqualsId) {
  EXPECT_EQ(parse_domain_override("kernel=hostA"), (std::pair<std::string, std::string>{"kernel", "hostA"}));
  EXPECT_EQ(parse_domain_override("/a=b/trace=host=A"), (std::pair<std::string, std::string>{"/a=b/trace=host", "A"}));
  EXPECT_FALSE(parse_domain_override("kernel").has_value());
  EXPECT_FALSE(parse_domain_override("=x").has_value());
  EXPECT_FALSE(parse_domain_override("x=").has_value());
}

TEST(DomainOverrides, SelectByPathNameDirectoryNameOrEnclosingDirectory) {
  testing::TempDir dir("overrides");
  const fs::path a = make_session(dir.path() / "hostA");
  make_trace(dir.path() / "hostB" / "scp_dest");
  Discovery found = discover_traces({a.string(), (dir.path() / "hostB" / "scp_dest").string()});
  ASSERT_EQ(found.traces.size(), 4u);
  // traces: [0] hostA kernel, [1] 32-bit, [2] 64-bit, [3] scp_dest
  const auto problems = apply_domain_overrides(found.traces, {{(dir.path() / "hostA").string(), "A"},
                                                              {"scp_dest", "B"}});
  EXPECT_TRUE(problems.empty());
  EXPECT_EQ(found.traces[0].domain_override, "A");
  EXPECT_EQ(found.traces[1].domain_override, "A");
  EXPECT_EQ(found.traces[2].domain_override, "A");
  EXPECT_EQ(found.traces[3].domain_override, "B");

  Discovery again = discover_traces({a.string()});
  EXPECT_TRUE(apply_domain_overrides(again.traces, {{"mysession-20240101-120000/kernel", "K"}, {"64-bit", "U"}}).empty());
  EXPECT_EQ(again.traces[0].domain_override, "K");
  EXPECT_FALSE(again.traces[1].domain_override.has_value());
  EXPECT_EQ(again.traces[2].domain_override, "U");

  Discovery by_path = discover_traces({a.string()});
  EXPECT_TRUE(apply_domain_overrides(by_path.traces, {{(a / "kernel").string(), "K"}}).empty());
  EXPECT_EQ(by_path.traces[0].domain_override, "K");
}

TEST(DomainOverrides, UnusedAndConflictingOverridesAreProblems) {
  testing::TempDir dir("overrides");
  const fs::path a = make_session(dir.path());
  Discovery found = discover_traces({a.string()});
  const auto problems = apply_domain_overrides(found.traces, {{"nothing-like-this", "X"}, {"kernel", "K"},
                                                              {a.string(), "A"}});
  ASSERT_EQ(problems.size(), 2u);
  // Options are applied in name order: the session path, then "kernel", then "nothing-like-this".
  EXPECT_EQ(problems[0].source, found.traces[0].path);
  EXPECT_NE(problems[0].message.find("both select this trace"), std::string::npos);
  EXPECT_EQ(problems[1].source, "nothing-like-this");
  EXPECT_NE(problems[1].message.find("selects no trace"), std::string::npos);
  EXPECT_FALSE(found.traces[0].domain_override.has_value());  // conflicted: neither
  EXPECT_EQ(found.traces[1].domain_override, "A");
}

TEST(DomainChoice, OverrideThenClockUuidThenHostnameThenPath) {
  TraceSource source{"/traces/t", "t", std::nullopt};
  ClockInfo clock;
  clock.uuid = "74715693-28c1-4d0d-bee9-24790a4942b0";
  EXPECT_EQ(choose_domain(source, clock, "VM1"), std::pair(*clock.uuid, DomainSource::kClockUuid));
  clock.uuid.reset();
  EXPECT_EQ(choose_domain(source, clock, "VM1"), std::pair(std::string("VM1"), DomainSource::kHostname));
  EXPECT_EQ(choose_domain(source, std::nullopt, ""), std::pair(std::string("/traces/t"), DomainSource::kPath));
  source.domain_override = "mine";
  EXPECT_EQ(choose_domain(source, clock, "VM1"), std::pair(std::string("mine"), DomainSource::kOverride));
  EXPECT_EQ(to_string(DomainSource::kClockUuid), "clock-uuid");
}

TEST(BabeltraceErrors, MessagesLoseAddressesAndLineBreaks) {
  EXPECT_EQ(bt::tidy_bt_message("No event class with ID of event class ID to use in stream class: msg-it-addr=0x5633df724040, "
                            "stream-class-id=0,\n  event-class-id=4294967295, trace-class-addr=0x5633df707960"),
            "No event class with ID of event class ID to use in stream class: stream-class-id=0, "
            "event-class-id=4294967295");
  EXPECT_EQ(bt::tidy_bt_message("  Failed to index CTF stream file '/t/channel0_0'\n"), "Failed to index CTF stream file '/t/channel0_0'");
  EXPECT_EQ(bt::take_bt_error("nothing went wrong"), "nothing went wrong");
}

}  // namespace
}  // namespace tracesync::ingest
