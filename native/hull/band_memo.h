// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <deque>

#include "model/point.h"
#include "model/quad.h"

namespace tracesync::hull {

// Local bands computed at instants, kept so that a later computation at the
// same instant can take them instead of running the band's programs again
// (docs/local-band.md, "A result past the budget reuses the bands before
// it"). A band at t is a function of t and of the points it reads: within
// its reach, max(W, far reach + 2 buckets) of t (W its window,
// local_band_candidate.h), and, for whether the data check the assumption
// there, within the horizon S. Points are only ever added to a link, never
// taken away, so a band kept is the band the programs would give again:
// - when no point came since within its reach and the check's verdict
//   cannot change by points beyond it (each direction has the check's
//   points within S after t already): `reads_to` and `checked_after`;
// - otherwise, when its Key is the same: the same W and verdict, and as
//   many points of each direction within its reach, hence the same ones.
//
// Asked in rising instants, as the stream computes them: entries before the
// instant asked are dropped.
class BandMemo {
 public:
  struct Key {
    model::Nanoseconds window = 0;  // W at t
    bool checked = false;           // the data can check the stability assumption at t
    uint64_t lower = 0;             // points of each direction within the band's reach
    uint64_t upper = 0;

    friend bool operator==(const Key&, const Key&) = default;
  };

  // What the band's programs gave at one instant, all a stream takes from them.
  struct Band {
    bool empty = false;     // under the assumption: a breach
    double needed_ppm = 0;  // when empty, the stability that is not (0: none is)
    bool bounded = false;   // the band taken (under the needed stability, when empty) is bounded
    int64_t milli_ppm = 0;  // the stability it was taken under
    model::Quad centre = 0;
    model::Quad half_width = 0;
    model::Quad estimate = 0;  // a candidate's: band::estimate_of
  };

  struct Entry {
    model::Nanoseconds t = 0;
    Key key;
    model::Nanoseconds reads_to = 0;  // t + its reach: no point beyond changes the band
    bool checked_after = false;       // nor the check's verdict
    Band band;
  };

  // The entry kept at t, if any: still the band at t when no point at or
  // before its `reads_to` came since (`added_from`: the least abscissa of
  // the points come since it was kept) and the verdict is settled;
  // otherwise the caller compares its Key.
  const Entry* at(model::Nanoseconds t) {
    while (!entries_.empty() && entries_.front().t < t) entries_.pop_front();
    if (entries_.empty() || entries_.front().t != t) return nullptr;
    return &entries_.front();
  }
  static bool untouched(const Entry& e, model::Nanoseconds added_from) {
    return e.checked_after && e.reads_to < added_from;
  }

  // After every instant kept so far.
  void keep(const Entry& entry) { entries_.push_back(entry); }

  std::size_t size() const { return entries_.size(); }

 private:
  std::deque<Entry> entries_;
};

}  // namespace tracesync::hull
