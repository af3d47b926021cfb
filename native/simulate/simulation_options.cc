// SPDX-License-Identifier: EPL-2.0
#include "simulate/simulation_options.h"

#include <array>
#include <charconv>
#include <cmath>
#include <set>
#include <sstream>
#include <utility>

namespace tracesync::simulate {
namespace {

constexpr std::array<std::pair<Topology, std::string_view>, 5> kTopologyNames{{
    {Topology::kPairs, "pairs"},
    {Topology::kChain, "chain"},
    {Topology::kStar, "star"},
    {Topology::kRandom, "random"},
    {Topology::kFatTree, "fat-tree"},
}};

constexpr std::array<std::pair<ClockModel, std::string_view>, 5> kClockModelNames{{
    {ClockModel::kLinear, "linear"},
    {ClockModel::kSteps, "steps"},
    {ClockModel::kSlews, "slews"},
    {ClockModel::kWander, "wander"},
    {ClockModel::kCombined, "combined"},
}};

// Limits that keep every computed time inside int64 and every clock
// increasing; far beyond any realistic experiment.
constexpr uint32_t kMaxHosts = 100'000;
constexpr uint32_t kMaxCpus = 4096;
constexpr double kMaxDurationS = 30 * 86'400.0;
constexpr double kMaxDriftPpm = 1000;
constexpr int64_t kMaxOffsetNs = 86'400'000'000'000;      // one day
constexpr int64_t kMinStartNs = 30 * 86'400'000'000'000;  // clocks must have booted after the epoch
constexpr int64_t kMaxStartNs = 4'000'000'000'000'000'000;
constexpr double kMaxDelayUs = 60'000'000;                // one minute
constexpr double kMaxClockPieces = 1e6;

// Collects the problems, each naming the option as the CLI spells it.
class Problems {
 public:
  void check(bool ok, const std::string& what) {
    if (!ok) problems_.push_back(what);
  }
  std::string joined() const {
    std::string out;
    for (const auto& p : problems_) out += (out.empty() ? "" : "; ") + p;
    return out;
  }

 private:
  std::vector<std::string> problems_;
};

bool in_range(double value, double low, double high) { return std::isfinite(value) && value >= low && value <= high; }

std::string number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

bool valid_hostname_prefix(const std::string& prefix) {
  if (prefix.empty() || prefix.size() > 48) return false;
  for (const char c : prefix) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    if (!ok) return false;
  }
  return true;
}

void check_clock_specs(const SimulationOptions& o, Problems& p) {
  std::set<uint32_t> seen;
  for (const auto& spec : o.host_clocks) {
    const std::string name = "--clock for host " + std::to_string(spec.host);
    p.check(spec.host < o.hosts, name + ": there are only " + std::to_string(o.hosts) + " hosts");
    p.check(seen.insert(spec.host).second, name + ": given twice");
    p.check(spec.offset_ns >= -kMaxOffsetNs && spec.offset_ns <= kMaxOffsetNs, name + ": offset beyond one day");
    p.check(in_range(spec.drift_ppm, -kMaxDriftPpm, kMaxDriftPpm),
            name + ": drift " + number(spec.drift_ppm) + " ppm is outside [-1000, 1000]");
    if (spec.drift_change_at_s) {
      p.check(in_range(*spec.drift_change_at_s, 0, o.duration_s),
              name + ": drift change at " + number(*spec.drift_change_at_s) + " s is outside the experiment [0, " +
                  number(o.duration_s) + "]");
      p.check(in_range(spec.drift_after_change_ppm, -kMaxDriftPpm, kMaxDriftPpm),
              name + ": drift after the change " + number(spec.drift_after_change_ppm) + " ppm is outside [-1000, 1000]");
    }
  }
}

// The parameters of the rate changes, checked whatever the model so that a
// typo is reported even when the chosen model does not use it.
void check_clock_model(const SimulationOptions& o, Problems& p) {
  p.check(in_range(o.step_interval_s, 1, kMaxDurationS),
          "--step-interval: " + number(o.step_interval_s) + " s is outside [1, 30 days]");
  p.check(in_range(o.step_size_ppm, 0, kMaxDriftPpm),
          "--step-size: " + number(o.step_size_ppm) + " ppm is outside [0, 1000]");
  p.check(in_range(o.slew_length_s, 1e-3, kMaxDurationS),
          "--slew-length: " + number(o.slew_length_s) + " s is outside [0.001, 30 days]");
  // Slews never overlap: the shortest gap between starts (half the mean) exceeds a slew.
  p.check(in_range(o.slew_interval_s, 1e-3, kMaxDurationS) && o.slew_interval_s / 2 > o.slew_length_s,
          "--slew-interval: " + number(o.slew_interval_s) + " s must be more than twice --slew-length (" +
              number(o.slew_length_s) + " s) and at most 30 days");
  p.check(in_range(o.slew_rate_ppm, 0, kMaxDriftPpm),
          "--slew-rate: " + number(o.slew_rate_ppm) + " ppm is outside [0, 1000]");
  p.check(in_range(o.wander_ppm, 0, kMaxDriftPpm),
          "--wander-amplitude: " + number(o.wander_ppm) + " ppm is outside [0, 1000]");
  p.check(in_range(o.wander_period_s, 1, kMaxDurationS),
          "--wander-period: " + number(o.wander_period_s) + " s is outside [1, 30 days]");
  // A step of at least 1 ms keeps the piece count of a 30-day clock bounded by the period.
  p.check(in_range(o.wander_step_s, 1e-3, o.wander_period_s / 4),
          "--wander-step: " + number(o.wander_step_s) + " s is outside [0.001, wander period / 4]");
  // A clock of millions of pieces would make a truth file of hundreds of MB.
  const bool steps = o.clock_model == ClockModel::kSteps || o.clock_model == ClockModel::kCombined;
  const bool slews = o.clock_model == ClockModel::kSlews || o.clock_model == ClockModel::kCombined;
  const bool wander = o.clock_model == ClockModel::kWander || o.clock_model == ClockModel::kCombined;
  const double pieces = (steps ? 2 * o.duration_s / o.step_interval_s : 0) +
                        (slews ? 4 * o.duration_s / o.slew_interval_s : 0) +
                        (wander ? o.duration_s / o.wander_step_s : 0);
  p.check(!(pieces > kMaxClockPieces), "--clock-model " + std::string(to_string(o.clock_model)) + ": about " +
                                           number(pieces) + " rate pieces per clock over --duration " +
                                           number(o.duration_s) + " s; at most " + number(kMaxClockPieces) +
                                           " (make --step-interval, --slew-interval or --wander-step longer)");
  // Every clock must keep running forwards, whatever adds up.
  const double worst = o.drift_max_ppm + o.drift_change_max_ppm + o.step_size_ppm + o.slew_rate_ppm + o.wander_ppm;
  p.check(!std::isfinite(worst) || worst < 1e5, "--clock-model: the drifts, steps, slews and wander add up to " +
                                                    number(worst) + " ppm, too much for a clock");
}

void check_link_delays(const SimulationOptions& o, Problems& p) {
  for (const auto& spec : o.link_delays) {
    const std::string name = "--link-delay " + std::to_string(spec.host_a) + "-" + std::to_string(spec.host_b);
    p.check(spec.host_a < o.hosts && spec.host_b < o.hosts,
            name + ": there are only " + std::to_string(o.hosts) + " hosts");
    p.check(spec.host_a != spec.host_b, name + ": a link joins two different hosts");
    if (spec.min_delay_us) p.check(in_range(*spec.min_delay_us, 0, kMaxDelayUs), name + ": minimum delay out of range");
    if (spec.mean_delay_us) p.check(in_range(*spec.mean_delay_us, 0, kMaxDelayUs), name + ": mean delay out of range");
    if (spec.asymmetry) p.check(in_range(*spec.asymmetry, 1e-3, 1e3), name + ": asymmetry must be in [0.001, 1000]");
  }
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (std::size_t begin = 0;;) {
    const std::size_t end = text.find(separator, begin);
    parts.push_back(text.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin));
    if (end == std::string_view::npos) return parts;
    begin = end + 1;
  }
}

template <typename Number>
bool parse_number(std::string_view text, Number& out) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  return error == std::errc() && end == text.data() + text.size() && !text.empty();
}

}  // namespace

std::string parse_host_clock(std::string_view text, HostClockSpec& out) {
  const std::string what = "--clock " + std::string(text) + ": ";
  const std::vector<std::string_view> parts = split(text, ':');
  if (parts.size() != 3 && parts.size() != 5) return what + "expected HOST:OFFSET_NS:DRIFT_PPM[:AT_S:DRIFT_PPM]";
  HostClockSpec spec;
  if (!parse_number(parts[0], spec.host)) return what + "the host is not a host number";
  if (!parse_number(parts[1], spec.offset_ns)) return what + "the offset is not an integer number of ns";
  if (!parse_number(parts[2], spec.drift_ppm)) return what + "the drift is not a number of ppm";
  if (parts.size() == 5) {
    double at = 0;
    if (!parse_number(parts[3], at)) return what + "the drift change time is not a number of seconds";
    spec.drift_change_at_s = at;
    if (!parse_number(parts[4], spec.drift_after_change_ppm)) return what + "the new drift is not a number of ppm";
  }
  out = spec;
  return {};
}

std::string parse_link_delay(std::string_view text, LinkDelaySpec& out) {
  const std::string what = "--link-delay " + std::string(text) + ": ";
  const std::vector<std::string_view> parts = split(text, ':');
  if (parts.size() != 3 && parts.size() != 4) return what + "expected A-B:[MIN_US]:[MEAN_US][:ASYMMETRY]";
  const std::vector<std::string_view> hosts = split(parts[0], '-');
  LinkDelaySpec spec;
  if (hosts.size() != 2 || !parse_number(hosts[0], spec.host_a) || !parse_number(hosts[1], spec.host_b)) {
    return what + "the link is not written A-B with two host numbers";
  }
  const auto optional_number = [](std::string_view part, std::optional<double>& value) {
    if (part.empty()) return true;
    double number = 0;
    if (!parse_number(part, number)) return false;
    value = number;
    return true;
  };
  if (!optional_number(parts[1], spec.min_delay_us)) return what + "the minimum delay is not a number of us";
  if (!optional_number(parts[2], spec.mean_delay_us)) return what + "the mean delay is not a number of us";
  if (parts.size() == 4 && !optional_number(parts[3], spec.asymmetry)) return what + "the asymmetry is not a number";
  out = spec;
  return {};
}

std::string_view to_string(ClockModel model) {
  for (const auto& [m, name] : kClockModelNames) {
    if (m == model) return name;
  }
  return "?";
}

std::optional<ClockModel> parse_clock_model(std::string_view name) {
  for (const auto& [m, n] : kClockModelNames) {
    if (n == name) return m;
  }
  return std::nullopt;
}

std::string_view to_string(Topology topology) {
  for (const auto& [t, name] : kTopologyNames) {
    if (t == topology) return name;
  }
  return "?";
}

std::optional<Topology> parse_topology(std::string_view name) {
  for (const auto& [t, n] : kTopologyNames) {
    if (n == name) return t;
  }
  return std::nullopt;
}

std::string validate(const SimulationOptions& o) {
  Problems p;
  p.check(!o.output_dir.empty(), "--output: an output directory is required");
  p.check(o.hosts >= 2 && o.hosts <= kMaxHosts,
          "--hosts: " + std::to_string(o.hosts) + " is outside [2, " + std::to_string(kMaxHosts) + "]");
  p.check(valid_hostname_prefix(o.hostname_prefix),
          "hostname prefix \"" + o.hostname_prefix + "\": use 1 to 48 letters, digits, '-' or '_'");
  p.check(in_range(o.duration_s, 1e-6, kMaxDurationS), "--duration: " + number(o.duration_s) +
                                                           " s is outside (0, 30 days]");
  p.check(o.start_ns >= kMinStartNs && o.start_ns <= kMaxStartNs,
          "--start: " + std::to_string(o.start_ns) + " ns is not an epoch time between 1970-01-31 and 2096");
  p.check(o.cpus_per_host >= 1 && o.cpus_per_host <= kMaxCpus,
          "--cpus: " + std::to_string(o.cpus_per_host) + " is outside [1, " + std::to_string(kMaxCpus) + "]");
  p.check(in_range(o.message_rate, 0, 1e7), "--rate: " + number(o.message_rate) + " is outside [0, 1e7] per second");
  p.check(o.probe_rounds <= 1000, "--probe-rounds: " + std::to_string(o.probe_rounds) + " is outside [0, 1000]");
  p.check(o.probe_every_s == 0 || (o.probe_every_s >= 1 && o.probe_every_s <= kMaxDurationS),
          "--probe-every: " + number(o.probe_every_s) + " s is neither 0 (start and end only) nor at least 1 s");
  p.check(o.probe_every_s == 0 || o.probe_rounds > 0, "--probe-every needs --probe-rounds");
  p.check(in_range(o.filler_ratio, 0, 1e4), "--filler-ratio: " + number(o.filler_ratio) + " is outside [0, 10000]");
  p.check(in_range(o.signal_rate_hz, 0, 1e4), "--signal-rate: " + number(o.signal_rate_hz) + " is outside [0, 10000] per second");
  p.check(in_range(o.signal_jitter_us, 0, 1e5), "--signal-jitter: " + number(o.signal_jitter_us) + " is outside [0, 100000] us");
  p.check(in_range(o.signal_missed, 0, 0.99), "--signal-missed: " + number(o.signal_missed) + " is outside [0, 0.99]");
  p.check(in_range(o.signal_extra_per_s, 0, 1e4), "--signal-extra: " + number(o.signal_extra_per_s) + " is outside [0, 10000] per second");
  p.check(in_range(o.ipv6_fraction, 0, 1), "--ipv6-fraction: " + number(o.ipv6_fraction) + " is outside [0, 1]");
  if (o.topology == Topology::kRandom) {
    p.check(in_range(o.random_degree, 0, o.hosts - 1.0),
            "--random-degree: " + number(o.random_degree) + " is outside [0, hosts - 1]");
  }
  if (o.fat_tree_k != 0) {
    p.check(o.fat_tree_k % 2 == 0 && o.fat_tree_k <= 1024, "--fat-tree-k: the port count must be even, at most 1024");
    p.check(uint64_t{o.fat_tree_k} * o.fat_tree_k * o.fat_tree_k / 4 >= o.hosts,
            "--fat-tree-k: a " + std::to_string(o.fat_tree_k) + "-port fat tree has fewer than " +
                std::to_string(o.hosts) + " hosts");
  }

  p.check(o.clock_offset_max_ns >= 0 && o.clock_offset_max_ns <= kMaxOffsetNs,
          "--offset-max: " + std::to_string(o.clock_offset_max_ns) + " ns is outside [0, one day]");
  p.check(in_range(o.drift_max_ppm, 0, kMaxDriftPpm), "--drift-max: " + number(o.drift_max_ppm) +
                                                          " ppm is outside [0, 1000]");
  if (o.drift_change_at_s) {
    p.check(in_range(*o.drift_change_at_s, 0, o.duration_s),
            "--drift-change-at: " + number(*o.drift_change_at_s) + " s is outside the experiment [0, " +
                number(o.duration_s) + "]");
  }
  p.check(in_range(o.drift_change_max_ppm, 0, kMaxDriftPpm),
          "--drift-change-max: " + number(o.drift_change_max_ppm) + " ppm is outside [0, 1000]");
  check_clock_specs(o, p);
  check_clock_model(o, p);

  p.check(in_range(o.min_delay_us, 0, kMaxDelayUs), "--min-delay: " + number(o.min_delay_us) +
                                                        " us is outside [0, one minute]");
  p.check(in_range(o.mean_delay_us, 0, kMaxDelayUs), "--mean-delay: " + number(o.mean_delay_us) +
                                                         " us is outside [0, one minute]");
  p.check(in_range(o.asymmetry, 1e-3, 1e3), "--asymmetry: " + number(o.asymmetry) + " is outside [0.001, 1000]");
  check_link_delays(o, p);

  p.check(in_range(o.loaded_host_fraction, 0, 1), "--loaded-hosts: " + number(o.loaded_host_fraction) +
                                                      " is outside [0, 1]");
  p.check(in_range(o.load_episodes_per_s, 0, 1e6), "--load-rate: " + number(o.load_episodes_per_s) +
                                                       " is outside [0, 1e6] per second");
  p.check(in_range(o.load_episode_mean_ms, 0, 1e6), "--load-length: " + number(o.load_episode_mean_ms) +
                                                        " ms is outside [0, 1e6]");
  p.check(in_range(o.load_extra_delay_mean_us, 0, kMaxDelayUs),
          "--load-delay: " + number(o.load_extra_delay_mean_us) + " us is outside [0, one minute]");

  p.check(in_range(o.loss_rate, 0, 0.99), "--loss: " + number(o.loss_rate) + " is outside [0, 0.99]");
  p.check(in_range(o.retransmission_rate, 0, 0.99),
          "--retransmit: " + number(o.retransmission_rate) + " is outside [0, 0.99]");
  p.check(in_range(o.retransmission_timeout_ms, 1e-3, 600'000),
          "--rto: " + number(o.retransmission_timeout_ms) + " ms is outside [0.001, 600000]");
  for (const auto& gap : o.gaps) {
    const std::string name = "--gap " + number(gap.at_s) + ":" + number(gap.length_s);
    p.check(in_range(gap.at_s, 0, o.duration_s),
            name + ": the start is outside the experiment [0, " + number(o.duration_s) + "]");
    p.check(in_range(gap.length_s, 0, kMaxDurationS), name + ": the length must be positive");
  }
  return p.joined();
}

}  // namespace tracesync::simulate
