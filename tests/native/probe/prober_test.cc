// SPDX-License-Identifier: EPL-2.0
// tracesync probe's engine over loopback: whole bursts at start and stop, a
// peer that accepts and never answers (or is not there) named and skipped
// within the timeout, and the protocol's messages.

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <thread>

#include "probe/probe_wire.h"
#include "probe/prober.h"

namespace tracesync::probe {
namespace {

constexpr model::Nanoseconds kMs = 1'000'000;

struct ProbeRun {
  std::vector<BurstResult> bursts;
  std::vector<std::string> problems;
  ProbeSummary summary;
};

sigset_t no_signals() {
  sigset_t mask;
  pthread_sigmask(SIG_SETMASK, nullptr, &mask);
  return mask;
}

// Runs a prober to its end; `port` gets its listening port once open.
ProbeRun run(ProbeOptions options, std::atomic<int>* port = nullptr) {
  ProbeRun out;
  const UstEvents none;
  Prober prober(std::move(options), none, [&](const BurstResult& b) { out.bursts.push_back(b); },
                [&](const std::string& p) { out.problems.push_back(p); });
  const std::string problem = prober.open();
  EXPECT_EQ(problem, "");
  if (port != nullptr) port->store(prober.listening_port());
  static volatile std::sig_atomic_t never = 0;
  const sigset_t mask = no_signals();
  out.summary = prober.run(&never, &mask);
  return out;
}

PeerAddress loopback(int port) {
  return PeerAddress{"127.0.0.1", std::to_string(port), "127.0.0.1:" + std::to_string(port)};
}

TEST(ProbeWire, MessagesRoundTripAndStrangersAreRefused) {
  const WireMessage message{WireKind::kAnswer, 0x0102030405060708ULL};
  const auto bytes = encode(message);
  const auto back = decode(bytes.data());
  ASSERT_TRUE(back);
  EXPECT_EQ(back->kind, WireKind::kAnswer);
  EXPECT_EQ(back->round, message.round);
  EXPECT_EQ(bytes[8], 0x01);  // big-endian
  auto other = bytes;
  other[0] = 'G';  // "GET / HTTP..."
  EXPECT_FALSE(decode(other.data()));
  other = bytes;
  other[5] = 7;
  EXPECT_FALSE(decode(other.data()));
}

TEST(Prober, ANamedPeerGetsWholeBurstsAtStartAndAtStop) {
  std::atomic<int> port{0};
  ProbeOptions listener;
  listener.listen = PeerAddress{"127.0.0.1", "0", "127.0.0.1:0"};
  listener.duration = 3000 * kMs;  // it stops after the connector: it serves both bursts
  ProbeRun served;
  std::thread server([&] { served = run(listener, &port); });
  while (port.load() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ProbeOptions connector;
  connector.peers = {loopback(port.load())};
  connector.rounds = 30;
  connector.duration = 200 * kMs;
  const ProbeRun ran = run(connector);
  server.join();
  ASSERT_EQ(ran.bursts.size(), 2u) << (ran.problems.empty() ? "" : ran.problems[0]);
  EXPECT_EQ(ran.bursts[0].cause, BurstCause::kStart);
  EXPECT_EQ(ran.bursts[1].cause, BurstCause::kStop);
  for (const BurstResult& b : ran.bursts) {
    EXPECT_EQ(b.rtt_ns.size(), 30u);
    EXPECT_EQ(b.problem, "");
    for (const int64_t rtt : b.rtt_ns) EXPECT_GT(rtt, 0);
  }
  EXPECT_EQ(ran.summary.rounds, 60);
  EXPECT_TRUE(ran.summary.silent_peers.empty());
  EXPECT_EQ(served.summary.answered, 60);
  // The listener's own last burst had nobody left to go to.
  EXPECT_EQ(served.summary.bursts, 0);
}

TEST(Prober, APeerThatNeverAnswersIsNamedAndSkippedWithinTheTimeout) {
  // Accepts connections (the kernel's backlog) and never reads them.
  const int silent = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(silent, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(listen(silent, 8), 0);
  socklen_t length = sizeof address;
  getsockname(silent, reinterpret_cast<sockaddr*>(&address), &length);
  // And a port nobody listens on: the silent socket's, once closed, is not
  // reliable; take another one, closed at once.
  const int gone = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in gone_address{};
  gone_address.sin_family = AF_INET;
  gone_address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(gone, reinterpret_cast<sockaddr*>(&gone_address), sizeof gone_address);
  length = sizeof gone_address;
  getsockname(gone, reinterpret_cast<sockaddr*>(&gone_address), &length);
  close(gone);

  ProbeOptions options;
  options.peers = {loopback(ntohs(address.sin_port)), loopback(ntohs(gone_address.sin_port))};
  options.timeout = 300 * kMs;
  options.duration = 0;
  const auto started = std::chrono::steady_clock::now();
  const ProbeRun ran = run(options);
  const auto took = std::chrono::steady_clock::now() - started;
  close(silent);
  // Two bursts each (start, stop), none answered, each a timeout at most.
  EXPECT_LT(took, std::chrono::seconds(3));
  ASSERT_EQ(ran.summary.silent_peers.size(), 2u);
  bool named_silent = false;
  bool named_gone = false;
  for (const std::string& p : ran.problems) {
    named_silent |= p.find(options.peers[0].text + " did not answer within 300 ms: skipped") != std::string::npos;
    named_gone |= p.find(options.peers[1].text + " cannot be connected to") != std::string::npos;
  }
  EXPECT_TRUE(named_silent) << testing::PrintToString(ran.problems);
  EXPECT_TRUE(named_gone) << testing::PrintToString(ran.problems);
  for (const BurstResult& b : ran.bursts) EXPECT_TRUE(b.rtt_ns.empty());
}

TEST(Prober, BothEndsStoppingTogetherServeEachOthersLastBurst) {
  std::atomic<int> port{0};
  ProbeOptions listener;
  listener.listen = PeerAddress{"127.0.0.1", "0", "127.0.0.1:0"};
  listener.rounds = 20;
  listener.duration = 400 * kMs;
  ProbeRun served;
  std::thread server([&] { served = run(listener, &port); });
  while (port.load() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ProbeOptions connector;
  connector.peers = {loopback(port.load())};
  connector.rounds = 20;
  connector.duration = 400 * kMs;
  const ProbeRun ran = run(connector);
  server.join();
  // Each side had its own last burst answered whole.
  ASSERT_EQ(ran.bursts.size(), 2u);
  EXPECT_EQ(ran.bursts[1].rtt_ns.size(), 20u) << ran.bursts[1].problem;
  ASSERT_EQ(served.bursts.size(), 1u);
  EXPECT_EQ(served.bursts[0].cause, BurstCause::kStop);
  EXPECT_EQ(served.bursts[0].rtt_ns.size(), 20u) << served.bursts[0].problem;
}

// Waiting is sleeping: a run with periodic bursts that lingers 1 s after its
// stop burst (its peer does not stop) once spun in ppoll() through the
// linger, its periodic time being past. A spin burns the whole wait on CPU.
TEST(Prober, PeriodicBurstsAndTheLingerAtStopSleepInsteadOfSpinning) {
  std::atomic<int> port{0};
  ProbeOptions listener;
  listener.listen = PeerAddress{"127.0.0.1", "0", "127.0.0.1:0"};
  listener.duration = 4000 * kMs;
  ProbeRun served;
  std::thread server([&] { served = run(listener, &port); });
  while (port.load() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ProbeOptions connector;
  connector.peers = {loopback(port.load())};
  connector.rounds = 5;
  connector.every = 1000 * kMs;
  connector.duration = 1500 * kMs;
  rusage before{};
  getrusage(RUSAGE_THREAD, &before);
  const auto started = std::chrono::steady_clock::now();
  const ProbeRun ran = run(connector);
  const auto wall = std::chrono::steady_clock::now() - started;
  rusage after{};
  getrusage(RUSAGE_THREAD, &after);
  server.join();
  const auto cpu = std::chrono::seconds(after.ru_utime.tv_sec + after.ru_stime.tv_sec -
                                        before.ru_utime.tv_sec - before.ru_stime.tv_sec) +
                   std::chrono::microseconds(after.ru_utime.tv_usec + after.ru_stime.tv_usec -
                                             before.ru_utime.tv_usec - before.ru_stime.tv_usec);
  ASSERT_EQ(ran.bursts.size(), 3u);  // start, periodic, stop
  EXPECT_EQ(ran.bursts[1].cause, BurstCause::kPeriodic);
  EXPECT_GT(wall, std::chrono::milliseconds(2400));  // the 1 s linger happened
  // Three bursts of 5 round trips (a wait each), a few more each: dozens;
  // a spin waits ten thousand times a second.
  EXPECT_LT(ran.summary.waits, 200);
  EXPECT_LT(cpu, wall / 4) << "CPU time " << cpu.count() << " us over " << wall.count() << " ns of waiting";
}

}  // namespace
}  // namespace tracesync::probe
