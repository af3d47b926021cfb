#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "simulate/experiment.h"
#include "simulate/simulation_options.h"
#include "simulate/traffic.h"

namespace tracesync::simulate {

inline constexpr const char* kTruthFormat = "tracesync-truth/1";

// Bits of a message's `flags` column in the truth file.
enum MessageFlag : uint32_t { kMessageLost = 1, kMessageRetransmission = 2 };

// Writes OUTPUT_DIR/truth.json, the ground truth of a simulation:
//
//   {"format": "tracesync-truth/1", "seed", "topology", "start_ns", "end_ns",
//    "reference_host": 0,
//    "hosts": [{"index", "name", "domain" (the clock UUID: the domain id a
//       reader of the trace gets), "trace_uuid", "path" (trace directory,
//       relative), "offset_ns", "drift_ppm", ["drift_change_at_ns",
//       "drift_after_change_ppm"], "clock_offset_ns" (the CTF clock offset:
//       boot time), "loaded", "load_episodes" ([begin, end) true ns),
//       "ipv4", "ipv6", "events",
//       "transform_to_host0": {"slope", "offset"},
//       "transform_segments": [{"from_true_ns", "from_local_ns", "slope", "offset"}]}],
//    "links": [{"a", "b", "ipv6", "switches", "client_port", "server_port",
//       "min_delay_ns_ab", "mean_delay_ns_ab", "min_delay_ns_ba", "mean_delay_ns_ba"}],
//    "message_columns": [...], "messages": [[...], ...]}
//
// A transform maps the host's local time onto host 0's: t0 = slope * t +
// offset, exact in quad and printed with 34 significant digits; there is a
// segment for every drift change of either clock ("transform_to_host0" is
// the first). Messages are every transmitted segment in true send order:
//   [sender, send_local_ns, receiver, receive_local_ns, true_send_ns,
//    true_receive_ns, seq, ack_seq, tcp_flags, flags]
// with receive times null when lost; flags: 1 lost, 2 retransmission (the
// same key was sent before). Times are int64 ns since the epoch, as JSON
// integers (beyond a double's 53 bits: read them as integers).
//
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
