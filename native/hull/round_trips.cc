// SPDX-License-Identifier: EPL-2.0
#include "hull/round_trips.h"

#include <algorithm>
#include <optional>

namespace tracesync::hull {
namespace {

using model::Nanoseconds;
using model::Quad;

struct Stamped {
  Nanoseconds local;  // time on the clock the pairing walks
  bool is_receive;
  const LinkMessage* message;
};

// Walks one host's timeline: every receive remembered, the next send after
// it closes a round trip with it. `make` turns (request, reply) into a
// RoundTrip, or nothing when the pair is not causal.
template <typename Make>
void pair_on_timeline(std::vector<Stamped>& timeline, std::vector<RoundTrip>& out, Make make) {
  std::sort(timeline.begin(), timeline.end(), [](const Stamped& x, const Stamped& y) {
    return x.local != y.local ? x.local < y.local : x.is_receive > y.is_receive;
  });
  const LinkMessage* pending = nullptr;
  for (const Stamped& s : timeline) {
    if (s.is_receive) {
      pending = s.message;
    } else if (pending) {
      if (auto trip = make(*pending, *s.message)) out.push_back(*trip);
      pending = nullptr;
    }
  }
}

}  // namespace

std::vector<RoundTrip> find_round_trips(std::span<const LinkMessage> messages) {
  std::vector<RoundTrip> out;
  std::vector<Stamped> on_b;
  std::vector<Stamped> on_a;
  for (const LinkMessage& m : messages) {
    // a -> b: received on b at y, sent from a at x. b -> a: sent from b at y, received on a at x.
    on_b.push_back({m.point.y, m.is_lower(), &m});
    on_a.push_back({m.point.x, !m.is_lower(), &m});
  }
  // Started by a: T1 = request.x, T2 = request.y, T3 = reply.y, T4 = reply.x.
  pair_on_timeline(on_b, out, [](const LinkMessage& request, const LinkMessage& reply) -> std::optional<RoundTrip> {
    const Quad t1 = request.point.x, t2 = request.point.y, t3 = reply.point.y, t4 = reply.point.x;
    if (t4 < t1 || t3 < t2) return std::nullopt;
    return RoundTrip{(t1 + t4) / 2, ((t2 - t1) + (t3 - t4)) / 2, ((t4 - t1) - (t3 - t2)) / 2};
  });
  // Started by b: T1 = request.y, T2 = request.x, T3 = reply.x, T4 = reply.y (b's view);
  // the offset of b relative to a is the negation of a's relative to b.
  pair_on_timeline(on_a, out, [](const LinkMessage& request, const LinkMessage& reply) -> std::optional<RoundTrip> {
    const Quad t1 = request.point.y, t2 = request.point.x, t3 = reply.point.x, t4 = reply.point.y;
    if (t4 < t1 || t3 < t2) return std::nullopt;
    return RoundTrip{(t2 + t3) / 2, -((t2 - t1) + (t3 - t4)) / 2, ((t4 - t1) - (t3 - t2)) / 2};
  });
  return out;
}

}  // namespace tracesync::hull
