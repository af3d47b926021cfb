// SPDX-License-Identifier: EPL-2.0
#include "simulate/traffic.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>

#include "simulate/random.h"

namespace tracesync::simulate {
namespace {

using model::Nanoseconds;

constexpr int kMaxRetransmissions = 5;
constexpr uint16_t kMss = 1448;               // Ethernet MTU minus IP, TCP and timestamp option
constexpr double kTurnaroundMinNs = 5'000;    // a host answers a segment at least this late
constexpr double kTurnaroundMeanNs = 20'000;  // plus an exponential part of this mean

// The traffic of one link, generated in exchange order.
class LinkTraffic {
 public:
  // `stream` names the link's random stream: "traffic" for its own
  // connection, "probe" for tracesync probe's (so adding probe rounds moves
  // no other segment).
  LinkTraffic(const Experiment& experiment, const SimulationOptions& options, uint32_t link_index,
              std::string_view stream = "traffic")
      : experiment_(experiment),
        options_(options),
        link_index_(link_index),
        link_(experiment.links[link_index]),
        random_(Random::stream(options.seed, stream, link_index)),
        probe_(stream == "probe") {}

  std::vector<Transmission> generate() {
    if (options_.message_rate <= 0) return std::move(out_);
    const double exchange_interval_ns = 2e9 / options_.message_rate;  // two segments per exchange

    // Client and server sequence numbers start at random ISNs.
    next_seq_[0] = static_cast<uint32_t>(random_.next());
    next_seq_[1] = static_cast<uint32_t>(random_.next());
    window_[0] = static_cast<uint16_t>(500 + random_.below(3000));
    window_[1] = static_cast<uint16_t>(500 + random_.below(3000));

    double t = after_gaps(static_cast<double>(experiment_.start_ns) + random_.exponential(exchange_interval_ns));
    if (t >= static_cast<double>(experiment_.end_ns) || !handshake(static_cast<Nanoseconds>(t))) {
      return std::move(out_);
    }
    while (true) {
      t = after_gaps(t + random_.exponential(exchange_interval_ns));
      if (t >= static_cast<double>(experiment_.end_ns)) break;
      exchange(static_cast<Nanoseconds>(t));
    }
    return std::move(out_);
  }

  // tracesync probe's connection on the link: a handshake, then bursts of
  // `probe_rounds` round trips at the start, every `probe_every_s` and at
  // the end (the last one starting early enough to end before it).
  std::vector<Transmission> generate_probe() {
    if (options_.probe_rounds == 0) return std::move(out_);
    next_seq_[0] = static_cast<uint32_t>(random_.next());
    next_seq_[1] = static_cast<uint32_t>(random_.next());
    window_[0] = static_cast<uint16_t>(500 + random_.below(3000));
    window_[1] = static_cast<uint16_t>(500 + random_.below(3000));
    const double start = static_cast<double>(experiment_.start_ns);
    const double end = static_cast<double>(experiment_.end_ns);
    const double last = end - std::min(1e9, (end - start) / 10);
    std::vector<double> bursts = {start + 1e6};
    if (options_.probe_every_s > 0) {
      for (double t = start + options_.probe_every_s * 1e9; t < last; t += options_.probe_every_s * 1e9) {
        bursts.push_back(t);
      }
    }
    if (last > bursts.back()) bursts.push_back(last);
    const auto connected = handshake(static_cast<Nanoseconds>(after_gaps(bursts.front())));
    if (!connected) return std::move(out_);
    Nanoseconds free_at = *connected;
    for (const double at : bursts) {
      Nanoseconds t = std::max(free_at, static_cast<Nanoseconds>(after_gaps(at)));
      for (uint32_t round = 0; round < options_.probe_rounds; ++round) {
        const auto answered = probe_round(t);
        if (!answered) return std::move(out_);  // the connection is lost
        t = *answered;
      }
      free_at = t;
    }
    return std::move(out_);
  }

 private:
  // One round: a request from the client, the answer from the server when
  // it arrives (after the host's turnaround); both 16-byte data segments,
  // each acknowledging the other's last. Returns when the client may send
  // the next request: the answer's arrival plus its own turnaround.
  std::optional<Nanoseconds> probe_round(Nanoseconds t) {
    constexpr uint16_t kProbeBytes = 16;
    const uint32_t request_seq = next_seq_[0];
    next_seq_[0] += kProbeBytes;
    const auto request = send_reliably(0, t, request_seq, next_seq_[1], kTcpPsh | kTcpAck, kProbeBytes);
    if (!request) return std::nullopt;
    const uint32_t answer_seq = next_seq_[1];
    next_seq_[1] += kProbeBytes;
    const auto answer =
        send_reliably(1, turnaround(*request), answer_seq, next_seq_[0], kTcpPsh | kTcpAck, kProbeBytes);
    if (!answer) return std::nullopt;
    return turnaround(*answer);
  }

  // t, or the end of the gap it falls in: no exchange starts in a gap (a
  // retransmission of a segment sent just before one may still fall in it).
  double after_gaps(double t) const {
    for (bool moved = true; moved;) {
      moved = false;
      for (const auto& gap : experiment_.gaps) {
        if (t >= static_cast<double>(gap.first) && t < static_cast<double>(gap.second)) {
          t = static_cast<double>(gap.second);
          moved = true;
        }
      }
    }
    return t;
  }

  // Side 0 is the client (link a), side 1 the server (link b).
  uint32_t host_of(int side) const { return side == 0 ? link_.hosts.a : link_.hosts.b; }

  // The three-way handshake from the client; when it went through, the
  // time the client sent its last ACK.
  std::optional<Nanoseconds> handshake(Nanoseconds t) {
    const uint32_t client_isn = next_seq_[0];
    const uint32_t server_isn = next_seq_[1];
    const auto syn_arrival = send_reliably(0, t, client_isn, 0, kTcpSyn, 0);
    if (!syn_arrival) return std::nullopt;
    next_seq_[0] = client_isn + 1;
    const auto syn_ack_arrival = send_reliably(1, turnaround(*syn_arrival), server_isn, next_seq_[0],
                                               kTcpSyn | kTcpAck, 0);
    if (!syn_ack_arrival) return std::nullopt;
    next_seq_[1] = server_isn + 1;
    const Nanoseconds ack = turnaround(*syn_ack_arrival);
    send_once(0, ack, next_seq_[0], next_seq_[1], kTcpAck, 0, false);
    return ack;
  }

  // A data segment one way, the ACK that answers it the other way. Every
  // segment's (seq, ack_seq, flags) is new: data advances its sender's seq,
  // and an ACK only ever answers new data.
  void exchange(Nanoseconds t) {
    const int from = random_.chance(0.5) ? 0 : 1;
    const int to = 1 - from;
    const auto length = static_cast<uint16_t>(random_.chance(0.6) ? kMss : 1 + random_.below(kMss));
    const uint32_t seq = next_seq_[from];
    next_seq_[from] += length;
    const auto arrival = send_reliably(from, t, seq, next_seq_[to], kTcpPsh | kTcpAck, length);
    if (!arrival) return;
    send_once(to, turnaround(*arrival), next_seq_[to], next_seq_[from], kTcpAck, 0, false);
  }

  // Sends until one copy arrives or the retries run out; a delivered copy is
  // sometimes followed by a spurious retransmission. Returns the true
  // arrival time of the first copy that arrived.
  std::optional<Nanoseconds> send_reliably(int from, Nanoseconds t, uint32_t seq, uint32_t ack_seq, uint16_t flags,
                                           uint16_t length) {
    double timeout_ns = options_.retransmission_timeout_ms * 1e6;
    for (int attempt = 0; attempt <= kMaxRetransmissions; ++attempt) {
      const auto arrival = send_once(from, t, seq, ack_seq, flags, length, attempt > 0);
      t += static_cast<Nanoseconds>(timeout_ns);
      timeout_ns *= 2;
      if (!arrival) continue;
      if (random_.chance(options_.retransmission_rate)) send_once(from, t, seq, ack_seq, flags, length, true);
      return arrival;
    }
    return std::nullopt;
  }

  // Puts one segment on the wire; returns its true arrival time unless it is lost.
  std::optional<Nanoseconds> send_once(int from, Nanoseconds t, uint32_t seq, uint32_t ack_seq, uint16_t flags,
                                       uint16_t length, bool retransmission) {
    Transmission& m = out_.emplace_back();
    m.link = link_index_;
    m.sender = host_of(from);
    m.receiver = host_of(1 - from);
    m.true_send = t;
    m.seq = seq;
    m.ack_seq = ack_seq;
    m.tcp_flags = flags;
    m.payload_bytes = length;
    m.ip_id = ip_id_[from]++;
    m.window = static_cast<uint16_t>(window_[from] + random_.below(64));
    m.retransmission = retransmission;
    m.probe = probe_;
    m.lost = random_.chance(options_.loss_rate);
    const Nanoseconds arrival = t + delay(from, t);
    if (m.lost) return std::nullopt;
    m.true_receive = arrival;
    return arrival;
  }

  Nanoseconds delay(int from, Nanoseconds t) {
    const DelayModel& model = from == 0 ? link_.a_to_b : link_.b_to_a;
    double ns = model.min_ns + random_.exponential(model.mean_ns);
    const auto nominal_arrival = t + static_cast<Nanoseconds>(ns);
    if (experiment_.hosts[host_of(from)].loaded_at(t) ||
        experiment_.hosts[host_of(1 - from)].loaded_at(nominal_arrival)) {
      ns += random_.exponential(options_.load_extra_delay_mean_us * 1e3);
    }
    return static_cast<Nanoseconds>(std::llround(ns));
  }

  Nanoseconds turnaround(Nanoseconds arrival) {
    return arrival + static_cast<Nanoseconds>(std::llround(kTurnaroundMinNs + random_.exponential(kTurnaroundMeanNs)));
  }

  const Experiment& experiment_;
  const SimulationOptions& options_;
  uint32_t link_index_;
  const SimulatedLink& link_;
  Random random_;
  uint32_t next_seq_[2] = {0, 0};
  uint16_t ip_id_[2] = {0, 0};
  uint16_t window_[2] = {0, 0};
  std::vector<Transmission> out_;
  bool probe_ = false;  // tracesync probe's connection
};

}  // namespace

std::vector<Transmission> generate_traffic(const Experiment& experiment, const SimulationOptions& options) {
  std::vector<Transmission> all;
  for (uint32_t l = 0; l < experiment.links.size(); ++l) {
    std::vector<Transmission> link = LinkTraffic(experiment, options, l).generate();
    all.insert(all.end(), link.begin(), link.end());
    std::vector<Transmission> probe = LinkTraffic(experiment, options, l, "probe").generate_probe();
    all.insert(all.end(), probe.begin(), probe.end());
  }
  // Links were appended in order and each link's segments in generation
  // order, so a stable sort gives a deterministic order.
  std::stable_sort(all.begin(), all.end(),
                   [](const Transmission& x, const Transmission& y) { return x.true_send < y.true_send; });
  for (auto& m : all) {
    m.local_send = experiment.hosts[m.sender].clock.local_ns(m.true_send);
    if (!m.lost) m.local_receive = experiment.hosts[m.receiver].clock.local_ns(m.true_receive);
  }
  return all;
}

}  // namespace tracesync::simulate
