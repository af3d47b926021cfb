// SPDX-License-Identifier: EPL-2.0
#include "simulate/truth_writer.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>

#include "model/quad.h"
#include "simulate/output_file.h"
#include "simulate/signals.h"

namespace tracesync::simulate {
namespace {

using Json = nlohmann::ordered_json;

std::string ipv4_text(const std::array<uint8_t, 4>& a) {
  char text[16];
  std::snprintf(text, sizeof text, "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
  return text;
}

// Full form, lower case: "fd00:0:0:0:0:0:0:1".
std::string ipv6_text(const std::array<uint16_t, 8>& words) {
  char text[40];
  std::snprintf(text, sizeof text, "%x:%x:%x:%x:%x:%x:%x:%x", words[0], words[1], words[2], words[3], words[4],
                words[5], words[6], words[7]);
  return text;
}

Json transform_json(const model::LinearTransform& t) {
  return Json{{"slope", model::to_decimal(t.slope)}, {"offset", model::to_decimal(t.offset)}};
}

// The clock pieces are most of the file: they are written one per line, in
// place of a placeholder the head's JSON carries.
std::string clock_placeholder(uint32_t host) { return "@clock of host " + std::to_string(host) + "@"; }
std::string episodes_placeholder(uint32_t host) { return "@load episodes of host " + std::to_string(host) + "@"; }

Json host_json(const SimulatedHost& host, const SimulatedHost& reference, uint64_t events) {
  Json j;
  j["index"] = host.index;
  j["name"] = host.name;
  j["domain"] = to_string(host.boot_id);
  j["trace_uuid"] = to_string(host.trace_uuid);
  j["path"] = host.name + "/kernel";
  j["offset_ns"] = host.clock.offset_ns();
  j["drift_ppm"] = host.clock.drift_ppm();
  j["clock_pieces"] = host.clock.segments().size();
  j["clock"] = clock_placeholder(host.index);  // written one piece per line by write_truth
  j["clock_offset_ns"] = host.boot_epoch_ns;
  j["loaded"] = !host.load_episodes.empty();
  j["load_episodes"] = episodes_placeholder(host.index);  // one per line, as the clock
  j["ipv4"] = ipv4_text(host.ipv4);
  j["ipv6"] = ipv6_text(host.ipv6);
  j["events"] = events;
  j["transform_to_host0"] = transform_json(transform_onto(host.clock, reference.clock).front().transform);
  return j;
}

std::string clock_text(const HostClock& clock) {
  std::string text = "[";
  for (std::size_t i = 0; i < clock.segments().size(); ++i) {
    const auto& piece = clock.segments()[i];
    text += i == 0 ? "\n    [" : ",\n    [";
    text += std::to_string(piece.from_true_ns) + ", \"" +
            model::to_decimal(piece.true_to_local.apply(piece.from_true_ns)) + "\", \"" +
            model::to_decimal(piece.true_to_local.slope) + "\"]";
  }
  return text + "]";
}

std::string episodes_text(const SimulatedHost& host) {
  std::string text = "[";
  for (std::size_t i = 0; i < host.load_episodes.size(); ++i) {
    text += i == 0 ? "\n    [" : ",\n    [";
    text += std::to_string(host.load_episodes[i].first) + ", " + std::to_string(host.load_episodes[i].second) + "]";
  }
  return text + "]";
}

// The head as indented JSON, each host's clock and load episodes in place of
// their placeholders.
std::string head_text(const Json& head, const Experiment& experiment) {
  const std::string json = head.dump(1);
  std::string text;
  std::size_t done = 0;
  // The hosts come in order, each with its clock before its episodes, so
  // each placeholder is after the previous one.
  const auto substitute = [&](const std::string& placeholder, const std::string& replacement) {
    const std::string quoted = "\"" + placeholder + "\"";
    const std::size_t at = json.find(quoted, done);
    if (at == std::string::npos) return;
    text.append(json, done, at - done);
    text += replacement;
    done = at + quoted.size();
  };
  for (const auto& host : experiment.hosts) {
    substitute(clock_placeholder(host.index), clock_text(host.clock));
    substitute(episodes_placeholder(host.index), episodes_text(host));
  }
  text.append(json, done);
  return text;
}

Json link_json(const SimulatedLink& link) {
  return Json{{"a", link.hosts.a},
              {"b", link.hosts.b},
              {"ipv6", link.ipv6},
              {"switches", link.hosts.switches},
              {"client_port", link.client_port},
              {"server_port", link.server_port},
              {"min_delay_ns_ab", link.a_to_b.min_ns},
              {"mean_delay_ns_ab", link.a_to_b.mean_ns},
              {"min_delay_ns_ba", link.b_to_a.min_ns},
              {"mean_delay_ns_ba", link.b_to_a.mean_ns}};
}

void write_message(OutputFile& out, const Transmission& m) {
  out << '[';
  out.integer(m.sender) << ',';
  out.integer(m.local_send) << ',';
  out.integer(m.receiver) << ',';
  if (m.lost) {
    out << "null,";
  } else {
    out.integer(m.local_receive) << ',';
  }
  out.integer(m.true_send) << ',';
  if (m.lost) {
    out << "null,";
  } else {
    out.integer(m.true_receive) << ',';
  }
  out.integer(m.seq) << ',';
  out.integer(m.ack_seq) << ',';
  out.integer(m.tcp_flags) << ',';
  out.integer((m.lost ? kMessageLost : 0U) | (m.retransmission ? kMessageRetransmission : 0U)) << ']';
}

}  // namespace

TruthWriter::TruthWriter(const std::string& path, const SimulationOptions& options, const Experiment& experiment,
                         const std::vector<uint64_t>& events_per_host)
    : out_(std::make_unique<OutputFile>(path)), messages_(options.truth_messages) {
  Json head;
  head["format"] = kTruthFormat;
  head["seed"] = options.seed;
  head["topology"] = std::string(to_string(options.topology));
  head["start_ns"] = experiment.start_ns;
  head["clock_model"] = std::string(to_string(options.clock_model));
  head["end_ns"] = experiment.end_ns;
  head["reference_host"] = 0;
  Json gaps = Json::array();
  for (const auto& [begin, end] : experiment.gaps) gaps.push_back({begin, end});
  head["gaps"] = std::move(gaps);
  if (options.signal_rate_hz > 0) {
    // What each host recorded of the simultaneous signal (simulate/signals.h).
    Json per_host = Json::array();
    for (const auto& host : experiment.hosts) {
      const HostSignals s = draw_signals(experiment, options, host.index);
      per_host.push_back({{"host", host.name}, {"pulses", s.pulses}, {"recorded", s.local.size()},
                          {"missed", s.missed}, {"extra", s.extra}});
    }
    head["signal"] = {{"event", "irq_handler_entry"}, {"irq", kSignalIrq}, {"rate_hz", options.signal_rate_hz},
                      {"jitter_ns", options.signal_jitter_us * 1e3}, {"missed_probability", options.signal_missed},
                      {"extra_per_s", options.signal_extra_per_s}, {"hosts", std::move(per_host)}};
  }
  head["clock_columns"] = {"from_true_ns", "from_local_ns", "slope"};
  Json hosts = Json::array();
  for (const auto& host : experiment.hosts) {
    hosts.push_back(host_json(host, experiment.hosts[0], events_per_host.at(host.index)));
  }
  head["hosts"] = std::move(hosts);
  Json links = Json::array();
  for (const auto& link : experiment.links) links.push_back(link_json(link));
  head["links"] = std::move(links);
  if (!messages_) {
    *out_ << head_text(head, experiment) << '\n';
    return;
  }
  head["message_columns"] = {"sender",       "send_local_ns", "receiver", "receive_local_ns", "true_send_ns",
                             "true_receive_ns", "seq",         "ack_seq",  "tcp_flags",        "flags"};
  head["message_flags"] = {{"lost", kMessageLost}, {"retransmission", kMessageRetransmission}};

  // The head is a small object; the messages, possibly millions, are
  // streamed after it, one per line.
  std::string text = head_text(head, experiment);
  text.resize(text.rfind('}'));  // reopen the object
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  *out_ << text << ",\n \"messages\": [";
}

TruthWriter::~TruthWriter() = default;

void TruthWriter::add(const Transmission& m) {
  if (!messages_) return;
  *out_ << (written_ == 0 ? "\n  " : ",\n  ");
  write_message(*out_, m);
  ++written_;
}

void TruthWriter::finish() {
  if (messages_) *out_ << "\n ]\n}\n";
  out_->close();
}

void write_truth(const std::string& path, const SimulationOptions& options, const Experiment& experiment,
                 const std::vector<Transmission>& transmissions, const std::vector<uint64_t>& events_per_host) {
  TruthWriter truth(path, options, experiment, events_per_host);
  for (const Transmission& m : transmissions) truth.add(m);
  truth.finish();
}

// A segment's copies are all sent within 63 retransmission timeouts of the
// first (5 resends, the timeout doubling, then maybe a spurious one), so a
// key sent before the newest send less that span has all its copies.
MatchesWriter::MatchesWriter(const std::string& path, const SimulationOptions& options,
                             const Experiment& experiment)
    : out_(std::make_unique<OutputFile>(path)),
      options_(options),
      experiment_(experiment),
      settled_after_ns_(static_cast<model::Nanoseconds>(64 * options.retransmission_timeout_ms * 1e6) + 1) {
  *out_ << "# tracesync simulate: matched messages (first send, first receive of each segment)\n";
  *out_ << "# seed ";
  out_->integer(options.seed) << ", " << to_string(options.topology) << " topology, ";
  out_->integer(options.hosts) << " hosts; ground truth in truth.json\n";
  *out_ << "# SENDER SEND_NS RECEIVER RECV_NS\n";
}

MatchesWriter::~MatchesWriter() = default;

void MatchesWriter::add(const Transmission& m) {
  while (!pending_.empty() && pending_.front().send.true_send < m.true_send - settled_after_ns_) write_first();
  const Key key{m.link, m.sender, m.seq, m.ack_seq, m.tcp_flags};
  auto [it, inserted] = index_.try_emplace(key, first_ + pending_.size());
  if (inserted) pending_.push_back({m, std::nullopt});
  Pending& match = pending_[it->second - first_];
  if (!m.lost && (!match.first_receive || m.local_receive < *match.first_receive)) {
    match.first_receive = m.local_receive;
  }
}

void MatchesWriter::write_first() {
  const Pending& match = pending_.front();
  const Transmission& send = match.send;
  if (match.first_receive) {
    *out_ << experiment_.hosts[send.sender].name << ' ';
    out_->integer(send.local_send) << ' ' << experiment_.hosts[send.receiver].name << ' ';
    out_->integer(*match.first_receive) << '\n';
    ++written_;
  }
  index_.erase(Key{send.link, send.sender, send.seq, send.ack_seq, send.tcp_flags});
  pending_.pop_front();
  ++first_;
}

uint64_t MatchesWriter::finish() {
  while (!pending_.empty()) write_first();
  if (options_.signal_rate_hz > 0) {
    // The simultaneous signal's records, as traces would hold them (docs/signals.md).
    *out_ << "# signal NAME HOST TIME_NS: the simultaneous signal (sync --simultaneous 'event=" << kSignalIrqName
          << ",jitter=...')\n";
    for (const auto& host : experiment_.hosts) {
      for (const model::Nanoseconds t : draw_signals(experiment_, options_, host.index).local) {
        *out_ << "signal " << kSignalIrqName << ' ' << host.name << ' ';
        out_->integer(t) << '\n';
      }
    }
  }
  out_->close();
  return written_;
}

uint64_t write_matches(const std::string& path, const SimulationOptions& options, const Experiment& experiment,
                       const std::vector<Transmission>& transmissions) {
  MatchesWriter matches(path, options, experiment);
  for (const Transmission& m : transmissions) matches.add(m);
  return matches.finish();
}

}  // namespace tracesync::simulate
