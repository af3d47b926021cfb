// SPDX-License-Identifier: EPL-2.0
#include "session/link_evidence.h"

#include <algorithm>
#include <array>
#include <optional>

#include "snapshot/latency_bins.h"

namespace tracesync::session {
namespace {

namespace latency = snapshot::latency;

// One direction's latencies, counted as they come: receive-before-send,
// extremes and histograms, before and after.
class DirectionTally {
 public:
  explicit DirectionTally(bool synchronized) : synchronized_(synchronized) {}

  void add(model::Quad before, model::Quad after) {
    ++messages_;
    before_.add(before);
    if (synchronized_) after_.add(after);
  }

  void report(v1::LatencyDirection* out) const {
    out->set_messages(messages_);
    out->set_receive_before_send_before(before_.negative);
    if (messages_ > 0) {
      out->set_min_before_ns(model::to_double(before_.min));
      out->set_max_before_ns(model::to_double(before_.max));
    }
    if (synchronized_) {
      out->set_receive_before_send_after(after_.negative);
      if (messages_ > 0) {
        out->set_min_after_ns(model::to_double(after_.min));
        out->set_max_after_ns(model::to_double(after_.max));
      }
    }
    // The smallest run of bins holding every latency and bin 0 (where the
    // receive-before-send side begins), the same for before and after so
    // that they compare.
    int first = 0, last = 0;
    for (const Side* side : {&before_, &after_}) {
      if (side->count == 0) continue;
      first = std::min(first, side->first_bin);
      last = std::max(last, side->last_bin);
    }
    out->set_first_bin(first);
    for (int bin = first; bin <= last; ++bin) {
      out->add_before(before_.bins[index(bin)]);
      if (synchronized_) out->add_after(after_.bins[index(bin)]);
    }
  }

 private:
  static std::size_t index(int bin) { return static_cast<std::size_t>(bin + latency::kLastBin); }

  struct Side {
    uint64_t count = 0;
    uint64_t negative = 0;
    model::Quad min = 0;
    model::Quad max = 0;
    int first_bin = 0;
    int last_bin = 0;
    std::array<uint64_t, latency::kBinCount> bins{};

    void add(model::Quad latency_ns) {
      const int bin = latency::bin_of(model::to_double(latency_ns));
      if (count == 0) {
        min = max = latency_ns;
        first_bin = last_bin = bin;
      } else {
        min = std::min(min, latency_ns);
        max = std::max(max, latency_ns);
        first_bin = std::min(first_bin, bin);
        last_bin = std::max(last_bin, bin);
      }
      ++count;
      if (latency_ns < 0) ++negative;
      ++bins[index(bin)];
    }
  };

  bool synchronized_;
  uint64_t messages_ = 0;
  Side before_;
  Side after_;
};

}  // namespace

void LinkEvidence::add(const hull::LinkMessage& message) {
  (message.is_lower() ? a_to_b_ : b_to_a_).append(message.point);
}

v1::LatencyProof LinkEvidence::proof(const network::PiecewiseTransform* a_onto_reference,
                                     const network::PiecewiseTransform* b_onto_reference) const {
  const bool synchronized = a_onto_reference != nullptr && b_onto_reference != nullptr;
  // Receive minus send in quad: exact for any two int64 timestamps.
  const auto own = [](model::Nanoseconds t) { return static_cast<model::Quad>(t); };
  const auto reference = [&](const network::PiecewiseTransform* onto_reference, model::Nanoseconds t) {
    return synchronized ? onto_reference->at(static_cast<model::Quad>(t)) : model::Quad(0);
  };
  DirectionTally a_to_b(synchronized), b_to_a(synchronized);
  a_to_b_.for_each([&](const model::Point& p) {
    a_to_b.add(own(p.y) - own(p.x), reference(b_onto_reference, p.y) - reference(a_onto_reference, p.x));
  });
  b_to_a_.for_each([&](const model::Point& p) {
    b_to_a.add(own(p.x) - own(p.y), reference(a_onto_reference, p.x) - reference(b_onto_reference, p.y));
  });
  v1::LatencyProof out;
  out.set_synchronized(synchronized);
  a_to_b.report(out.mutable_a_to_b());
  b_to_a.report(out.mutable_b_to_a());
  return out;
}

}  // namespace tracesync::session
