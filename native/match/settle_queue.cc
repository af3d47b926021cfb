// SPDX-License-Identifier: EPL-2.0
#include "match/settle_queue.h"

#include <algorithm>
#include <iterator>

namespace tracesync::match {
namespace {

// Time order; the record number orders equal times, so that the order
// records leave in does not depend on how pushes were grouped into runs.
// (An object, not a function: passed by pointer, sort could not inline it.)
constexpr struct {
  bool operator()(const SettleQueue::Waiting& a, const SettleQueue::Waiting& b) const {
    return a.time != b.time ? a.time < b.time : a.record < b.record;
  }
} earlier;

}  // namespace

void SettleQueue::pop(model::Nanoseconds limit, bool everything, std::vector<Waiting>& out) {
  if (!inbox_.empty() && (everything || inbox_earliest_ < limit)) seal_inbox();
  const auto first = static_cast<std::ptrdiff_t>(out.size());
  std::size_t kept = 0;
  for (std::size_t i = 0; i < runs_.size(); ++i) {
    Run& run = runs_[i];
    const auto begin = run.records.begin() + static_cast<std::ptrdiff_t>(run.head);
    const auto end = everything ? run.records.end()
                                : std::partition_point(begin, run.records.end(),
                                                       [&](const Waiting& w) { return w.time < limit; });
    // Each run's due records are in order: merge them into those before.
    const auto middle = static_cast<std::ptrdiff_t>(out.size());
    out.insert(out.end(), begin, end);
    if (middle != first && begin != end) std::inplace_merge(out.begin() + first, out.begin() + middle, out.end(), earlier);
    run.head = static_cast<std::size_t>(end - run.records.begin());
    if (run.size() == 0) {
      give_back(std::move(run.records));
    } else {
      if (kept != i) runs_[kept] = std::move(run);
      ++kept;
    }
  }
  runs_.resize(kept);
}

void SettleQueue::seal_inbox() {
  runs_.reserve(runs_.size() + 1);  // before the inbox moves: a failure loses nothing
  std::sort(inbox_.begin(), inbox_.end(), earlier);
  runs_.push_back(Run{std::move(inbox_), 0});
  inbox_ = take_buffer();
  inbox_earliest_ = INT64_MAX;
  while (runs_.size() >= 2 && runs_[runs_.size() - 2].size() < 2 * runs_.back().size()) merge_last_two();
}

void SettleQueue::merge_last_two() {
  // Allocated before either run moves: a failure loses nothing.
  std::vector<Waiting> merged = take_buffer();
  merged.reserve(runs_.back().size() + runs_[runs_.size() - 2].size());
  Run newer = std::move(runs_.back());
  runs_.pop_back();
  Run& older = runs_.back();
  const auto from = [](const Run& run) { return run.records.cbegin() + static_cast<std::ptrdiff_t>(run.head); };
  std::merge(from(older), older.records.cend(), from(newer), newer.records.cend(), std::back_inserter(merged), earlier);
  give_back(std::move(older.records));
  give_back(std::move(newer.records));
  older = Run{std::move(merged), 0};
}

std::vector<SettleQueue::Waiting> SettleQueue::take_buffer() {
  if (spare_.empty()) return {};
  std::vector<Waiting> buffer = std::move(spare_.back());
  spare_.pop_back();
  return buffer;
}

void SettleQueue::give_back(std::vector<Waiting>&& buffer) {
  buffer.clear();
  // Never grows spare_ (a failure there would lose a run being given back).
  if (spare_.size() < spare_.capacity()) spare_.push_back(std::move(buffer));
}

}  // namespace tracesync::match
