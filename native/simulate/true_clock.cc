// SPDX-License-Identifier: EPL-2.0
#include "simulate/true_clock.h"

#include <algorithm>

#include "simulate/host_clock.h"

namespace tracesync::simulate {

using model::Quad;

TrueClock TrueClock::of(const HostClock& clock) {
  std::vector<Piece> pieces;
  for (const auto& s : clock.segments()) {
    pieces.push_back({s.from_true_ns, s.true_to_local.apply(s.from_true_ns), s.true_to_local.slope});
  }
  return TrueClock(std::move(pieces));
}

Quad TrueClock::local_at(Quad true_time) const {
  auto after = std::upper_bound(pieces_.begin() + 1, pieces_.end(), true_time,
                                [](Quad t, const Piece& p) { return t < static_cast<Quad>(p.from_true_ns); });
  const Piece& p = *std::prev(after);
  return p.from_local + p.slope * (true_time - static_cast<Quad>(p.from_true_ns));
}

Quad TrueClock::true_at(Quad local) const {
  // The clock increases, so the pieces' local starts are in order too.
  auto after = std::upper_bound(pieces_.begin() + 1, pieces_.end(), local,
                                [](Quad l, const Piece& p) { return l < p.from_local; });
  const Piece& p = *std::prev(after);
  return static_cast<Quad>(p.from_true_ns) + (local - p.from_local) / p.slope;
}

}  // namespace tracesync::simulate
