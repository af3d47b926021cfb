// SPDX-License-Identifier: EPL-2.0
#include "simulate/experiment.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "simulate/clock_model.h"
#include "simulate/random.h"
#include "simulate/simulation_error.h"

namespace tracesync::simulate {
namespace {

using model::Nanoseconds;

constexpr double kNsPerUs = 1e3;
constexpr double kNsPerMs = 1e6;
constexpr double kNsPerS = 1e9;
// How long the hosts have been up when tracing starts: the CTF clock values
// are times since boot, as LTTng's monotonic clock gives them.
constexpr double kMinUptimeS = 600;
constexpr double kMaxUptimeS = 7 * 86'400;

Nanoseconds seconds_to_ns(double s) { return static_cast<Nanoseconds>(std::llround(s * kNsPerS)); }

Uuid random_uuid(Random& random) {
  Uuid uuid{};
  for (std::size_t i = 0; i < uuid.size(); i += 8) {
    const uint64_t bits = random.next();
    for (std::size_t j = 0; j < 8; ++j) uuid[i + j] = static_cast<uint8_t>(bits >> (8 * j));
  }
  uuid[6] = static_cast<uint8_t>((uuid[6] & 0x0f) | 0x40);  // version 4 (random)
  uuid[8] = static_cast<uint8_t>((uuid[8] & 0x3f) | 0x80);  // RFC 4122 variant
  return uuid;
}

// A host's clock: its own offset and drift (explicit with --clock, the truth
// for host 0, else drawn), with an optional single drift change, plus the
// clock model's rate changes for every host that is not the truth.
HostClock draw_clock(const SimulationOptions& o, uint32_t host, Nanoseconds end_ns) {
  int64_t offset = 0;
  std::vector<HostClock::RatePiece> base;
  bool truth = false;
  const auto spec = std::find_if(o.host_clocks.begin(), o.host_clocks.end(),
                                 [&](const HostClockSpec& s) { return s.host == host; });
  if (spec != o.host_clocks.end()) {
    offset = spec->offset_ns;
    base.push_back({o.start_ns, spec->drift_ppm});
    if (spec->drift_change_at_s) {
      base.push_back({o.start_ns + seconds_to_ns(*spec->drift_change_at_s), spec->drift_after_change_ppm});
    }
  } else if (host == 0) {
    truth = true;
    base.push_back({o.start_ns, 0});
  } else {
    Random random = Random::stream(o.seed, "clock", host);
    offset = static_cast<int64_t>(std::llround(
        random.uniform(-static_cast<double>(o.clock_offset_max_ns), static_cast<double>(o.clock_offset_max_ns))));
    const double drift = random.uniform(-o.drift_max_ppm, o.drift_max_ppm);
    const double change = random.uniform(-o.drift_change_max_ppm, o.drift_change_max_ppm);
    base.push_back({o.start_ns, drift});
    if (o.drift_change_at_s) base.push_back({o.start_ns + seconds_to_ns(*o.drift_change_at_s), drift + change});
  }
  if (truth || o.clock_model == ClockModel::kLinear) return HostClock(o.start_ns, offset, base);
  // The base is absolute; the model's changes add to it.
  std::vector<HostClock::RatePiece> changes = draw_rate_changes(o, host, o.start_ns, end_ns);
  return HostClock(o.start_ns, offset, add_rates({base, changes}));
}

std::vector<std::pair<Nanoseconds, Nanoseconds>> draw_load_episodes(const SimulationOptions& o, uint32_t host,
                                                                    Nanoseconds start, Nanoseconds end) {
  std::vector<std::pair<Nanoseconds, Nanoseconds>> episodes;
  if (o.load_episodes_per_s <= 0) return episodes;
  Random random = Random::stream(o.seed, "load", host);
  double t = static_cast<double>(start);
  while (true) {
    t += random.exponential(kNsPerS / o.load_episodes_per_s);
    if (t >= static_cast<double>(end)) break;
    const auto begin = static_cast<Nanoseconds>(t);
    const auto length = static_cast<Nanoseconds>(random.exponential(o.load_episode_mean_ms * kNsPerMs));
    if (!episodes.empty() && begin <= episodes.back().second) {
      episodes.back().second = std::max(episodes.back().second, begin + length);
    } else {
      episodes.emplace_back(begin, begin + length);
    }
  }
  return episodes;
}

// Which hosts are loaded now and then: a seeded choice of the given share.
std::vector<bool> draw_loaded_hosts(const SimulationOptions& o) {
  std::vector<uint32_t> order(o.hosts);
  std::iota(order.begin(), order.end(), 0U);
  Random random = Random::stream(o.seed, "loaded-hosts");
  for (uint32_t i = o.hosts - 1; i > 0; --i) std::swap(order[i], order[random.below(i + 1ULL)]);
  const auto count = static_cast<uint32_t>(std::llround(o.loaded_host_fraction * o.hosts));
  std::vector<bool> loaded(o.hosts, false);
  for (uint32_t i = 0; i < count; ++i) loaded[order[i]] = true;
  return loaded;
}

SimulatedLink make_link(const SimulationOptions& o, const HostPair& pair, uint32_t index) {
  Random random = Random::stream(o.seed, "link", index);
  SimulatedLink link;
  link.hosts = pair;
  link.ipv6 = random.chance(o.ipv6_fraction);
  double min_us = o.min_delay_us * pair.switches;
  double mean_us = o.mean_delay_us * pair.switches;
  double asymmetry = o.asymmetry;
  for (const auto& spec : o.link_delays) {
    if (std::min(spec.host_a, spec.host_b) != pair.a || std::max(spec.host_a, spec.host_b) != pair.b) continue;
    min_us = spec.min_delay_us.value_or(min_us);
    mean_us = spec.mean_delay_us.value_or(mean_us);
    asymmetry = spec.asymmetry.value_or(asymmetry);
  }
  link.a_to_b = {min_us * kNsPerUs, mean_us * kNsPerUs};
  link.b_to_a = {min_us * asymmetry * kNsPerUs, mean_us * asymmetry * kNsPerUs};
  link.client_port = static_cast<uint16_t>(32768 + random.below(60999 - 32768 + 1));
  link.server_port = random.chance(0.7) ? 22 : 5201;  // scp over ssh, or iperf3
  return link;
}

void check_link_delays_name_links(const SimulationOptions& o, const std::vector<HostPair>& pairs) {
  for (const auto& spec : o.link_delays) {
    const HostPair wanted{std::min(spec.host_a, spec.host_b), std::max(spec.host_a, spec.host_b)};
    const bool found = std::any_of(pairs.begin(), pairs.end(),
                                   [&](const HostPair& p) { return p.a == wanted.a && p.b == wanted.b; });
    if (!found) {
      throw SimulationError("--link-delay " + std::to_string(spec.host_a) + "-" + std::to_string(spec.host_b) +
                            ": hosts " + std::to_string(wanted.a) + " and " + std::to_string(wanted.b) +
                            " do not talk in this " + std::string(to_string(o.topology)) + " topology");
    }
  }
}

}  // namespace

std::string to_string(const Uuid& uuid) {
  char text[37];
  std::snprintf(text, sizeof text, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", uuid[0],
                uuid[1], uuid[2], uuid[3], uuid[4], uuid[5], uuid[6], uuid[7], uuid[8], uuid[9], uuid[10], uuid[11],
                uuid[12], uuid[13], uuid[14], uuid[15]);
  return text;
}

bool SimulatedHost::loaded_at(Nanoseconds true_ns) const {
  auto after = std::upper_bound(load_episodes.begin(), load_episodes.end(), true_ns,
                                [](Nanoseconds t, const auto& episode) { return t < episode.first; });
  return after != load_episodes.begin() && true_ns < std::prev(after)->second;
}

Experiment build_experiment(const SimulationOptions& o) {
  Experiment experiment;
  experiment.start_ns = o.start_ns;
  experiment.end_ns = o.start_ns + seconds_to_ns(o.duration_s);

  for (const auto& gap : o.gaps) {
    const Nanoseconds begin = o.start_ns + seconds_to_ns(gap.at_s);
    experiment.gaps.emplace_back(begin, begin + seconds_to_ns(gap.length_s));
  }
  const std::vector<bool> loaded = draw_loaded_hosts(o);
  for (uint32_t h = 0; h < o.hosts; ++h) {
    Random ids = Random::stream(o.seed, "host-ids", h);
    SimulatedHost host{.index = h,
                       .name = o.hostname_prefix + std::to_string(h),
                       .clock = draw_clock(o, h, experiment.end_ns),
                       .boot_id = random_uuid(ids),
                       .trace_uuid = random_uuid(ids),
                       .boot_epoch_ns = 0,
                       .ipv4 = {},
                       .ipv6 = {},
                       .load_episodes = {}};
    const auto uptime = seconds_to_ns(ids.uniform(kMinUptimeS, kMaxUptimeS));
    host.boot_epoch_ns = host.clock.local_ns(experiment.start_ns) - uptime;
    const uint32_t number = h + 1;  // 10.0.0.1, fd00::1 for host 0
    host.ipv4 = {10, static_cast<uint8_t>(number >> 16), static_cast<uint8_t>(number >> 8),
                 static_cast<uint8_t>(number)};
    host.ipv6 = {0xfd00, 0, 0, 0, 0, 0, static_cast<uint16_t>(number >> 16), static_cast<uint16_t>(number)};
    if (loaded[h]) host.load_episodes = draw_load_episodes(o, h, experiment.start_ns, experiment.end_ns);
    experiment.hosts.push_back(std::move(host));
  }

  const std::vector<HostPair> pairs = build_topology(o);
  check_link_delays_name_links(o, pairs);
  for (uint32_t i = 0; i < pairs.size(); ++i) experiment.links.push_back(make_link(o, pairs[i], i));
  return experiment;
}

}  // namespace tracesync::simulate
