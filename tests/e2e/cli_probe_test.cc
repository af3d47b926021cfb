// SPDX-License-Identifier: EPL-2.0
// tracesync probe end to end (issue 37, part 1):
// - its arguments: clear errors, exit 2;
// - two probes on loopback stopped by SIGINT and SIGTERM: whole bursts at
//   start and stop, exit 0;
// - simulate --probe-rounds: two hosts with nothing but a burst of 50 round
//   trips at the start and at the end of an hour, linear clocks:
//   synchronized, the truth inside the bound everywhere, and the bound at the
//   bursts within twice their minimum one-way delay;
// - kernel traces' probe segments told apart by --probe-port (sync, check).

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <csignal>
#include <nlohmann/json.hpp>
#include <thread>

#include "support/run_command.h"

namespace tracesync {
namespace {

using nlohmann::json;
using testing::run_command;
using testing::tracesync_binary;

testing::CommandResult probe(const std::vector<std::string>& arguments) {
  std::vector<std::string> all = {"probe"};
  all.insert(all.end(), arguments.begin(), arguments.end());
  return run_command(tracesync_binary(), all);
}

void expect_usage_error(const std::vector<std::string>& arguments, const std::string& says) {
  const testing::CommandResult r = probe(arguments);
  EXPECT_EQ(r.exit_code, 2) << ::testing::PrintToString(arguments);
  EXPECT_NE(r.err.find(says), std::string::npos) << ::testing::PrintToString(arguments) << ": " << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(CliProbe, BadArgumentsAreNamedWithExit2) {
  expect_usage_error({}, "nothing to do: give --listen PORT, or peers");
  expect_usage_error({"node3"}, "the peer 'node3' has no port");
  expect_usage_error({"--listen", "70000"}, "--listen: '70000' is not a port");
  expect_usage_error({"--rounds", "0", "127.0.0.1:9"}, "--rounds must be a whole number from 1 to 1000, not '0'");
  expect_usage_error({"--rounds", "many", "127.0.0.1:9"}, "not 'many'");
  expect_usage_error({"--every", "10ms", "127.0.0.1:9"}, "--every must be at least 1s");
  expect_usage_error({"--every", "1s", "--rounds", "50", "127.0.0.1:9"}, "more than 20 round trips a second");
  expect_usage_error({"--timeout", "3", "127.0.0.1:9"}, "--timeout");
  expect_usage_error({"--ust", "maybe", "127.0.0.1:9"}, "--ust must be auto, on or off, not 'maybe'");
  expect_usage_error({"--peers", "/nonexistent/peers"}, "cannot read the peers file '/nonexistent/peers'");
  expect_usage_error({"--bogus"}, "bogus");
  expect_usage_error({"no.such.host.invalid:7300", "--ust", "off"}, "cannot resolve the peer no.such.host.invalid:7300");
  const testing::CommandResult help = probe({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("usage: tracesync probe"), std::string::npos);
}

int free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  socklen_t length = sizeof address;
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  close(fd);
  return ntohs(address.sin_port);
}

TEST(CliProbe, StoppedBySignalsEachSideGetsWholeBurstsAndExits0) {
  const std::string port = std::to_string(free_port());
  testing::CommandResult listener;
  std::thread serve([&] {
    listener = testing::run_command_with_signals(
        tracesync_binary(), {"probe", "--ust", "off", "--listen", "127.0.0.1:" + port, "--rounds", "10"},
        {{std::chrono::milliseconds(4000), SIGTERM}, {std::chrono::milliseconds(20000), SIGKILL}});
  });
  // The listener binds at once; a connector that came too early would name
  // it and exit 4, so wait until it listens.
  for (int i = 0; i < 100; ++i) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(static_cast<uint16_t>(std::stoi(port)));
    const bool up = connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    close(fd);
    if (up) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const testing::CommandResult connector = testing::run_command_with_signals(
      tracesync_binary(), {"probe", "--ust", "off", "--rounds", "25", "127.0.0.1:" + port},
      {{std::chrono::milliseconds(1000), SIGINT}, {std::chrono::milliseconds(20000), SIGKILL}});
  serve.join();
  EXPECT_EQ(connector.exit_code, 0) << connector.err;
  EXPECT_NE(connector.out.find("burst cause=start peer=127.0.0.1:" + port + " rounds=25 asked=25"),
            std::string::npos)
      << connector.out;
  EXPECT_NE(connector.out.find("burst cause=stop peer=127.0.0.1:" + port + " rounds=25 asked=25"),
            std::string::npos)
      << connector.out;
  EXPECT_NE(connector.out.find("summary bursts=2 whole=2 rounds=50"), std::string::npos) << connector.out;
  EXPECT_EQ(listener.exit_code, 0) << listener.err;
  EXPECT_NE(listener.out.find("listening port=" + port), std::string::npos) << listener.out;
  EXPECT_NE(listener.out.find("answered=50"), std::string::npos) << listener.out;
}

// The goal: two hosts with no traffic but tracesync probe's bursts.
TEST(CliProbe, TwoHostsWithOnlyProbeBurstsInAnHourAreSynchronizedWithinTwiceTheMinimumDelay) {
  testing::TempDir dir;
  const std::string out = dir.file("exp");
  const auto simulated = run_command(tracesync_binary(), {"simulate", "-o", out, "--hosts", "2", "--rate", "0",
                                                          "--duration", "1h", "--probe-rounds", "50", "--min-delay",
                                                          "40us", "--seed", "37", "--quiet"});
  ASSERT_EQ(simulated.exit_code, 0) << simulated.err;
  // Linear clocks, assumed so (--clock-stability 0), and with the default
  // assumption of 100 ppm: the truth inside every bound either way.
  for (const std::string stability : {"0", "100"}) {
    SCOPED_TRACE("--clock-stability " + stability);
    const auto synced = run_command(tracesync_binary(),
                                    {"sync", "--format", "json", "--clock-stability", stability, out});
    ASSERT_EQ(synced.exit_code, 0) << synced.err;
    const json report = json::parse(synced.out);
    ASSERT_EQ(report["links"].size(), 1u);
    const json& link = report["links"][0];
    EXPECT_EQ(link["quality"], "ACCURATE");
    // A handshake, then two bursts of 50 round trips: 2 messages each (a
    // lost segment's retransmission is counted apart).
    EXPECT_GE(link["messages"].get<int>(), 200);
    EXPECT_EQ(link["evidence"]["messages"][0]["kind"], "tcp");
    testing::write_file(dir.file("report.json"), synced.out);
    const auto checked = run_command(tracesync_binary(), {"check-truth", "--format", "json", dir.file("report.json"),
                                                          out + "/truth.json"});
    EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;
    const json verdict = json::parse(checked.out);
    EXPECT_EQ(verdict["violations"], 0);
    EXPECT_EQ(verdict["checked"], 2);
    for (const json& t : report["traces"]) EXPECT_TRUE(t["synchronized"].get<bool>()) << t["name"];
    if (stability != "0") continue;
    // The bursts are at the trace's two ends: the bound there.
    for (const json& t : report["traces"]) {
      for (const json& s : t["segments"]) {
        EXPECT_LE(s["uncertainty_first_ns"].get<double>(), 2 * 40'000.0) << t["name"];
        EXPECT_LE(s["uncertainty_last_ns"].get<double>(), 2 * 40'000.0) << t["name"];
      }
    }
  }
}

TEST(CliProbe, TheHtmlReportSaysWhatEachLinkRestsOn) {
  testing::TempDir dir;
  const std::string out = dir.file("exp");
  ASSERT_EQ(run_command(tracesync_binary(), {"simulate", "-o", out, "--hosts", "2", "--rate", "0", "--duration",
                                             "1min", "--probe-rounds", "10", "--loss", "0", "--retransmit", "0",
                                             "--quiet"})
                .exit_code,
            0);
  const auto html = run_command(tracesync_binary(), {"sync", "--format", "html", out});
  ASSERT_EQ(html.exit_code, 0) << html.err;
  // A handshake (3 segments) and two bursts of 10 round trips.
  EXPECT_NE(html.out.find("<p class=\"evidence\">Evidence: 43 tcp message(s).</p>"), std::string::npos);
}

// In kernel traces the probe's round trips are TCP segments: --probe-port
// (the port it listened on) tells them apart, in sync's evidence and check.
TEST(CliProbe, KernelTracesProbeSegmentsAreToldApartByTheProbePort) {
  testing::TempDir dir;
  const std::string out = dir.file("exp");
  // Other traffic beside the probe's connection (the simulated probe
  // listens on 7300), no loss: a handshake and two bursts of 10 round trips.
  ASSERT_EQ(run_command(tracesync_binary(), {"simulate", "-o", out, "--hosts", "2", "--rate", "4", "--duration",
                                             "1min", "--probe-rounds", "10", "--loss", "0", "--retransmit", "0",
                                             "--quiet"})
                .exit_code,
            0);
  constexpr int kProbeSegments = 3 + 2 * 10 * 2;
  for (const bool told : {false, true}) {
    SCOPED_TRACE(told ? "--probe-port 7300" : "no --probe-port");
    std::vector<std::string> sync = {"sync", "--format", "json", out};
    if (told) sync.insert(sync.end(), {"--probe-port", "7300"});
    const auto synced = run_command(tracesync_binary(), sync);
    ASSERT_EQ(synced.exit_code, 0) << synced.err;
    const json report = json::parse(synced.out);
    ASSERT_EQ(report["links"].size(), 1u);
    const json& link = report["links"][0];
    EXPECT_GT(link["messages"].get<int>(), kProbeSegments);  // the other traffic too
    EXPECT_EQ(link["evidence"]["probe_messages"], told ? kProbeSegments : 0);
    EXPECT_EQ(link["evidence"]["messages"][0]["kind"], "tcp");
    EXPECT_EQ(link["evidence"]["messages"][0]["messages"], link["messages"]);
    EXPECT_EQ(report["options"].contains("probe_ports"), told);
    EXPECT_EQ(link["matching"].contains("probe_matches"), told);
    if (told) {
      EXPECT_EQ(report["options"]["probe_ports"], json::array({7300}));
      EXPECT_EQ(link["matching"]["probe_matches"], kProbeSegments);
      EXPECT_EQ(report["matching"]["probe_matches"], kProbeSegments);
    }

    std::vector<std::string> check = {"check", "--format", "json", out};
    if (told) check.insert(check.end(), {"--probe-port", "7300"});
    const auto checked = run_command(tracesync_binary(), check);
    ASSERT_EQ(checked.exit_code, 0) << checked.err;
    const json traces = json::parse(checked.out)["traces"];
    ASSERT_EQ(traces.size(), 2u);
    for (const json& t : traces) {
      EXPECT_EQ(t["probe_rounds"], told) << t["name"];
      EXPECT_EQ(t.contains("probe_segments"), told) << t["name"];
      // Each segment is a send on one host and a receive on the other.
      if (told) {
        EXPECT_EQ(t["probe_segments"], kProbeSegments) << t["name"];
      }
    }
  }
  const auto html = run_command(tracesync_binary(), {"sync", "--format", "html", "--probe-port", "7300", out});
  ASSERT_EQ(html.exit_code, 0) << html.err;
  EXPECT_NE(html.out.find("; 43 of tracesync probe&#39;s rounds.</p>"), std::string::npos)
      << html.out.substr(html.out.find("class=\"evidence\""), 200);
  for (const std::string command : {"sync", "check"}) {
    const auto bad = run_command(tracesync_binary(), {command, "--probe-port", "70000", out});
    EXPECT_EQ(bad.exit_code, 2) << command;
    EXPECT_NE(bad.err.find("--probe-port: "), std::string::npos) << command << ": " << bad.err;
    EXPECT_NE(bad.err.find("70000"), std::string::npos) << command << ": " << bad.err;
  }
}

TEST(CliProbe, SimulateRefusesProbeOptionsThatMakeNoSense) {
  testing::TempDir dir;
  const auto every_alone = run_command(tracesync_binary(), {"simulate", "-o", dir.file("x"), "--probe-every", "10s"});
  EXPECT_EQ(every_alone.exit_code, 2);
  EXPECT_NE(every_alone.err.find("--probe-every needs --probe-rounds"), std::string::npos) << every_alone.err;
  const auto too_many = run_command(tracesync_binary(), {"simulate", "-o", dir.file("x"), "--probe-rounds", "5000"});
  EXPECT_EQ(too_many.exit_code, 2);
  EXPECT_NE(too_many.err.find("--probe-rounds: 5000 is outside [0, 1000]"), std::string::npos) << too_many.err;
}

}  // namespace
}  // namespace tracesync
