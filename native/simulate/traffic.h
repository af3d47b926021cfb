// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <queue>
#include <utility>
#include <vector>

#include "model/point.h"
#include "simulate/experiment.h"

namespace tracesync::simulate {

// TCP header flag bits, as the 9-bit `flags` field holds them.
enum TcpFlag : uint16_t { kTcpFin = 0x01, kTcpSyn = 0x02, kTcpPsh = 0x08, kTcpAck = 0x10 };

// One TCP segment put on the wire: the sender's trace gets a send event
// (net_dev_queue) at local_send; unless it is lost, the receiver's trace
// gets a receive event (net_if_receive_skb) at local_receive. A
// retransmission carries the same (seq, ack_seq, flags) as an earlier one.
// The port the simulated tracesync probe listens on (its server end): its
// segments are told apart by it (`sync --probe-port 7300`, docs/probe.md).
inline constexpr uint16_t kSimulatedProbePort = 7300;

struct Transmission {
  uint32_t link = 0;  // index into Experiment::links
  uint32_t sender = 0;
  uint32_t receiver = 0;
  model::Nanoseconds true_send = 0;
  model::Nanoseconds true_receive = 0;  // meaningless when lost
  model::Nanoseconds local_send = 0;    // the sender's clock at true_send
  model::Nanoseconds local_receive = 0; // the receiver's clock at true_receive
  uint32_t seq = 0;
  uint32_t ack_seq = 0;
  uint16_t tcp_flags = 0;
  uint16_t payload_bytes = 0;  // TCP payload
  uint16_t ip_id = 0;
  uint16_t window = 0;
  bool lost = false;
  bool retransmission = false;
  bool probe = false;  // on tracesync probe's connection (--probe-rounds): to or from kSimulatedProbePort

  bool from_client(const SimulatedLink& l) const { return sender == l.hosts.a; }
};

// Every segment of the experiment, sorted by true send time (ties by link,
// then generation order). Per link: a three-way handshake from a (the
// client), then data exchanges at `message_rate / 2` per second, each a
// PSH|ACK data segment in a random direction and the pure ACK that answers
// it. A lost data segment is sent again after the retransmission timeout
// (doubling, up to 5 times); a delivered one is sometimes sent again anyway;
// lost ACKs are not resent. Delays follow the link's delay models, plus a
// large exponential extra when the sender is loaded at sending time or the
// receiver is loaded when the packet would arrive.
std::vector<Transmission> generate_traffic(const Experiment& experiment, const SimulationOptions& options);

// The same transmissions in the same order, one at a time: what is held
// is the segments generated but not yet passed on (about a retransmission
// span of traffic, 63 timeouts), not the experiment (`simulate --no-traces`
// writes its truth and matches from it, in memory flat in the duration).
class TrafficStream {
 public:
  TrafficStream(const Experiment& experiment, const SimulationOptions& options);
  ~TrafficStream();
  TrafficStream(const TrafficStream&) = delete;
  TrafficStream& operator=(const TrafficStream&) = delete;

  // The next transmission by true send time, its local times set; none at the end.
  std::optional<Transmission> next();

 private:
  struct Source;
  struct Queued;
  using Floor = std::pair<model::Nanoseconds, uint32_t>;  // a source's floor, and the source
  const Experiment& experiment_;
  std::vector<std::unique_ptr<Source>> sources_;
  std::priority_queue<Floor, std::vector<Floor>, std::greater<>> floors_;
  std::priority_queue<Queued, std::vector<Queued>, std::greater<>> queue_;
  uint64_t generated_ = 0;
};

// One source's transmissions in generation order, before any sorting (its
// local times unset): a link's own connection, or its probe's. For tests:
// sorting the sources' concatenation (links in order, each link's
// connection before its probe's) stably by true send time gives
// generate_traffic's order.
std::vector<Transmission> generate_source_traffic(const Experiment& experiment, const SimulationOptions& options,
                                                  uint32_t link, bool probe);

}  // namespace tracesync::simulate
