// SPDX-License-Identifier: EPL-2.0
#include "network/thesis_workload.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <limits>
#include <random>

#include "network/baseline_network.h"
#include "network/edge_table.h"
#include "network/incremental_network.h"
#include "network/islands.h"
#include "network/spanning_forest.h"

namespace tracesync::network {
namespace {

// Table 4.1 (= Table 5.1): vertices, insertions, joins, cycle edges that
// stay, cycle edges removed, weight updates; a million operations each.
struct TableRow {
  double vertices, insertions, joins, stay, remove, update;
};
constexpr std::array<TableRow, 6> kThesisTable{{
    {10000, 4991, 2503, 45449, 946879, 178},
    {20000, 9892, 5052, 76404, 908556, 96},
    {30000, 15005, 7496, 102672, 874761, 66},
    {40000, 19955, 10021, 125650, 844322, 52},
    {50000, 24959, 12519, 145733, 816753, 36},
    {60000, 29953, 15022, 164104, 790885, 36},
}};
constexpr double kTableOperations = 1'000'000;

// A field of the table as a function of n, linear between rows, clamped outside.
template <typename Field>
double interpolate(double n, Field field) {
  if (n <= kThesisTable.front().vertices) return field(kThesisTable.front());
  for (std::size_t i = 1; i < kThesisTable.size(); ++i) {
    const TableRow& lo = kThesisTable[i - 1];
    const TableRow& hi = kThesisTable[i];
    if (n <= hi.vertices) {
      const double t = (n - lo.vertices) / (hi.vertices - lo.vertices);
      return field(lo) + t * (field(hi) - field(lo));
    }
  }
  return field(kThesisTable.back());
}

std::size_t rounded(double x) { return static_cast<std::size_t>(std::llround(std::max(0.0, x))); }

// Random numbers defined here rather than by the standard library's
// distributions, whose output differs between implementations.
class Random {
 public:
  explicit Random(uint64_t seed) : engine_(seed) {}
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(engine_() % n); }
  double unit() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }  // [0, 1)
  double between(double lo, double hi) { return lo + (hi - lo) * unit(); }

 private:
  std::mt19937_64 engine_;
};

class WorkloadBuilder {
 public:
  WorkloadBuilder(const WorkloadCounts& mix, uint64_t seed) : wanted_(mix), random_(seed) {}

  ThesisWorkload build(double growth_share);

 private:
  std::size_t remaining(WorkloadKind kind) const { return wanted_[kind] - workload_.counts[kind]; }
  std::size_t growth_remaining() const {
    return remaining(WorkloadKind::kNewTree) + remaining(WorkloadKind::kInsertion) + remaining(WorkloadKind::kJoin);
  }
  std::size_t other_remaining() const {
    return remaining(WorkloadKind::kCycleEntering) + remaining(WorkloadKind::kCycleIgnored) +
           remaining(WorkloadKind::kWeightDecrease);
  }
  // Picks one of `kinds` with probability proportional to what remains of
  // it, among those `attempt` manages; false when none can be done now.
  template <std::size_t N, typename Attempt>
  bool one_of(const std::array<WorkloadKind, N>& kinds, Attempt attempt);

  bool grow(WorkloadKind kind);
  bool add_cycle_edge(WorkloadKind kind);
  bool decrease_weight();

  Vertex new_vertex();
  Vertex random_member(Vertex island) { return members_[island][random_.below(members_[island].size())]; }
  void record(WorkloadKind kind, uint8_t new_vertices, Vertex a, Vertex b, double weight);
  void merge(Vertex a, Vertex b);

  WorkloadCounts wanted_;
  Random random_;
  ThesisWorkload workload_;
  Islands islands_;
  std::vector<std::vector<Vertex>> members_;  // by island representative
  std::vector<Vertex> trees_;                 // representatives of the trees
  std::vector<std::size_t> tree_position_;    // by representative: index in trees_
  EdgeTable edges_;
  // Every entering cycle edge weighs less than any edge before it.
  double floor_ = 1;
};

template <std::size_t N, typename Attempt>
bool WorkloadBuilder::one_of(const std::array<WorkloadKind, N>& kinds, Attempt attempt) {
  std::array<bool, N> failed{};
  for (;;) {
    std::size_t total = 0;
    for (std::size_t i = 0; i < N; ++i) total += failed[i] ? 0 : remaining(kinds[i]);
    if (total == 0) return false;
    std::size_t pick = random_.below(total);
    std::size_t i = 0;
    for (;; ++i) {
      const std::size_t r = failed[i] ? 0 : remaining(kinds[i]);
      if (pick < r) break;
      pick -= r;
    }
    if (attempt(kinds[i])) return true;
    failed[i] = true;
  }
}

Vertex WorkloadBuilder::new_vertex() {
  const Vertex v = islands_.add();
  char id[16];
  std::snprintf(id, sizeof id, "h%06u", v);
  workload_.ids.emplace_back(id);
  // A clock with a drift of up to 100 ppm and an offset of up to ~17 minutes.
  workload_.clocks.push_back({1 + random_.between(-1e-4, 1e-4), random_.between(-1e12, 1e12)});
  members_.push_back({v});
  tree_position_.push_back(trees_.size());
  trees_.push_back(v);
  return v;
}

void WorkloadBuilder::merge(Vertex a, Vertex b) {
  const auto [kept, absorbed] = islands_.unite(islands_.find(a), islands_.find(b));
  auto& into = members_[kept];
  auto& from = members_[absorbed];
  into.insert(into.end(), from.begin(), from.end());
  from = {};
  // Remove `absorbed` from the tree list in O(1).
  const std::size_t position = tree_position_[absorbed];
  trees_[position] = trees_.back();
  tree_position_[trees_[position]] = position;
  trees_.pop_back();
}

void WorkloadBuilder::record(WorkloadKind kind, uint8_t new_vertices, Vertex a, Vertex b, double weight) {
  // b onto a = a's clock after the inverse of b's: both read one true time.
  const model::LinearTransform& clock_a = workload_.clocks[a];
  const model::LinearTransform& clock_b = workload_.clocks[b];
  const EdgeEstimate estimate{weight, clock_a.after(clock_b.inverse()), weight * 1000};
  workload_.operations.push_back({kind, new_vertices, a, b, estimate});
  ++workload_.counts[kind];
  if (kind != WorkloadKind::kWeightDecrease) {
    edges_.find_or_add(std::min(a, b), std::max(a, b)).edge.weight = weight;
  }
}

bool WorkloadBuilder::grow(WorkloadKind kind) {
  const double weight = random_.between(1, 2);
  switch (kind) {
    case WorkloadKind::kNewTree: {
      const Vertex a = new_vertex();
      const Vertex b = new_vertex();
      merge(a, b);
      record(kind, 2, a, b, weight);
      return true;
    }
    case WorkloadKind::kInsertion: {
      if (trees_.empty()) return false;
      const Vertex a = static_cast<Vertex>(random_.below(workload_.ids.size()));
      const Vertex b = new_vertex();
      merge(a, b);
      record(kind, 1, a, b, weight);
      return true;
    }
    case WorkloadKind::kJoin: {
      if (trees_.size() < 2) return false;
      const std::size_t i = random_.below(trees_.size());
      const std::size_t j = (i + 1 + random_.below(trees_.size() - 1)) % trees_.size();
      const Vertex a = random_member(trees_[i]);
      const Vertex b = random_member(trees_[j]);
      merge(a, b);
      record(kind, 0, a, b, weight);
      return true;
    }
    default:
      return false;
  }
}

bool WorkloadBuilder::add_cycle_edge(WorkloadKind kind) {
  // A missing edge inside a tree: a random vertex and a random member of
  // its tree (small trees may be complete, hence a few tries).
  for (int attempt = 0; attempt < 64 && !workload_.ids.empty(); ++attempt) {
    const Vertex a = static_cast<Vertex>(random_.below(workload_.ids.size()));
    const Vertex island = islands_.find(a);
    if (members_[island].size() < 3) continue;
    const Vertex b = random_member(island);
    if (a == b || edges_.find(a, b) != nullptr) continue;
    double weight;
    if (kind == WorkloadKind::kCycleEntering) {
      // Below every weight so far: the largest on the cycle must go.
      const double steps = static_cast<double>(wanted_[kind]) + 1;
      floor_ = 1 - static_cast<double>(workload_.counts[kind] + 1) / steps;
      weight = floor_;
    } else {
      // Above every tree edge (all below 2): the MST ignores it.
      weight = random_.between(2, 3);
    }
    record(kind, 0, a, b, weight);
    return true;
  }
  return false;
}

bool WorkloadBuilder::decrease_weight() {
  for (int attempt = 0; attempt < 64 && edges_.size() > 0; ++attempt) {
    EdgeTable::Edge& edge = edges_[static_cast<EdgeTable::EdgeId>(random_.below(edges_.size()))];
    // Stays above the floor, so later entering edges still undercut it.
    const double weight = floor_ + (edge.weight - floor_) * random_.between(0.5, 1);
    if (!(weight > floor_ && weight < edge.weight)) continue;
    edge.weight = weight;
    record(WorkloadKind::kWeightDecrease, 0, edge.low, edge.high, weight);
    return true;
  }
  return false;
}

ThesisWorkload WorkloadBuilder::build(double growth_share) {
  const std::size_t total = wanted_.all();
  workload_.operations.reserve(total);
  const std::size_t growth_total = growth_remaining();
  // Growth ops take growth_total of the first `span` positions, chosen
  // uniformly (selection sampling).
  const std::size_t span =
      std::max(growth_total, static_cast<std::size_t>(growth_share * static_cast<double>(total)));
  constexpr std::array kGrowth{WorkloadKind::kNewTree, WorkloadKind::kInsertion, WorkloadKind::kJoin};
  constexpr std::array kOther{WorkloadKind::kCycleEntering, WorkloadKind::kCycleIgnored,
                              WorkloadKind::kWeightDecrease};
  const auto other = [&](WorkloadKind kind) {
    return kind == WorkloadKind::kWeightDecrease ? decrease_weight() : add_cycle_edge(kind);
  };
  const auto growth = [&](WorkloadKind kind) { return grow(kind); };
  for (std::size_t i = 0; i < total; ++i) {
    const std::size_t grow_left = growth_remaining();
    const bool growth_turn =
        grow_left > 0 && (other_remaining() == 0 || i + grow_left >= span ||
                          random_.unit() * static_cast<double>(span - i) < static_cast<double>(grow_left));
    if (growth_turn ? one_of(kGrowth, growth) : one_of(kOther, other)) continue;
    // The other family cannot proceed now (an empty or complete forest).
    if (!(growth_turn ? one_of(kOther, other) : one_of(kGrowth, growth))) break;
  }
  return std::move(workload_);
}

}  // namespace

const char* to_string(WorkloadKind kind) {
  switch (kind) {
    case WorkloadKind::kNewTree: return "new tree";
    case WorkloadKind::kInsertion: return "insertion";
    case WorkloadKind::kJoin: return "join";
    case WorkloadKind::kCycleEntering: return "cycle, entering";
    case WorkloadKind::kCycleIgnored: return "cycle, ignored";
    case WorkloadKind::kWeightDecrease: return "weight decrease";
  }
  return "?";
}

std::size_t WorkloadCounts::counted() const {
  std::size_t sum = 0;
  for (int k = 0; k < kWorkloadKinds; ++k) sum += by_kind[k];
  return sum - (*this)[WorkloadKind::kNewTree];
}

WorkloadCounts thesis_operation_mix(std::size_t vertices, std::size_t operations) {
  WorkloadCounts mix;
  if (vertices < 2) return mix;
  const double n = static_cast<double>(vertices);
  const double scale = static_cast<double>(operations) / kTableOperations;
  // Joins leave one tree, so there is one new tree more than joins; new
  // trees bring two vertices each and insertions one, n in all. (The
  // table's insertions are then off by at most two: its rows do not quite
  // add up to n.)
  const std::size_t joins = rounded(n * interpolate(n, [](const TableRow& r) { return r.joins / r.vertices; }));
  const std::size_t new_trees = std::clamp<std::size_t>(joins + 1, 1, vertices / 2);
  mix[WorkloadKind::kNewTree] = new_trees;
  mix[WorkloadKind::kInsertion] = vertices - 2 * new_trees;
  mix[WorkloadKind::kJoin] = new_trees - 1;
  mix[WorkloadKind::kCycleEntering] = rounded(scale * interpolate(n, [](const TableRow& r) { return r.stay; }));
  mix[WorkloadKind::kWeightDecrease] = rounded(scale * interpolate(n, [](const TableRow& r) { return r.update; }));
  const std::size_t fixed = mix[WorkloadKind::kInsertion] + mix[WorkloadKind::kJoin] +
                            mix[WorkloadKind::kCycleEntering] + mix[WorkloadKind::kWeightDecrease];
  mix[WorkloadKind::kCycleIgnored] = operations > fixed ? operations - fixed : 0;
  return mix;
}

ThesisWorkload generate_thesis_workload(std::size_t vertices, std::size_t operations, uint64_t seed,
                                        double growth_share) {
  return WorkloadBuilder(thesis_operation_mix(vertices, operations), seed).build(growth_share);
}

void apply_operation(const ThesisWorkload& workload, std::size_t i, Network& network) {
  const WorkloadOperation& op = workload.operations[i];
  if (op.new_vertices == 2) network.add_vertex(workload.ids[op.a]);
  if (op.new_vertices >= 1) network.add_vertex(workload.ids[op.b]);
  network.set_edge(op.a, op.b, op.estimate);
}

namespace {

using WallClock = std::chrono::steady_clock;

double seconds_since(WallClock::time_point start) {
  return std::chrono::duration<double>(WallClock::now() - start).count();
}

// CPU time of this thread: the replays are single-threaded, so on an idle
// machine it is their wall time, and on a shared one it leaves out the
// time spent waiting for a core.
double cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// The spanning forest alone, replaying the same operations; counts the
// cycle outcomes on the way.
double replay_forest(const ThesisWorkload& workload, NetworkBenchmarkRow& row) {
  const double start = cpu_seconds();
  SpanningForest forest;
  forest.reserve(workload.ids.size(), workload.operations.size());
  std::size_t entered = 0;
  std::size_t ignored = 0;
  for (const WorkloadOperation& op : workload.operations) {
    if (op.new_vertices == 2) forest.add_vertex(workload.ids[op.a]);
    if (op.new_vertices >= 1) forest.add_vertex(workload.ids[op.b]);
    const ForestChange change = forest.set_edge(op.a, op.b, op.estimate);
    if (op.kind == WorkloadKind::kCycleEntering || op.kind == WorkloadKind::kCycleIgnored) {
      ++(change.entered ? entered : ignored);
    }
  }
  const double elapsed = cpu_seconds() - start;
  row.cycle_edges_entered = entered;
  row.cycle_edges_ignored = ignored;
  return elapsed;
}

// Reads every transform `snapshots` times; before each read, one tree
// edge gets a refreshed uncertainty, which makes every cached transform of
// the island stale (as a session's snapshot-time refresh does). Then checks
// the transforms against the generating clocks.
double read_transforms(const ThesisWorkload& workload, int snapshots, IncrementalNetwork& network,
                       NetworkBenchmarkRow& row) {
  const auto n = static_cast<Vertex>(network.vertex_count());
  if (workload.operations.empty()) return 0;
  // The latest estimate of some tree edge: the last operation on a tree edge.
  auto last = workload.operations.rbegin();
  while (!network.in_tree(last->a, last->b)) ++last;
  double elapsed = 0;
  for (int s = 0; s < snapshots; ++s) {
    EdgeEstimate refreshed = last->estimate;
    refreshed.uncertainty_ns += s + 1;
    network.set_edge(last->a, last->b, refreshed);
    const double start = cpu_seconds();
    for (Vertex v = 0; v < n; ++v) {
      network.transform(v);
      network.uncertainty_ns(v);
    }
    elapsed += cpu_seconds() - start;
    row.transforms_read += n;
  }
  // Against the generating clocks: v onto its reference r is r's clock after v's inverse.
  constexpr model::Nanoseconds kProbe = 1'700'000'000'000'000'000;
  for (Vertex v = 0; v < n; ++v) {
    const model::LinearTransform& clock_r = workload.clocks[network.reference_of(v)];
    const model::LinearTransform truth = clock_r.after(workload.clocks[v].inverse());
    const double error = model::to_double(model::abs(network.transform(v).apply(kProbe) - truth.apply(kProbe)));
    row.max_transform_error_ns = std::max(row.max_transform_error_ns, error);
  }
  return elapsed;
}

}  // namespace

NetworkBenchmarkReport run_network_benchmark(const NetworkBenchmarkOptions& options) {
  NetworkBenchmarkReport report{options, {}};
  for (const std::size_t vertices : options.vertex_counts) {
    const ThesisWorkload workload = generate_thesis_workload(vertices, options.operations, options.seed);
    NetworkBenchmarkRow row;
    row.vertices = vertices;
    row.counts = workload.counts;
    std::vector<double> forest_times, full_times, propagation_times;
    for (int r = 0; r < std::max(1, options.repetitions); ++r) {
      forest_times.push_back(replay_forest(workload, row));
      const double start = cpu_seconds();
      IncrementalNetwork network;
      network.reserve(workload.ids.size(), workload.operations.size());
      for (std::size_t i = 0; i < workload.operations.size(); ++i) apply_operation(workload, i, network);
      full_times.push_back(cpu_seconds() - start);
      row.transforms_read = 0;
      propagation_times.push_back(read_transforms(workload, options.snapshots, network, row));
    }
    row.forest_seconds = median(forest_times);
    row.incremental_seconds = median(full_times);
    row.reference_seconds = std::max(0.0, row.incremental_seconds - row.forest_seconds);
    row.propagation_seconds = median(propagation_times);

    if (options.run_baseline) {
      const auto start = WallClock::now();
      const double cpu_start = cpu_seconds();
      BaselineNetwork baseline;
      row.baseline_finished = true;
      for (std::size_t i = 0; i < workload.operations.size(); ++i) {
        if (seconds_since(start) > options.baseline_budget_seconds) {
          row.baseline_finished = false;
          break;
        }
        apply_operation(workload, i, baseline);
        row.baseline_operations = i + 1;
      }
      row.baseline_seconds = cpu_seconds() - cpu_start;
    }
    report.rows.push_back(row);
  }
  return report;
}

}  // namespace tracesync::network
