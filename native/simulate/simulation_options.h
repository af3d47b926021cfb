// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/point.h"

namespace tracesync::simulate {

// Which pairs of hosts talk (`--topology`).
//   pairs:    0-1, 2-3, ... (islands of two; an odd last host joins the pair before it)
//   chain:    0-1-2-...-(n-1)
//   star:     host 0 talks with every other host
//   random:   a random spanning tree plus random extra links up to `random_degree`
//   fat-tree: the hosts are the leaves of a k-ary fat tree; each talks with a
//             neighbour in its rack, in its pod and in the next pod, and a
//             link's delays grow with the switches its packets cross (1, 3, 5)
enum class Topology { kPairs, kChain, kStar, kRandom, kFatTree };

std::string_view to_string(Topology topology);
std::optional<Topology> parse_topology(std::string_view name);

// How the clocks of the hosts other than the truth change rate (`--clock-model`;
// clock_model.h draws them):
//   linear:   one drift (and an optional single change, --drift-change-at / --clock)
//   steps:    NTP-like frequency corrections: the rate jumps now and then by up to --step-size ppm
//   slews:    chrony-like slews: tens of ppm more or less for a few seconds
//   wander:   temperature: the rate follows a slow sinusoid of a few tenths of a ppm
//   combined: steps, slews and wander together
enum class ClockModel { kLinear, kSteps, kSlews, kWander, kCombined };

std::string_view to_string(ClockModel model);
std::optional<ClockModel> parse_clock_model(std::string_view name);

// An explicit clock for one host, replacing the random draw (host 0 included:
// by default it is the truth, offset 0 and drift 0).
struct HostClockSpec {
  uint32_t host = 0;
  int64_t offset_ns = 0;  // local - true at the start of the experiment
  double drift_ppm = 0;   // local runs (1 + drift_ppm * 1e-6) times as fast as true time
  std::optional<double> drift_change_at_s;    // seconds after the start
  double drift_after_change_ppm = 0;          // the drift from then on
};

// A stretch of true time without any message on any link, in seconds after the start.
struct TrafficGap {
  double at_s = 0;
  double length_s = 0;
};

// Delay parameters of one link, overriding the experiment-wide ones.
struct LinkDelaySpec {
  uint32_t host_a = 0;  // the link's two hosts, in any order; must be a link of the topology
  uint32_t host_b = 0;
  std::optional<double> min_delay_us;
  std::optional<double> mean_delay_us;
  std::optional<double> asymmetry;
};

// Everything `tracesync simulate` can be told. Every field has the default
// used when the option is not given; times are true (host 0) time.
struct SimulationOptions {
  // --- where
  std::string output_dir;        // --output, required: OUTPUT_DIR/<hostname>/kernel/ + truth.json
  bool overwrite = false;        // --overwrite: replace a previous simulation's files in output_dir
  bool write_matches = false;    // --write-matches: also OUTPUT_DIR/matches.txt (SENDER SEND_NS RECEIVER RECV_NS)
  std::string matches_output;    // --matches-output: the matches there instead ("-": standard output; a pipe works)
  bool truth_messages = false;   // --truth-messages: list every transmitted segment in truth.json
  bool write_traces = true;      // false with --no-traces: only truth.json (and matches.txt)
  bool ctf2 = false;             // --ctf2: CTF 2 metadata (LTTng 2.15's default), translated from the TSDL written

  // --- what
  uint32_t hosts = 4;                      // --hosts, >= 2
  Topology topology = Topology::kChain;    // --topology
  double random_degree = 3;                // --random-degree: mean links per host of `random`
  uint32_t fat_tree_k = 0;                 // --fat-tree-k: switch ports, even; 0 = the smallest that fits
  double duration_s = 10;                  // --duration: seconds of traffic
  uint64_t seed = 1;                       // --seed: same seed, same bytes
  model::Nanoseconds start_ns = 1'767'225'600'000'000'000;  // --start: 2026-01-01T00:00:00Z
  std::string hostname_prefix = "host";    // hosts are named <prefix>0, <prefix>1, ...
  uint32_t cpus_per_host = 4;              // --cpus: one stream per CPU
  double message_rate = 200;               // --rate: TCP segments per second per link, both directions
  double filler_ratio = 4;                 // --filler-ratio: non-network events per network event
  double ipv6_fraction = 0.25;             // --ipv6-fraction: share of links that use IPv6
  bool plain_receive_name = false;         // --netif-receive-skb: name receive events `netif_receive_skb`
  // --user-space: lttng-ust traces (OUTPUT_DIR/<hostname>/ust/uid/1000/64-bit)
  // whose sends and receives are an application's own events,
  // tsapp:msg_send and tsapp:msg_recv, keyed by a `uint64 msg_id` (and a
  // `string channel` naming the link) instead of kernel network events.
  bool user_space = false;

  // --- clocks (hosts other than 0; see host_clocks for explicit ones)
  int64_t clock_offset_max_ns = 500'000'000;   // --offset-max: offsets uniform in [-max, max]
  double drift_max_ppm = 50;                   // --drift-max: drifts uniform in [-max, max] ppm
  std::optional<double> drift_change_at_s;     // --drift-change-at: every host but 0 changes drift then
  double drift_change_max_ppm = 5;             // --drift-change-max: by a change uniform in [-max, max]
  std::vector<HostClockSpec> host_clocks;      // --clock HOST:OFFSET_NS:DRIFT_PPM[:AT_S:DRIFT_PPM]

  // --- how the rates change over time (added to the drift above)
  ClockModel clock_model = ClockModel::kLinear;  // --clock-model
  double step_interval_s = 300;    // --step-interval: mean time between rate steps (each 0.5 to 1.5 times it)
  double step_size_ppm = 1;        // --step-size: a step changes the rate by at most this
  double slew_interval_s = 900;    // --slew-interval: mean time between slew starts (each 0.5 to 1.5 times it)
  double slew_length_s = 5;        // --slew-length: how long a slew lasts
  double slew_rate_ppm = 20;       // --slew-rate: how much faster or slower the clock runs while slewing
  double wander_ppm = 0.3;         // --wander-amplitude: the rate swings this much either way
  double wander_period_s = 3600;   // --wander-period: over this period (a sinusoid, random phase per host)
  double wander_step_s = 10;       // --wander-step: the smooth rate is held constant for this long

  // --- delays: min + Exp(mean) one way, times `asymmetry` the other way
  double min_delay_us = 40;        // --min-delay
  double mean_delay_us = 20;       // --mean-delay: mean of the exponential part
  double asymmetry = 1;            // --asymmetry: the higher-numbered host's direction is this much slower
  std::vector<LinkDelaySpec> link_delays;  // --link-delay A-B:MIN_US:MEAN_US[:ASYMMETRY]

  // --- outliers: some hosts are loaded now and then, adding a large delay
  double loaded_host_fraction = 0.25;      // --loaded-hosts
  double load_episodes_per_s = 0.5;        // --load-rate: episodes per second on a loaded host
  double load_episode_mean_ms = 50;        // --load-length: mean episode length
  double load_extra_delay_mean_us = 2000;  // --load-delay: mean extra delay of a message touching it

  // --- loss and retransmissions
  double loss_rate = 0.01;                 // --loss: a transmission never arrives
  double retransmission_rate = 0.005;      // --retransmit: a delivered segment is sent again anyway
  double retransmission_timeout_ms = 200;  // --rto: when a segment is sent again

  // --- gaps: no traffic at all on any link
  std::vector<TrafficGap> gaps;            // --gap AT_S:LENGTH_S, repeatable
  // --- a simultaneous signal (simulate/signals.h, docs/signals.md): a pulse
  // every host records as an irq_handler_entry of IRQ 199 ("pps")
  double signal_rate_hz = 0;               // --signal-rate: pulses per second; 0: none
  double signal_jitter_us = 1;             // --signal-jitter: each host records within +- this of the pulse
  double signal_missed = 0;                // --signal-missed: a host misses a pulse with this probability
  double signal_extra_per_s = 0;           // --signal-extra: extra records per second per host, at random

  // --- tracesync probe's rounds (docs/probe.md): on every link, its own TCP
  // connection carrying a burst of round trips at the start, at the end, and
  // every `probe_every_s` (when > 0); each round a 16-byte request from the
  // link's client and the 16-byte answer, sent when the request arrives.
  uint32_t probe_rounds = 0;               // --probe-rounds: round trips a burst (0: no probe)
  double probe_every_s = 0;                // --probe-every: also a burst this often (0: start and end only)
};

// A problem with the options, in words for the user; empty when they are fine.
std::string validate(const SimulationOptions& options);

// The CLI's spellings of the list options. Each returns what is wrong with
// the text (empty when it parsed) and fills `out`; values are range-checked
// by validate().
//   --clock HOST:OFFSET_NS:DRIFT_PPM[:AT_S:DRIFT_PPM]   e.g. "2:-1500000:12.5:30:14"
//   --link-delay A-B:[MIN_US]:[MEAN_US][:ASYMMETRY]     e.g. "0-3:40:20", "1-2::500:3"
std::string parse_host_clock(std::string_view text, HostClockSpec& out);
std::string parse_link_delay(std::string_view text, LinkDelaySpec& out);

}  // namespace tracesync::simulate
