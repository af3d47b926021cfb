#include "simulate/truth_writer.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <map>
#include <tuple>

#include "model/quad.h"
#include "simulate/output_file.h"

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

Json host_json(const SimulatedHost& host, const SimulatedHost& reference, uint64_t events) {
  Json j;
  j["index"] = host.index;
  j["name"] = host.name;
  j["domain"] = to_string(host.boot_id);
  j["trace_uuid"] = to_string(host.trace_uuid);
  j["path"] = host.name + "/kernel";
  j["offset_ns"] = host.clock.offset_ns();
  j["drift_ppm"] = host.clock.drift_ppm();
  if (host.clock.change_at_ns()) {
    j["drift_change_at_ns"] = *host.clock.change_at_ns();
    j["drift_after_change_ppm"] = host.clock.drift_after_change_ppm();
  }
  j["clock_offset_ns"] = host.boot_epoch_ns;
  j["loaded"] = !host.load_episodes.empty();
  Json episodes = Json::array();
  for (const auto& [begin, end] : host.load_episodes) episodes.push_back({begin, end});
  j["load_episodes"] = std::move(episodes);
  j["ipv4"] = ipv4_text(host.ipv4);
  j["ipv6"] = ipv6_text(host.ipv6);
  j["events"] = events;
  const std::vector<TransformSegment> segments = transform_onto(host.clock, reference.clock);
  j["transform_to_host0"] = transform_json(segments.front().transform);
  Json pieces = Json::array();
  for (const auto& s : segments) {
    Json piece = transform_json(s.transform);
    piece["from_true_ns"] = s.from_true_ns;
    piece["from_local_ns"] = s.from_local_ns;
    pieces.push_back(std::move(piece));
  }
  j["transform_segments"] = std::move(pieces);
  return j;
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

void write_truth(const std::string& path, const SimulationOptions& options, const Experiment& experiment,
                 const std::vector<Transmission>& transmissions, const std::vector<uint64_t>& events_per_host) {
  Json head;
  head["format"] = kTruthFormat;
  head["seed"] = options.seed;
  head["topology"] = std::string(to_string(options.topology));
  head["start_ns"] = experiment.start_ns;
  head["end_ns"] = experiment.end_ns;
  head["reference_host"] = 0;
  Json hosts = Json::array();
  for (const auto& host : experiment.hosts) {
    hosts.push_back(host_json(host, experiment.hosts[0], events_per_host.at(host.index)));
  }
  head["hosts"] = std::move(hosts);
  Json links = Json::array();
  for (const auto& link : experiment.links) links.push_back(link_json(link));
  head["links"] = std::move(links);
  head["message_columns"] = {"sender",       "send_local_ns", "receiver", "receive_local_ns", "true_send_ns",
                             "true_receive_ns", "seq",         "ack_seq",  "tcp_flags",        "flags"};
  head["message_flags"] = {{"lost", kMessageLost}, {"retransmission", kMessageRetransmission}};

  // The head is a small object; the messages, possibly millions, are
  // streamed after it, one per line.
  std::string text = head.dump(1);
  text.resize(text.rfind('}'));  // reopen the object
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  OutputFile out(path);
  out << text << ",\n \"messages\": [";
  for (std::size_t i = 0; i < transmissions.size(); ++i) {
    out << (i == 0 ? "\n  " : ",\n  ");
    write_message(out, transmissions[i]);
  }
  out << "\n ]\n}\n";
  out.close();
}

uint64_t write_matches(const std::string& path, const SimulationOptions& options, const Experiment& experiment,
                       const std::vector<Transmission>& transmissions) {
  // The key of a segment: its link and sender make it unique even where
  // (seq, ack_seq, flags) alone might collide across connections.
  using Key = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, uint16_t>;
  struct Match {
    std::size_t first_send;
    const Transmission* first_receive = nullptr;
  };
  std::map<Key, std::size_t> index;
  std::vector<Match> matches;
  for (std::size_t i = 0; i < transmissions.size(); ++i) {
    const Transmission& m = transmissions[i];
    const Key key{m.link, m.sender, m.seq, m.ack_seq, m.tcp_flags};
    auto [it, inserted] = index.try_emplace(key, matches.size());
    if (inserted) matches.push_back({i});
    Match& match = matches[it->second];
    if (!m.lost && (match.first_receive == nullptr || m.local_receive < match.first_receive->local_receive)) {
      match.first_receive = &m;
    }
  }

  OutputFile out(path);
  out << "# tracesync simulate: matched messages (first send, first receive of each segment)\n";
  out << "# seed ";
  out.integer(options.seed) << ", " << to_string(options.topology) << " topology, ";
  out.integer(options.hosts) << " hosts; ground truth in truth.json\n";
  out << "# SENDER SEND_NS RECEIVER RECV_NS\n";
  uint64_t written = 0;
  for (const Match& match : matches) {
    if (match.first_receive == nullptr) continue;
    const Transmission& send = transmissions[match.first_send];
    out << experiment.hosts[send.sender].name << ' ';
    out.integer(send.local_send) << ' ' << experiment.hosts[send.receiver].name << ' ';
    out.integer(match.first_receive->local_receive) << '\n';
    ++written;
  }
  out.close();
  return written;
}

}  // namespace tracesync::simulate
