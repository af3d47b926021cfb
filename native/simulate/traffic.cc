// SPDX-License-Identifier: EPL-2.0
#include "simulate/traffic.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <tuple>
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

  // Generates the link's next unit of traffic (the handshake, an exchange,
  // or one probe round) into the pending transmissions. Every transmission
  // of this unit and of every later one is sent at floor() or later.
  void step() {
    if (probe_) {
      step_probe();
    } else {
      step_traffic();
    }
  }
  bool done() const { return done_; }
  Nanoseconds floor() const { return floor_; }
  // The transmissions generated since the last call, in generation order.
  std::vector<Transmission>& pending() { return out_; }

  // Every unit at once, in generation order.
  std::vector<Transmission> generate_all() {
    while (!done_) step();
    return std::move(out_);
  }

 private:
  // The link's own connection: a handshake, then data exchanges at
  // `message_rate / 2` per second until the experiment ends.
  void step_traffic() {
    if (!started_) {
      started_ = true;
      if (options_.message_rate <= 0) return finish();
      next_seq_[0] = static_cast<uint32_t>(random_.next());  // client and server ISNs
      next_seq_[1] = static_cast<uint32_t>(random_.next());
      window_[0] = static_cast<uint16_t>(500 + random_.below(3000));
      window_[1] = static_cast<uint16_t>(500 + random_.below(3000));
      t_ = after_gaps(static_cast<double>(experiment_.start_ns) + random_.exponential(exchange_interval_ns()));
      if (t_ >= static_cast<double>(experiment_.end_ns)) return finish();
      floor_ = static_cast<Nanoseconds>(t_);
      if (!handshake(floor_)) finish();
      return;
    }
    t_ = after_gaps(t_ + random_.exponential(exchange_interval_ns()));
    if (t_ >= static_cast<double>(experiment_.end_ns)) return finish();
    floor_ = static_cast<Nanoseconds>(t_);
    exchange(floor_);
  }
  double exchange_interval_ns() const { return 2e9 / options_.message_rate; }  // two segments an exchange

  // tracesync probe's connection on the link: a handshake, then bursts of
  // `probe_rounds` round trips at the start, every `probe_every_s` and at
  // the end (the last one starting early enough to end before it); a unit
  // is one round.
  void step_probe() {
    if (!started_) {
      started_ = true;
      if (options_.probe_rounds == 0) return finish();
      next_seq_[0] = static_cast<uint32_t>(random_.next());
      next_seq_[1] = static_cast<uint32_t>(random_.next());
      window_[0] = static_cast<uint16_t>(500 + random_.below(3000));
      window_[1] = static_cast<uint16_t>(500 + random_.below(3000));
      const double start = static_cast<double>(experiment_.start_ns);
      const double end = static_cast<double>(experiment_.end_ns);
      const double last = end - std::min(1e9, (end - start) / 10);
      bursts_ = {start + 1e6};
      if (options_.probe_every_s > 0) {
        for (double t = start + options_.probe_every_s * 1e9; t < last; t += options_.probe_every_s * 1e9) {
          bursts_.push_back(t);
        }
      }
      if (last > bursts_.back()) bursts_.push_back(last);
      floor_ = static_cast<Nanoseconds>(after_gaps(bursts_.front()));
      const auto connected = handshake(floor_);
      if (!connected) return finish();
      free_at_ = *connected;
      return;
    }
    if (round_ == 0) round_at_ = std::max(free_at_, static_cast<Nanoseconds>(after_gaps(bursts_[burst_])));
    floor_ = round_at_;
    const auto answered = probe_round(round_at_);
    if (!answered) return finish();  // the connection is lost
    round_at_ = *answered;
    if (++round_ < options_.probe_rounds) return;
    round_ = 0;
    free_at_ = round_at_;
    if (++burst_ == bursts_.size()) finish();
  }

  void finish() {
    done_ = true;
    floor_ = std::numeric_limits<Nanoseconds>::max();
  }

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
  bool started_ = false;
  bool done_ = false;
  Nanoseconds floor_ = std::numeric_limits<Nanoseconds>::min();  // nothing generated yet
  double t_ = 0;  // the last exchange's start
  // The probe's bursts, and where in them it is.
  std::vector<double> bursts_;
  std::size_t burst_ = 0;
  uint32_t round_ = 0;
  Nanoseconds round_at_ = 0;
  Nanoseconds free_at_ = 0;
};

}  // namespace

// Each source (a link's connection, then its probe's) generates in its own
// order; a source's later units are all sent at its floor() or later. So a
// transmission sent before every source's floor can be passed on: nothing
// generated later sorts before it. Ties go as a stable sort of the sources'
// concatenation would put them: by source, then generation order.
struct TrafficStream::Source {
  LinkTraffic traffic;
  uint32_t index;
};

struct TrafficStream::Queued {
  Transmission m;
  uint32_t source;
  uint64_t order;
  bool operator>(const Queued& o) const {
    return std::tie(m.true_send, source, order) > std::tie(o.m.true_send, o.source, o.order);
  }
};

TrafficStream::TrafficStream(const Experiment& experiment, const SimulationOptions& options)
    : experiment_(experiment) {
  for (uint32_t l = 0; l < experiment.links.size(); ++l) {
    sources_.push_back(std::make_unique<Source>(Source{LinkTraffic(experiment, options, l), 2 * l}));
    sources_.push_back(std::make_unique<Source>(Source{LinkTraffic(experiment, options, l, "probe"), 2 * l + 1}));
  }
  for (const auto& source : sources_) floors_.push({source->traffic.floor(), source->index});
}

TrafficStream::~TrafficStream() = default;

std::optional<Transmission> TrafficStream::next() {
  while (true) {
    const Nanoseconds floor = floors_.empty() ? std::numeric_limits<Nanoseconds>::max() : floors_.top().first;
    if (!queue_.empty() && (queue_.top().m.true_send < floor || floors_.empty())) break;
    if (floors_.empty()) return std::nullopt;
    const uint32_t index = floors_.top().second;
    floors_.pop();
    LinkTraffic& traffic = sources_[index]->traffic;
    traffic.step();
    for (Transmission& m : traffic.pending()) queue_.push({m, index, generated_++});
    traffic.pending().clear();
    if (!traffic.done()) floors_.push({traffic.floor(), index});
  }
  Transmission m = queue_.top().m;
  queue_.pop();
  m.local_send = experiment_.hosts[m.sender].clock.local_ns(m.true_send);
  if (!m.lost) m.local_receive = experiment_.hosts[m.receiver].clock.local_ns(m.true_receive);
  return m;
}

std::vector<Transmission> generate_traffic(const Experiment& experiment, const SimulationOptions& options) {
  std::vector<Transmission> all;
  TrafficStream stream(experiment, options);
  while (auto m = stream.next()) all.push_back(*m);
  return all;
}

std::vector<Transmission> generate_source_traffic(const Experiment& experiment, const SimulationOptions& options,
                                                  uint32_t link, bool probe) {
  return LinkTraffic(experiment, options, link, probe ? "probe" : "traffic").generate_all();
}

}  // namespace tracesync::simulate
