// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <string>
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

// Writes the matched messages as a match stream (`tracesync sync
// --matches`): per segment key, its first send and its first receive, as
//   SENDER SEND_NS RECEIVER RECV_NS
// with hosts by name, in true send order; keys never received are left out.
// Returns the number of messages. Throws SimulationError on write failure.
uint64_t write_matches(const std::string& path, const SimulationOptions& options, const Experiment& experiment,
                       const std::vector<Transmission>& transmissions);

}  // namespace tracesync::simulate
