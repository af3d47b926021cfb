// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "simulate/experiment.h"
#include "simulate/simulation_options.h"
#include "simulate/traffic.h"

namespace tracesync::simulate {

inline constexpr const char* kTruthFormat = "tracesync-truth/2";

// Bits of a message's `flags` column in the truth file.
enum MessageFlag : uint32_t { kMessageLost = 1, kMessageRetransmission = 2 };

// Writes OUTPUT_DIR/truth.json, the ground truth of a simulation, small
// whatever the number of messages (docs/simulate.md has the full format):
//
//   {"format": "tracesync-truth/2", "seed", "topology", "clock_model",
//    "start_ns", "end_ns", "reference_host": 0,
//    "gaps": [[begin, end) true ns, ...],
//    "clock_columns": ["from_true_ns", "from_local_ns", "slope"],
//    "hosts": [{"index", "name", "domain" (the clock UUID: the domain id a
//       reader of the trace gets), "trace_uuid", "path" (trace directory,
//       relative), "offset_ns", "drift_ppm" (at the start), "clock_pieces",
//       "clock": [[from_true_ns, "from_local_ns", "slope"], ...],
//       "clock_offset_ns" (the CTF clock offset: boot time), "loaded",
//       "load_episodes" ([begin, end) true ns), "ipv4", "ipv6", "events",
//       "transform_to_host0": {"slope", "offset"}}],
//    "links": [{"a", "b", "ipv6", "switches", "client_port", "server_port",
//       "min_delay_ns_ab", "mean_delay_ns_ab", "min_delay_ns_ba", "mean_delay_ns_ba"}],
//    with options.truth_messages: "message_columns": [...], "messages": [[...], ...]}
//
// "clock" is the host's true clock, exactly: from true time from_true_ns
// until the next piece, local = from_local_ns + slope * (true - from_true_ns),
// decimals of 34 significant digits (the first piece also holds times
// before it, the last times after it). A reading is that value rounded to
// the nearest ns. "transform_to_host0" maps the host's local time onto host
// 0's at the start: t0 = slope * t + offset. Messages are every transmitted
// segment in true send order:
//   [sender, send_local_ns, receiver, receive_local_ns, true_send_ns,
//    true_receive_ns, seq, ack_seq, tcp_flags, flags]
// with receive times null when lost; flags: 1 lost, 2 retransmission (the
// same key was sent before). Times are int64 ns since the epoch, as JSON
// integers (beyond a double's 53 bits: read them as integers).
//
// The file appears complete or not at all (written beside, then renamed).
// Throws SimulationError when the file cannot be written.
void write_truth(const std::string& path, const SimulationOptions& options, const Experiment& experiment,
                 const std::vector<Transmission>& transmissions, const std::vector<uint64_t>& events_per_host);

class OutputFile;

// The same file written as the transmissions come (in true send order),
// holding none of them: the head at construction, add() each message,
// finish() to close it.
class TruthWriter {
 public:
  TruthWriter(const std::string& path, const SimulationOptions& options, const Experiment& experiment,
              const std::vector<uint64_t>& events_per_host);
  ~TruthWriter();
  TruthWriter(const TruthWriter&) = delete;
  TruthWriter& operator=(const TruthWriter&) = delete;
  void add(const Transmission& m);
  void finish();

 private:
  std::unique_ptr<OutputFile> out_;
  bool messages_;
  uint64_t written_ = 0;
};

// Writes the matched messages as a match stream (`tracesync sync
// --matches`): per segment key, its first send and its first receive, as
//   SENDER SEND_NS RECEIVER RECV_NS
// with hosts by name, in true send order; keys never received are left out.
// Returns the number of messages. Throws SimulationError on write failure.
uint64_t write_matches(const std::string& path, const SimulationOptions& options, const Experiment& experiment,
                       const std::vector<Transmission>& transmissions);

// The same file written as the transmissions come (in true send order): a
// key is written once every copy of it has been sent (63 retransmission
// timeouts after its first), so it holds that span of traffic, not the
// experiment. (A key sent again after that span, which this simulation
// never does short of 32-bit sequence numbers wrapping on both sides at
// once, is a new message.)
class MatchesWriter {
 public:
  MatchesWriter(const std::string& path, const SimulationOptions& options, const Experiment& experiment);
  ~MatchesWriter();
  MatchesWriter(const MatchesWriter&) = delete;
  MatchesWriter& operator=(const MatchesWriter&) = delete;
  void add(const Transmission& m);
  // Writes what is left; returns the number of messages written.
  uint64_t finish();

 private:
  using Key = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, uint16_t>;  // link, sender, seq, ack_seq, flags
  struct Pending {
    Transmission send;  // the key's first send
    std::optional<model::Nanoseconds> first_receive;
  };
  void write_first();

  std::unique_ptr<OutputFile> out_;
  const SimulationOptions& options_;
  const Experiment& experiment_;
  model::Nanoseconds settled_after_ns_;
  std::deque<Pending> pending_;  // keys in first-send order
  std::map<Key, uint64_t> index_;  // key -> its position, counted from the first key ever
  uint64_t first_ = 0;  // the position of pending_.front()
  uint64_t written_ = 0;
};

}  // namespace tracesync::simulate
