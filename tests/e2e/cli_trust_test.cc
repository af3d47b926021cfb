// SPDX-License-Identifier: EPL-2.0
// Reports that never mislead: a trace outside the main island is said to be
// not synchronized (text, JSON, stderr, exit 4), missing events are named,
// a run that read nothing prints no empty tables; figures come in human
// units that agree with the exact transforms; `tracesync check` shows which
// traces carry usable events.

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>

#include <nlohmann/json.hpp>

#include "model/quad.h"
#include "native/ingest/ctf_test_writer.h"
#include "support/run_command.h"

namespace tracesync {
namespace {

using nlohmann::json;
using testing::run_command;
using testing::tracesync_binary;
namespace fs = std::filesystem;

std::string fixture(const std::string& name) { return std::string(TRACESYNC_FIXTURES_DIR) + "/matches/" + name; }

const json& by_name(const json& traces, const std::string& name) {
  for (const json& t : traces) {
    if (t["name"] == name) return t;
  }
  ADD_FAILURE() << "no trace " << name;
  static const json none;
  return none;
}

model::Quad decimal(const json& j) { return *model::parse_decimal(j.get<std::string>()); }

void simulate(const std::string& dir, std::vector<std::string> options) {
  std::vector<std::string> args = {"simulate", "--quiet", "--output", dir};
  args.insert(args.end(), options.begin(), options.end());
  const auto r = run_command(tracesync_binary(), args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
}

// A CTF trace of host `hostname` holding `events` (kernel events of another
// kind when none is a network event).
void write_trace(const std::string& dir, const std::string& hostname, const std::vector<ingest::testing::NetEvent>& events) {
  ingest::testing::TraceShape shape;
  shape.hostname = hostname;
  ingest::testing::write_trace(dir, shape, events);
}

std::vector<ingest::testing::NetEvent> timer_events() {
  std::vector<ingest::testing::NetEvent> events(3);
  for (std::size_t i = 0; i < events.size(); ++i) {
    events[i].name = "timer_init";
    events[i].time = 1000 * (i + 1);
  }
  return events;
}

TEST(TrustedReports, TracesOutsideTheMainIslandAreNotSynchronized) {
  // Two islands of two traces: the tie goes to the island holding a.
  const auto r = run_command(tracesync_binary(), {"sync", "--matches", fixture("two_islands.txt"), "--format", "json"});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  const json report = json::parse(r.out);
  for (const std::string name : {"a", "b"}) {
    const json& t = by_name(report["traces"], name);
    EXPECT_TRUE(t["synchronized"]) << name;
    EXPECT_TRUE(t["uncertainty_ns"].is_number()) << name;
    EXPECT_FALSE(t.contains("unsynchronized_reason"));
  }
  for (const std::string name : {"c", "d"}) {
    const json& t = by_name(report["traces"], name);
    EXPECT_FALSE(t["synchronized"]) << name;
    EXPECT_TRUE(t["uncertainty_ns"].is_null()) << name;
    EXPECT_TRUE(t["drift_ppm"].is_null()) << name;
    EXPECT_TRUE(t["shift_ns"].is_null()) << name;
    EXPECT_EQ(t["unsynchronized_reason"], "it is in island 1, which no usable link joins to the main island (0)");
    EXPECT_NE(r.err.find("tracesync: " + name + " is not synchronized with the rest: it is in island 1"),
              std::string::npos)
        << r.err;
  }
  const auto text = run_command(tracesync_binary(), {"sync", "--matches", fixture("two_islands.txt")});
  EXPECT_EQ(text.exit_code, 4);
  EXPECT_TRUE(std::regex_search(text.out, std::regex("\n  c +c +c +1 +not synchronized +- +- +- "))) << text.out;
  EXPECT_NE(text.out.find("NOT SYNCHRONIZED with the rest: d: it is in island 1"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("island 0: 2 domain(s), reference a, the main island"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("island 1: 2 domain(s), reference c, NOT SYNCHRONIZED with the main island"),
            std::string::npos)
      << text.out;
}

TEST(TrustedReports, TheMainIslandIsTheOneWithTheMostTraces) {
  // {a, b} holds the smallest id, but {c, d, e} holds more traces.
  const std::string matches =
      "a 0 b 10\nb 55 a 50\na 100 b 110\n"
      "c 0 d 10\nd 55 c 50\nc 100 d 110\n"
      "d 0 e 10\ne 55 d 50\nd 100 e 110\n";
  const auto r = run_command(tracesync_binary(), {"sync", "--matches", "-", "--format", "json"}, matches);
  EXPECT_EQ(r.exit_code, 4) << r.err;
  const json report = json::parse(r.out);
  for (const std::string name : {"c", "d", "e"}) EXPECT_TRUE(by_name(report["traces"], name)["synchronized"]) << name;
  for (const std::string name : {"a", "b"}) {
    EXPECT_FALSE(by_name(report["traces"], name)["synchronized"]) << name;
    EXPECT_NE(r.err.find(name + " is not synchronized with the rest"), std::string::npos) << r.err;
  }
}

TEST(TrustedReports, OneWayAndFailedLinksAreNamedAsTheReason) {
  auto r = run_command(tracesync_binary(), {"sync", "--matches", fixture("one_direction.txt"), "--format", "json"});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  json report = json::parse(r.out);
  EXPECT_TRUE(by_name(report["traces"], "x")["synchronized"]);
  EXPECT_EQ(by_name(report["traces"], "y")["unsynchronized_reason"],
            "its only links are one-way (messages in one direction only) with x");

  // b's two messages to a bound every line from above at x = 50 by 150 ns;
  // a's message back needs it at 300 or more: no line fits, from the start.
  r = run_command(tracesync_binary(), {"sync", "--matches", "-", "--format", "json"},
                  "a 0 b 100\na 100 b 200\nb 300 a 50\n");
  EXPECT_EQ(r.exit_code, 4) << r.err;
  report = json::parse(r.out);
  ASSERT_EQ(report["links"].size(), 1u);
  EXPECT_EQ(report["links"][0]["quality"], "FAIL");
  EXPECT_EQ(by_name(report["traces"], "b")["unsynchronized_reason"],
            "its only links are failed (messages contradict every line) with a");
}

TEST(TrustedReports, ASingleTraceHasNothingToSynchronize) {
  testing::TempDir dir;
  simulate(dir.path(), {"--hosts", "2", "--duration", "1s", "--cpus", "1"});
  const auto r = run_command(tracesync_binary(), {"sync", dir.file("host0")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("only one trace (host0/kernel): there is nothing to synchronize it with"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("Only one trace: there is nothing to synchronize it with."), std::string::npos) << r.out;
}

TEST(TrustedReports, ATraceWithoutNetworkEventsIsNamedWithTheEventsLookedFor) {
  testing::TempDir dir;
  simulate(dir.file("exp"), {"--hosts", "2", "--duration", "1s", "--cpus", "1"});
  write_trace(dir.file("exp/quiet/kernel"), "quiet", timer_events());
  const auto r = run_command(tracesync_binary(), {"sync", dir.file("exp"), "--format", "json"});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find(dir.file("exp/quiet/kernel") +
                       " holds none of the network events tracesync reads (sends: net_dev_queue, inet_sock_local_out; "
                       "receives: net_if_receive_skb, netif_receive_skb, inet_sock_local_in)"),
            std::string::npos)
      << r.err;
  const json report = json::parse(r.out);
  for (const json& t : report["traces"]) {
    if (t["hostname"] == "quiet") {
      EXPECT_EQ(t["network_events"], 0);
      EXPECT_FALSE(t["synchronized"]);
      EXPECT_EQ(t["unsynchronized_reason"], "it holds none of the network events tracesync reads");
    } else {
      EXPECT_GT(t["network_events"].get<uint64_t>(), 0u);
      EXPECT_TRUE(t["synchronized"]) << t;
    }
  }
}

TEST(TrustedReports, NoLinkAtAllIsSaid) {
  testing::TempDir dir;
  write_trace(dir.file("one"), "one", timer_events());
  write_trace(dir.file("two"), "two", {ingest::testing::tcp_segment("net_dev_queue", 1000, 7)});
  const auto r = run_command(tracesync_binary(), {"sync", dir.path()});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("tracesync: no link could be built: no message sent by one traced host was received by "
                       "another (1 sends, 0 receives, 0 matched)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("two is not synchronized with the rest: it exchanged no matched message with another traced host"),
            std::string::npos)
      << r.err;
}

TEST(TrustedReports, ARunThatReadNothingPrintsTheErrorNotEmptyTables) {
  auto r = run_command(tracesync_binary(), {"sync", "/nonexistent/traces"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("'/nonexistent/traces' does not exist"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("no trace could be read"), std::string::npos) << r.err;
  // Scripts still get the report object, with its problems.
  r = run_command(tracesync_binary(), {"sync", "/nonexistent/traces", "--format", "json"});
  EXPECT_EQ(r.exit_code, 2);
  const json report = json::parse(r.out);
  EXPECT_TRUE(report["traces"].empty());
  ASSERT_EQ(report["problems"].size(), 1u);
  EXPECT_EQ(report["problems"][0]["source"], "/nonexistent/traces");
  EXPECT_FALSE(report["complete"]);
}

// drift_ppm and shift_ns are the exact transform's, rounded once; links name
// their hosts and carry their hull points; the text says it with units.
TEST(HumanUnits, FiguresAgreeWithTheExactTransforms) {
  testing::TempDir dir;
  simulate(dir.path(), {"--hosts", "3", "--topology", "chain", "--duration", "2s", "--cpus", "1"});
  const auto r = run_command(tracesync_binary(), {"sync", dir.path(), "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = json::parse(r.out);
  std::map<std::string, std::string> hostname;
  int references = 0;
  for (const json& t : report["traces"]) {
    ASSERT_TRUE(t["synchronized"]);
    hostname[t["domain"]] = t["hostname"];
    const model::Quad slope = decimal(t["slope"]);
    const model::Quad offset = decimal(t["offset"]);
    const auto first = static_cast<model::Quad>(t["first_ns"].get<int64_t>());
    EXPECT_DOUBLE_EQ(t["drift_ppm"].get<double>(), static_cast<double>((slope - 1) * 1'000'000)) << t["name"];
    EXPECT_DOUBLE_EQ(t["shift_ns"].get<double>(), static_cast<double>((slope - 1) * first + offset)) << t["name"];
    if (t["reference"]) {
      ++references;
      EXPECT_EQ(t["drift_ppm"], 0.0);
      EXPECT_EQ(t["shift_ns"], 0.0);
    } else {
      EXPECT_NE(t["shift_ns"], 0.0);  // simulated clocks are offset by up to 500 ms
    }
  }
  EXPECT_EQ(references, 1);
  ASSERT_EQ(report["links"].size(), 2u);
  for (const json& l : report["links"]) {
    EXPECT_EQ(l["a_hostname"], hostname[l["a"]]);
    EXPECT_EQ(l["b_hostname"], hostname[l["b"]]);
    ASSERT_EQ(l["lower_hull_points"].size(), l["lower_hull"].get<std::size_t>());
    ASSERT_EQ(l["upper_hull_points"].size(), l["upper_hull"].get<std::size_t>());
    for (const json& p : l["lower_hull_points"]) {
      EXPECT_TRUE(p["x"].is_number_integer());
      EXPECT_TRUE(p["y"].is_number_integer());
    }
  }

  const auto text = run_command(tracesync_binary(), {"sync", dir.path()});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  // A reference row, and synchronized rows with drift in ppm, shift and bound with units.
  EXPECT_TRUE(std::regex_search(text.out, std::regex("  \\S+/kernel +host[0-9] +\\S+ +0 +reference +\\+0\\.000 ppm +\\+0\\.0 ns +exact +1 ")))
      << text.out;
  const std::regex synchronized_row(
      "  \\S+/kernel +host[0-9] +\\S+ +0 +synchronized +[-+][0-9]+\\.[0-9]{3} ppm +[-+][0-9]+\\.[0-9]+ (s|ms|us|ns) +"
      "\\+/- [0-9]+\\.[0-9]+ (s|ms|us|ns) +1 ");
  EXPECT_EQ(std::distance(std::sregex_iterator(text.out.begin(), text.out.end(), synchronized_row), std::sregex_iterator()),
            2)
      << text.out;
  // Links: hostnames beside clock ids, drift and offset with units.
  EXPECT_TRUE(std::regex_search(text.out, std::regex("  host[0-9] \\(\\S+\\) +host[0-9] \\(\\S+\\) +ACCURATE +[-+][0-9.]+ ppm +[-+][0-9.]+ (s|ms|us|ns) +\\+/- ")))
      << text.out;
}

// The lines of `text` from the one that starts with `head` to the next blank
// or unindented one: a trace's block in check's text output.
std::string block(const std::string& text, const std::string& head) {
  const std::size_t at = text.find(head);
  if (at == std::string::npos) return {};
  std::size_t end = text.find('\n', at);
  while (end != std::string::npos && end + 1 < text.size() && text[end + 1] == ' ') end = text.find('\n', end + 1);
  return text.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

const json& event_name(const json& trace, const std::string& name) {
  for (const json& e : trace["event_names"]) {
    if (e["name"] == name) return e;
  }
  ADD_FAILURE() << "no event name " << name;
  static const json none;
  return none;
}

TEST(CheckCommand, ShowsWhichTracesCarryUsableEventsPerEventName) {
  testing::TempDir dir;
  simulate(dir.file("exp"), {"--hosts", "2", "--duration", "1s", "--cpus", "1"});
  write_trace(dir.file("exp/quiet/kernel"), "quiet", timer_events());
  write_trace(dir.file("exp/talker/kernel"), "talker",
              {ingest::testing::tcp_segment("net_dev_queue", 1000, 7), ingest::testing::tcp_segment("net_dev_queue", 2000, 8)});
  ingest::testing::TraceShape old;  // lttng-modules before 2.9: no TCP fields in the payload
  old.layout = ingest::testing::Layout::kPre29;
  old.hostname = "old";
  ingest::testing::write_trace(dir.file("exp/old/kernel"), old,
                               {ingest::testing::tcp_segment("net_dev_queue", 1000, 7),
                                ingest::testing::tcp_segment("net_if_receive_skb", 2000, 8)});
  auto r = run_command(tracesync_binary(), {"check", dir.file("exp")});
  EXPECT_EQ(r.exit_code, 4) << r.err;

  // A verdict on each trace's first line, then its events by name.
  const std::string quiet = block(r.out, dir.file("exp/quiet/kernel") + ": ");
  EXPECT_NE(quiet.find(": NOT usable: net_dev_queue recorded, but no event of it; net_if_receive_skb recorded, "
                       "but no event of it, netif_receive_skb recorded, but no event of it\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(quiet.find("  host quiet, clock domain quiet (hostname), 3 events, 0 network events\n"), std::string::npos)
      << r.out;
  EXPECT_TRUE(std::regex_search(quiet, std::regex("\n  send +net_dev_queue +0 events: 0 TCP\n"))) << r.out;
  EXPECT_TRUE(std::regex_search(quiet, std::regex("\n  send +inet_sock_local_out +not recorded\n"))) << r.out;

  const std::string talker = block(r.out, dir.file("exp/talker/kernel") + ": ");
  EXPECT_NE(talker.find(": sends only, links will be one-way: net_if_receive_skb recorded, but no event of it"),
            std::string::npos)
      << r.out;
  EXPECT_TRUE(std::regex_search(talker, std::regex("\n  send +net_dev_queue +2 events: 2 TCP\n"))) << r.out;

  const std::string old_block = block(r.out, dir.file("exp/old/kernel") + ": ");
  EXPECT_NE(old_block.find(": NOT usable: net_dev_queue lacks the TCP fields; net_if_receive_skb lacks the TCP "
                           "fields, netif_receive_skb lacks the TCP fields\n"), std::string::npos)
      << r.out;
  EXPECT_TRUE(std::regex_search(
      old_block, std::regex("\n  send +net_dev_queue +1 events: 0 TCP, 1 undecodable; lacks TCP fields: no TCP "
                             "header fields: neither `network_header` \\(lttng-modules 2\\.9\\+\\) nor `seq`")))
      << r.out;

  for (const std::string host : {"host0", "host1"}) {
    const std::string usable = block(r.out, dir.file("exp/" + host + "/kernel") + ": usable\n");
    std::smatch sends, receives;
    ASSERT_TRUE(std::regex_search(usable, sends, std::regex("\n  send +net_dev_queue +([0-9]+) events: ([0-9]+) TCP\n")))
        << r.out;
    ASSERT_TRUE(std::regex_search(usable, receives,
                                  std::regex("\n  receive +net_if_receive_skb +([0-9]+) events: ([0-9]+) TCP\n")))
        << r.out;
    EXPECT_EQ(sends[1], sends[2]);  // every simulated packet is TCP
    EXPECT_GT(std::stoull(sends[1]), 0u);
    EXPECT_GT(std::stoull(receives[2]), 0u);
  }
  EXPECT_NE(r.out.find("5 of 5 trace(s) read, 2 usable."), std::string::npos) << r.out;

  // The same, for scripts.
  r = run_command(tracesync_binary(), {"check", "--format", "json", dir.file("exp")});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  const json report = json::parse(r.out);
  EXPECT_EQ(report["format"], "tracesync-check/1");
  EXPECT_EQ(report["network_events"].size(), 5u);
  EXPECT_EQ(report["read"], 5);
  EXPECT_EQ(report["usable"], 2);
  ASSERT_EQ(report["traces"].size(), 5u);
  for (const json& t : report["traces"]) {
    const std::string name = t["hostname"].get<std::string>();
    EXPECT_EQ(t["status"], "complete");
    EXPECT_EQ(t["usable"], name == "host0" || name == "host1") << name;
    uint64_t sum = 0;
    for (const json& e : t["event_names"]) sum += e["events"].get<uint64_t>();
    EXPECT_EQ(sum, t["network_events"].get<uint64_t>()) << name;
    if (name == "host0" || name == "host1") {
      EXPECT_EQ(t["verdict"], "usable");
      EXPECT_EQ(t["tcp_sends"], event_name(t, "net_dev_queue")["tcp"]);
      EXPECT_GT(t["tcp_receives"].get<uint64_t>(), 0u);
      EXPECT_FALSE(event_name(t, "inet_sock_local_out")["recorded"].get<bool>());
    } else if (name == "old") {
      const json& queue = event_name(t, "net_dev_queue");
      EXPECT_TRUE(queue["recorded"].get<bool>());
      EXPECT_EQ(queue["undecodable"], 1);
      EXPECT_NE(queue["missing"].get<std::string>().find("`network_header`"), std::string::npos);
    } else if (name == "talker") {
      EXPECT_EQ(t["tcp_sends"], 2);
      EXPECT_EQ(t["tcp_receives"], 0);
      EXPECT_TRUE(event_name(t, "net_if_receive_skb")["missing"].is_null());
    }
  }

  r = run_command(tracesync_binary(), {"check", dir.file("exp/host0"), dir.file("exp/host1")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = run_command(tracesync_binary(), {"check", "--format", "yaml", dir.file("exp/host0")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--format must be text or json"), std::string::npos) << r.err;
  r = run_command(tracesync_binary(), {"check", "/nonexistent/traces"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("/nonexistent/traces"), std::string::npos) << r.err;
  r = run_command(tracesync_binary(), {"check"});
  EXPECT_EQ(r.exit_code, 2);
}

TEST(CheckCommand, ListsTracesInNaturalOrder) {
  testing::TempDir dir;
  for (const std::string host : {"host10", "host2", "host1"}) {
    write_trace(dir.file("exp/" + host + "/kernel"), host,
                {ingest::testing::tcp_segment("net_dev_queue", 1000, 7), ingest::testing::tcp_segment("net_if_receive_skb", 2000, 8)});
  }
  auto r = run_command(tracesync_binary(), {"check", dir.file("exp")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::size_t one = r.out.find(dir.file("exp/host1/kernel: "));
  const std::size_t two = r.out.find(dir.file("exp/host2/kernel: "));
  const std::size_t ten = r.out.find(dir.file("exp/host10/kernel: "));
  ASSERT_NE(ten, std::string::npos) << r.out;
  EXPECT_LT(one, two) << r.out;
  EXPECT_LT(two, ten) << r.out;
  r = run_command(tracesync_binary(), {"check", "--format", "json", dir.file("exp")});
  const json report = json::parse(r.out);
  ASSERT_EQ(report["traces"].size(), 3u);
  EXPECT_EQ(report["traces"][0]["hostname"], "host1");
  EXPECT_EQ(report["traces"][1]["hostname"], "host2");
  EXPECT_EQ(report["traces"][2]["hostname"], "host10");
}

TEST(CheckCommand, ReadsTheSharedFixtures) {
  const std::string fixtures = std::string(TRACESYNC_SHARED_DIR) + "/fixtures";
  const std::string addons21 = fixtures + "/lttng-modules-2.1-addons";
  const std::string django = fixtures + "/lttng-modules-2.4-addons/django-vote-v1";
  if (!fs::exists(addons21) || !fs::exists(django)) GTEST_SKIP() << "shared fixtures absent: " << fixtures;
  for (const std::string& experiment : {addons21, django}) {
    const auto r = run_command(tracesync_binary(), {"check", "--format", "json", experiment});
    EXPECT_EQ(r.exit_code, 0) << experiment << ": " << r.err;
    const json report = json::parse(r.out);
    ASSERT_GE(report["traces"].size(), 2u) << experiment;
    EXPECT_EQ(report["usable"], report["traces"].size()) << r.out;
    for (const json& t : report["traces"]) {
      // The addons' events carry the key: they are the ones recorded and read.
      const json& out = event_name(t, "inet_sock_local_out");
      const json& in = event_name(t, "inet_sock_local_in");
      EXPECT_TRUE(out["recorded"].get<bool>()) << t["path"];
      EXPECT_GT(out["tcp"].get<uint64_t>(), 0u) << t["path"];
      EXPECT_GT(in["tcp"].get<uint64_t>(), 0u) << t["path"];
      EXPECT_TRUE(out["missing"].is_null()) << t["path"];
      EXPECT_EQ(t["tcp_sends"].get<uint64_t>() + t["tcp_receives"].get<uint64_t>(),
                out["tcp"].get<uint64_t>() + in["tcp"].get<uint64_t>() +
                    event_name(t, "net_dev_queue")["tcp"].get<uint64_t>() +
                    event_name(t, "net_if_receive_skb")["tcp"].get<uint64_t>() +
                    event_name(t, "netif_receive_skb")["tcp"].get<uint64_t>())
          << t["path"];
    }
  }
}

}  // namespace
}  // namespace tracesync
