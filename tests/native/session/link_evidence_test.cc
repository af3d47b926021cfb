// SPDX-License-Identifier: EPL-2.0
// The latency proof (LinkEvidence, and the session that keeps it): counts,
// extremes and histograms against brute force on random links, a link with
// known receive-before-send before and none after, and a network where a
// link off the tree still shows some after synchronization.

#include "session/link_evidence.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "session/point_log.h"

#include "session/session.h"
#include "snapshot/latency_bins.h"

namespace tracesync::session {
namespace {

using model::Quad;
namespace latency = snapshot::latency;

constexpr int64_t kEpoch = 1'700'000'000'000'000'000;

// The bin holding x, by trying every bin's range.
int brute_force_bin(double x) {
  for (int bin = -latency::kLastBin; bin <= latency::kLastBin; ++bin) {
    const latency::BinRange r = latency::bin_range(bin);
    if (bin > 0 ? (r.low <= x && x < r.high) : bin < 0 ? (r.low < x && x <= r.high) : (-1 < x && x < 1)) return bin;
  }
  ADD_FAILURE() << x << " is in no bin";
  return 0;
}

// What a direction's report must say about these latencies.
void expect_direction(const v1::LatencyDirection& got, const std::vector<Quad>& before, const std::vector<Quad>& after,
                      bool synchronized) {
  ASSERT_EQ(got.messages(), before.size());
  const auto negative = [](const std::vector<Quad>& l) {
    return static_cast<uint64_t>(std::count_if(l.begin(), l.end(), [](Quad x) { return x < 0; }));
  };
  EXPECT_EQ(got.receive_before_send_before(), negative(before));
  EXPECT_EQ(got.receive_before_send_after(), synchronized ? negative(after) : 0);
  std::map<int, uint64_t> before_bins, after_bins;
  for (const Quad x : before) ++before_bins[brute_force_bin(model::to_double(x))];
  if (synchronized) {
    for (const Quad x : after) ++after_bins[brute_force_bin(model::to_double(x))];
  }
  if (!before.empty()) {
    EXPECT_EQ(got.min_before_ns(), model::to_double(*std::min_element(before.begin(), before.end())));
    EXPECT_EQ(got.max_before_ns(), model::to_double(*std::max_element(before.begin(), before.end())));
  }
  if (synchronized && !after.empty()) {
    EXPECT_EQ(got.min_after_ns(), model::to_double(*std::min_element(after.begin(), after.end())));
    EXPECT_EQ(got.max_after_ns(), model::to_double(*std::max_element(after.begin(), after.end())));
  }
  // The run of bins: from the smallest used (or 0) to the largest (or 0).
  int first = 0, last = 0;
  for (const auto* bins : {&before_bins, &after_bins}) {
    if (bins->empty()) continue;
    first = std::min(first, bins->begin()->first);
    last = std::max(last, bins->rbegin()->first);
  }
  EXPECT_EQ(got.first_bin(), first);
  ASSERT_EQ(got.before_size(), last - first + 1);
  ASSERT_EQ(got.after_size(), synchronized ? last - first + 1 : 0);
  for (int bin = first; bin <= last; ++bin) {
    const int i = bin - first;
    EXPECT_EQ(got.before(i), before_bins.count(bin) ? before_bins[bin] : 0) << "bin " << bin;
    if (synchronized) {
      EXPECT_EQ(got.after(i), after_bins.count(bin) ? after_bins[bin] : 0) << "bin " << bin;
    }
  }
}

// A random piecewise map near t + shift: slopes within 50 ppm of 1.
network::PiecewiseTransform random_transform(std::mt19937_64& random, int64_t first, int64_t last, Quad shift) {
  std::uniform_real_distribution<double> unit(0, 1);
  const int pieces = 1 + static_cast<int>(unit(random) * 4);
  std::vector<network::TransformPiece> out;
  Quad x = static_cast<Quad>(first), y = x + shift;
  for (int i = 0; i < pieces; ++i) {
    const Quad next = i + 1 == pieces ? static_cast<Quad>(last) : x + (static_cast<Quad>(last) - x) * unit(random) / 2;
    const Quad slope = 1 + (unit(random) - 0.5) * 1e-4;
    out.push_back({x, next, model::LinearTransform{slope, y - slope * x}, 0, 0});
    y += slope * (next - x);
    x = next;
  }
  return network::PiecewiseTransform(std::move(out));
}

TEST(LinkEvidence, CountsAndHistogramsEqualBruteForceOnRandomLinks) {
  std::mt19937_64 random(22);
  std::uniform_real_distribution<double> unit(0, 1);
  for (int round = 0; round < 30; ++round) {
    const int64_t span = 60'000'000'000;  // a minute
    // b's clock is ahead of a's by up to 10 s either way; the transforms
    // put both near a's clock, with errors up to ~1 ms (so that some
    // latencies are negative after, too).
    const auto offset = static_cast<int64_t>((unit(random) - 0.5) * 2e10);
    const network::PiecewiseTransform ta = random_transform(random, kEpoch - span, kEpoch + 2 * span, 0);
    const network::PiecewiseTransform tb =
        random_transform(random, kEpoch + offset - span, kEpoch + offset + 2 * span,
                         -static_cast<Quad>(offset) + static_cast<Quad>((unit(random) - 0.5) * 2e6));
    const bool synchronized = round % 5 != 4;
    // Every third round keeps its messages in temporary files (live -o),
    // enough of them for several of the files' writes.
    const bool on_disk = round % 3 == 1;
    LinkEvidence evidence;
    if (on_disk) evidence.keep_on_disk();
    std::vector<Quad> ab_before, ab_after, ba_before, ba_after;
    const int messages = round % 7 == 0 ? 0 : 1 + static_cast<int>(unit(random) * (on_disk ? 20000 : 3000));
    for (int i = 0; i < messages; ++i) {
      const auto t = kEpoch + static_cast<int64_t>(unit(random) * span);
      // Latencies from 10 ns to 100 ms, log-uniform.
      const auto delay = static_cast<int64_t>(std::pow(10.0, 1 + unit(random) * 7));
      if (unit(random) < 0.5) {  // a -> b: sent at t on a
        const int64_t send = t, receive = t + offset + delay;
        evidence.add(hull::LinkMessage::a_to_b(send, receive));
        ab_before.push_back(static_cast<Quad>(receive) - static_cast<Quad>(send));
        ab_after.push_back(tb.at(static_cast<Quad>(receive)) - ta.at(static_cast<Quad>(send)));
      } else {  // b -> a: sent at t + offset on b
        const int64_t send = t + offset, receive = t + delay;
        evidence.add(hull::LinkMessage::b_to_a(send, receive));
        ba_before.push_back(static_cast<Quad>(receive) - static_cast<Quad>(send));
        ba_after.push_back(ta.at(static_cast<Quad>(receive)) - tb.at(static_cast<Quad>(send)));
      }
    }
    EXPECT_EQ(evidence.messages(), static_cast<std::size_t>(messages));
    const v1::LatencyProof proof = synchronized ? evidence.proof(&ta, &tb) : evidence.proof(nullptr, nullptr);
    EXPECT_EQ(proof.synchronized(), synchronized);
    SCOPED_TRACE("round " + std::to_string(round) + (on_disk ? ", on disk" : ""));
    expect_direction(proof.a_to_b(), ab_before, ab_after, synchronized);
    expect_direction(proof.b_to_a(), ba_before, ba_after, synchronized);
  }
}

TEST(LinkEvidence, ReceiveBeforeSendBeforeAndNoneAfter) {
  // b's clock runs 5 ms ahead of a's; every message takes 50 us. Before,
  // each b -> a message arrives 4.95 ms before it was sent; after (b mapped
  // back by 5 ms), none does, and every latency is 50 us.
  const int64_t ahead = 5'000'000, delay = 50'000;
  LinkEvidence evidence;
  for (int64_t i = 0; i < 10; ++i) {
    const int64_t t = kEpoch + i * 1'000'000;
    evidence.add(hull::LinkMessage::a_to_b(t, t + ahead + delay));
    if (i % 2 == 0) evidence.add(hull::LinkMessage::b_to_a(t + ahead, t + delay));
  }
  // Received at the very instant it was sent (latency 0) is not before:
  // after synchronization for the first, before it for the second.
  evidence.add(hull::LinkMessage::a_to_b(kEpoch, kEpoch + ahead));
  evidence.add(hull::LinkMessage::b_to_a(kEpoch + ahead, kEpoch + ahead));
  const auto a = network::PiecewiseTransform::identity(kEpoch, kEpoch + 20'000'000);
  const network::PiecewiseTransform b(
      {{static_cast<Quad>(kEpoch), static_cast<Quad>(kEpoch + 20'000'000), model::LinearTransform{1, -static_cast<Quad>(ahead)}, 0, 0}});
  const v1::LatencyProof p = evidence.proof(&a, &b);
  EXPECT_TRUE(p.synchronized());
  EXPECT_EQ(p.a_to_b().messages(), 11u);
  EXPECT_EQ(p.b_to_a().messages(), 6u);
  EXPECT_EQ(p.a_to_b().receive_before_send_before(), 0u);
  EXPECT_EQ(p.b_to_a().receive_before_send_before(), 5u);
  EXPECT_EQ(p.a_to_b().receive_before_send_after(), 0u);
  EXPECT_EQ(p.b_to_a().receive_before_send_after(), 0u);
  EXPECT_EQ(p.b_to_a().min_before_ns(), -4'950'000);
  EXPECT_EQ(p.b_to_a().max_before_ns(), 0);
  EXPECT_EQ(p.b_to_a().min_after_ns(), 50'000);
  EXPECT_EQ(p.b_to_a().max_after_ns(), 5'000'000);
  EXPECT_EQ(p.a_to_b().min_after_ns(), 0);
  EXPECT_EQ(p.a_to_b().max_after_ns(), 50'000);
  // b -> a: five in bin(-4.95 ms) before and in bin(50 us) after, the run
  // of bins reaching from the lowest to the highest through 0.
  const int before_bin = latency::bin_of(-4'950'000), after_bin = latency::bin_of(50'000);
  EXPECT_EQ(p.b_to_a().first_bin(), before_bin);
  ASSERT_EQ(p.b_to_a().before_size(), latency::bin_of(5'000'000) - before_bin + 1);  // the latest after: 5 ms
  EXPECT_EQ(p.b_to_a().before(0), 5u);
  EXPECT_EQ(p.b_to_a().after(after_bin - before_bin), 5u);
  // a -> b: the run starts at 0.
  EXPECT_EQ(p.a_to_b().first_bin(), 0);
  EXPECT_EQ(p.a_to_b().before(latency::bin_of(5'050'000)), 10u);
}

// The proof in the detail of every link of a snapshot, only when asked for.
std::map<std::pair<std::string, std::string>, v1::Link> links_by_ends(const v1::Snapshot& s) {
  std::map<std::pair<std::string, std::string>, v1::Link> out;
  for (const v1::Link& l : s.links()) out[{l.a(), l.b()}] = l;
  return out;
}

v1::LatencyProof proof_of(const v1::Link& link) {
  v1::LinkDetail detail;
  EXPECT_TRUE(detail.ParseFromString(link.detail()));
  EXPECT_TRUE(detail.has_proof());
  return detail.proof();
}

// Messages both ways between two hosts, b's clock `ahead` of a's, taking
// `delay` ns; a few per millisecond over 10 ms.
void exchange(Session& s, const std::string& a, const std::string& b, int64_t ahead, int64_t delay) {
  for (int64_t i = 0; i < 10; ++i) {
    const int64_t t = kEpoch + i * 1'000'000;
    s.add_host_message(a, t, b, t + ahead + delay + i % 3);
    s.add_host_message(b, t + ahead + 500'000, a, t + 500'000 + delay + (i + 1) % 3);
  }
}

TEST(LinkEvidence, TheSessionKeepsItOnlyWhenAsked) {
  Session plain({});
  exchange(plain, "a", "b", 5'000'000, 40'000);
  v1::LinkDetail detail;
  ASSERT_TRUE(detail.ParseFromString(plain.snapshot().links(0).detail()));
  EXPECT_FALSE(detail.has_proof());

  SessionOptions options;
  options.keep_latency_evidence = true;
  Session s(options);
  exchange(s, "a", "b", 5'000'000, 40'000);
  const v1::LatencyProof p = proof_of(s.snapshot().links(0));
  EXPECT_TRUE(p.synchronized());
  EXPECT_EQ(p.a_to_b().messages() + p.b_to_a().messages(), 20u);
  EXPECT_EQ(p.b_to_a().receive_before_send_before(), 10u);  // b is 5 ms ahead
  EXPECT_EQ(p.a_to_b().receive_before_send_after() + p.b_to_a().receive_before_send_after(), 0u);
  // The link's own bound is within the latency: after, they stay near 40 us.
  EXPECT_GT(p.a_to_b().min_after_ns(), 0);
  EXPECT_LT(p.a_to_b().max_after_ns(), 80'000);
}

TEST(LinkEvidence, NoneAfterOnTreeLinksButAContradictingLinkOffTheTreeShowsSome) {
  // a-b and b-c agree that all three clocks are equal; c-a's messages say
  // c is 5 ms ahead of a, with latencies of 100 ns: no clock can satisfy
  // all three links. The network keeps two of them in its tree; the third's
  // messages then arrive before they were sent on the reference's time.
  SessionOptions options;
  options.keep_latency_evidence = true;
  Session s(options);
  exchange(s, "a", "b", 0, 40'000);
  exchange(s, "b", "c", 0, 40'000);
  exchange(s, "a", "c", 5'000'000, 100);
  const v1::Snapshot snapshot = s.snapshot();
  ASSERT_EQ(snapshot.islands_size(), 1);
  int in_tree = 0;
  uint64_t after_off_tree = 0;
  for (const auto& [ends, link] : links_by_ends(snapshot)) {
    const v1::LatencyProof p = proof_of(link);
    ASSERT_TRUE(p.synchronized());
    const uint64_t after = p.a_to_b().receive_before_send_after() + p.b_to_a().receive_before_send_after();
    if (link.in_tree()) {
      ++in_tree;
      EXPECT_EQ(after, 0u) << ends.first << "-" << ends.second;
    } else {
      after_off_tree += after;
    }
  }
  EXPECT_EQ(in_tree, 2);
  EXPECT_GT(after_off_tree, 0u);
}

// Sets an environment variable for a scope, then puts it back.
class ScopedEnvironment {
 public:
  ScopedEnvironment(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value, 1);
  }
  ~ScopedEnvironment() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

std::vector<model::Point> points_of(const PointLog& log) {
  std::vector<model::Point> out;
  log.for_each([&](const model::Point& p) { out.push_back(p); });
  return out;
}

TEST(PointLog, GivesBackEveryPointInOrderFromMemoryOrDisk) {
  std::vector<model::Point> appended;
  PointLog in_memory, on_disk;
  on_disk.keep_on_disk();
  // Read back at every size around the file's writes (4,096 points each).
  for (int64_t i = 0; i < 10'000; ++i) {
    const model::Point p{kEpoch + i * 1'000 - (i % 7) * 3, kEpoch - i * 999 + (i % 5)};
    appended.push_back(p);
    in_memory.append(p);
    on_disk.append(p);
    if (i % 4096 == 4095 || i % 4096 == 0 || i == 9'999) {
      ASSERT_EQ(points_of(on_disk), appended) << i + 1 << " points";
      ASSERT_EQ(on_disk.size(), appended.size());
    }
  }
  EXPECT_EQ(points_of(in_memory), appended);
  // Moved, the log still holds them (links are moved as their table grows).
  PointLog moved = std::move(on_disk);
  EXPECT_EQ(points_of(moved), appended);
}

TEST(PointLog, KeepsThePointsInMemoryWhenNoFileCanBeMade) {
  const ScopedEnvironment tmpdir("TMPDIR", "/nonexistent/tracesync-point-log");
  EXPECT_EQ(PointLog::directory(), "/nonexistent/tracesync-point-log");
  const std::string why = PointLog::cannot_make_file();
  EXPECT_NE(why.find("cannot make a temporary file in /nonexistent/tracesync-point-log: "), std::string::npos) << why;
  PointLog log;
  log.keep_on_disk();
  std::vector<model::Point> appended;
  for (int64_t i = 0; i < 9'000; ++i) {
    appended.push_back({i, 2 * i});
    log.append(appended.back());
  }
  EXPECT_EQ(points_of(log), appended);
}

}  // namespace
}  // namespace tracesync::session
