// SPDX-License-Identifier: EPL-2.0
#include "cli/trace_check.h"

#include <algorithm>

#include "base/natural_order.h"
#include "ingest/network_event_census.h"
#include "snapshot/json_names.h"
#include "snapshot/utf8.h"

namespace tracesync::cli {
namespace {

using ingest::kNetworkEventNames;
using ingest::NetworkEventCensus;
using ingest::NetworkEventTally;
using match::Direction;
using nlohmann::ordered_json;

// Why a trace has no TCP events of one direction, name by name: not
// recorded at all, recorded with a payload that lacks the TCP fields,
// recorded but never seen, or seen but never TCP.
std::string why_none(const NetworkEventCensus& census, Direction direction) {
  std::string reasons;
  for (std::size_t i = 0; i < census.size(); ++i) {
    const NetworkEventTally& tally = census[i];
    if (kNetworkEventNames[i].direction != direction || !(tally.recorded || tally.events() > 0)) continue;
    const std::string name(kNetworkEventNames[i].name);
    std::string reason;
    if (!tally.missing.empty()) {
      reason = name + " lacks the TCP fields";
    } else if (tally.events() == 0) {
      reason = name + " recorded, but no event of it";
    } else {
      reason = "none of " + std::to_string(tally.events()) + " " + name + " events is TCP";
    }
    reasons += (reasons.empty() ? "" : ", ") + reason;
  }
  if (reasons.empty()) return std::string("no ") + std::string(ingest::to_string(direction)) + " event recorded";
  return reasons;
}

// Application sends or receives; a simultaneous signal's occurrences
// (MessageSpec::is_signal, counted as sends) are neither.
uint64_t app_events(const ingest::AppEventCensus& census, const std::vector<ingest::MessageSpec>& kinds,
                    Direction direction) {
  uint64_t sum = 0;
  for (std::size_t k = 0; k < census.size(); ++k) {
    if (k < kinds.size() && kinds[k].is_signal()) continue;
    sum += direction == Direction::kSend ? census[k].sends : census[k].receives;
  }
  return sum;
}

uint64_t signal_occurrences(const ingest::AppEventCensus& census, const std::vector<ingest::MessageSpec>& kinds) {
  uint64_t sum = 0;
  for (std::size_t k = 0; k < census.size() && k < kinds.size(); ++k) sum += kinds[k].is_signal() ? census[k].sends : 0;
  return sum;
}

std::string signal_finding(const ingest::MessageSpec& spec, const ingest::AppEventTally& tally) {
  std::string text = !tally.send_recorded && tally.events() == 0
                         ? spec.send_event + " not recorded"
                         : std::to_string(tally.sends) + " occurrences of " + spec.send_event + " (before the filter)";
  if (tally.undecodable > 0) text += ", " + std::to_string(tally.undecodable) + " without the filter's field";
  if (!tally.problem.empty()) text += "; " + tally.problem;
  return text;
}

// "3 sends and 2 receives with a key, 1 key too long; tsapp:msg_send has no field `id` ..."
std::string kind_finding(const ingest::MessageSpec& spec, const ingest::AppEventTally& tally) {
  std::string text;
  if (!tally.send_recorded && !tally.receive_recorded && tally.events() == 0) {
    text = "neither " + spec.send_event + " nor " + spec.receive_event + " recorded";
  } else {
    text = std::to_string(tally.sends) + " sends and " + std::to_string(tally.receives) + " receives with a key";
    if (tally.key_too_long > 0) text += ", " + std::to_string(tally.key_too_long) + " with a key too long";
    if (tally.undecodable > 0) text += ", " + std::to_string(tally.undecodable) + " without a key";
    if (!tally.send_recorded) text += "; " + spec.send_event + " not recorded";
    if (!tally.receive_recorded) text += "; " + spec.receive_event + " not recorded";
  }
  if (!tally.problem.empty()) text += "; " + tally.problem;
  return text;
}

// The traces as people list them: paths in natural order (host2 before host10).
std::vector<const ingest::TraceReport*> for_people(const std::vector<ingest::TraceReport>& traces) {
  std::vector<const ingest::TraceReport*> order;
  for (const ingest::TraceReport& t : traces) order.push_back(&t);
  std::stable_sort(order.begin(), order.end(), [](const ingest::TraceReport* x, const ingest::TraceReport* y) {
    return base::natural_less(x->info.path, y->info.path);
  });
  return order;
}

// Whether the trace records `tracesync probe`'s user-space events: their
// event classes are there (a trace's metadata declares an lttng-ust event
// class once a process registered it), or the kind probe found some.
bool records_probe_rounds(const ingest::TraceReport& t, const std::vector<ingest::MessageSpec>& kinds) {
  const ingest::MessageSpec probe = std::get<ingest::MessageSpec>(ingest::parse_message_spec(ingest::kProbePreset));
  for (const ingest::OfferedEventClass& c : t.info.offered_classes) {
    if (c.name == probe.send_event || c.name == probe.receive_event) return true;
  }
  for (std::size_t k = 0; k < kinds.size() && k < t.info.app_census.size(); ++k) {
    if (kinds[k].send_event == probe.send_event &&
        t.info.app_census[k].sends + t.info.app_census[k].receives > 0) {
      return true;
    }
  }
  return false;
}

uint64_t probe_segments_of(const std::vector<ingest::TraceReport>& traces, const ingest::TraceReport* trace,
                           const ProbeSegments& probe_segments) {
  const auto index = static_cast<std::size_t>(trace - traces.data());
  return index < probe_segments.size() ? probe_segments[index] : 0;
}

}  // namespace

TraceCheck check_trace(const ingest::TraceReport& t, const std::vector<ingest::MessageSpec>& kinds,
                       uint64_t probe_segments) {
  TraceCheck check;
  if (t.status == ingest::TraceStatus::kSkipped) {
    check.verdict = (t.out_of_memory ? "not read: " : "unreadable: ") + t.problem;
    return check;
  }
  check.read = true;
  check.probe_events = records_probe_rounds(t, kinds);
  check.probe_segments = probe_segments;
  check.probe_rounds = check.probe_events || probe_segments > 0;
  const NetworkEventCensus& census = t.info.network_census;
  const bool sends =
      ingest::tcp_events(census, Direction::kSend) + app_events(t.info.app_census, kinds, Direction::kSend) > 0;
  const bool receives =
      ingest::tcp_events(census, Direction::kReceive) + app_events(t.info.app_census, kinds, Direction::kReceive) > 0;
  check.usable = sends && receives;
  if (check.usable) {
    check.verdict = "usable";
  } else if (signal_occurrences(t.info.app_census, kinds) > 0) {
    check.usable = true;
    check.verdict = "usable through simultaneous signals only (no two-way messages)";
  } else if (!sends && !receives) {
    check.verdict = "NOT usable: " + why_none(census, Direction::kSend) + "; " + why_none(census, Direction::kReceive);
  } else if (sends) {
    check.verdict = "sends only, links will be one-way: " + why_none(census, Direction::kReceive);
  } else {
    check.verdict = "receives only, links will be one-way: " + why_none(census, Direction::kSend);
  }
  if (!kinds.empty() && !check.usable) {
    check.verdict += " (nor application messages of the --messages specs)";
  } else if (!check.usable && check.probe_events) {
    check.verdict += " (it records tracesync probe's rounds: sync with --messages probe)";
  } else if (!check.usable && !t.info.offered_classes.empty()) {
    check.verdict += " (its user-space events may serve as messages: see --messages)";
  }
  if (t.status == ingest::TraceStatus::kPartial) {
    check.verdict += (t.out_of_memory ? " (read in part: " : " (read up to damage: ") + t.problem + ")";
  }
  if (t.info.damaged_packets > 0) check.verdict += " (read in part: " + ingest::time_damage_text(t.info) + ")";
  if (!t.left_out.empty()) {
    check.verdict += " (read without " + std::to_string(t.left_out.size()) +
                     (t.left_out.size() == 1 ? " entry of its directory: see above)"
                                             : " entries of its directory: see above)");
  }
  return check;
}

void print_check_text(std::ostream& out, const std::vector<ingest::TraceReport>& traces,
                      const std::vector<ingest::MessageSpec>& kinds, const ProbeSegments& probe_segments) {
  using snapshot::readable_text;
  std::size_t name_width = 0;
  for (const auto& event : kNetworkEventNames) name_width = std::max(name_width, event.name.size());
  for (const ingest::TraceReport* trace : for_people(traces)) {
    const ingest::TraceReport& t = *trace;
    const uint64_t segments = probe_segments_of(traces, trace, probe_segments);
    const TraceCheck check = check_trace(t, kinds, segments);
    out << readable_text(t.info.path) << ": " << readable_text(check.verdict) << "\n";
    if (!check.read) continue;
    out << "  host " << (t.info.hostname.empty() ? "-" : readable_text(t.info.hostname)) << ", clock domain "
        << readable_text(t.info.domain_id) << " (" << ingest::to_string(t.info.domain_source) << "), "
        << t.info.events << " events, " << t.info.network_events << " network events\n";
    if (!t.info.reader.empty()) {
      out << "  read by " << t.info.reader << " (" << readable_text(t.info.reader_reason) << ")\n";
    }
    if (!t.info.metadata_format.empty()) out << "  metadata format " << t.info.metadata_format << "\n";
    for (std::size_t i = 0; i < kNetworkEventNames.size(); ++i) {
      const NetworkEventTally& tally = t.info.network_census[i];
      const std::string_view direction = ingest::to_string(kNetworkEventNames[i].direction);
      out << "  " << direction << std::string(9 - direction.size(), ' ') << kNetworkEventNames[i].name
          << std::string(name_width - kNetworkEventNames[i].name.size() + 2, ' ');
      if (!tally.recorded && tally.events() == 0) {
        out << "not recorded\n";
        continue;
      }
      out << tally.events() << " events: " << tally.tcp << " TCP";
      if (tally.not_tcp > 0) out << ", " << tally.not_tcp << " not TCP";
      if (tally.undecodable > 0) out << ", " << tally.undecodable << " undecodable";
      if (!tally.missing.empty()) out << "; lacks TCP fields: " << readable_text(tally.missing);
      out << "\n";
    }
    if (check.probe_events) {
      out << "  probe rounds: tracesync probe's events (tracesync_probe:round_send, round_recv); "
             "--messages probe pairs them\n";
    }
    if (check.probe_segments > 0) {
      out << "  probe rounds: " << check.probe_segments << " TCP events from or to a --probe-port; sync with the same "
             "--probe-port counts them apart\n";
    }
    for (std::size_t k = 0; k < kinds.size() && k < t.info.app_census.size(); ++k) {
      if (kinds[k].is_signal()) {
        out << "  signal '" << readable_text(kinds[k].name) << "': "
            << readable_text(signal_finding(kinds[k], t.info.app_census[k])) << "\n";
        continue;
      }
      out << "  messages '" << readable_text(kinds[k].name) << "': "
          << readable_text(kind_finding(kinds[k], t.info.app_census[k])) << "\n";
    }
    if (!t.info.offered_classes.empty()) {
      out << "  user-space event classes (fields that could serve as a key):\n";
      for (const ingest::OfferedEventClass& c : t.info.offered_classes) {
        out << "    " << readable_text(c.name) << ":";
        for (std::size_t i = 0; i < c.key_fields.size(); ++i) {
          out << (i == 0 ? " " : ", ") << readable_text(c.key_fields[i]);
        }
        if (c.key_fields.empty()) out << " none";
        out << "\n";
      }
    }
  }
}

ordered_json check_json(const std::vector<ingest::TraceReport>& traces, const std::vector<ingest::MessageSpec>& kinds,
                        const ProbeSegments& probe_segments) {
  ordered_json root;
  root["format"] = "tracesync-check/1";
  ordered_json names = ordered_json::array();
  for (const auto& event : kNetworkEventNames) {
    names.push_back({{"name", event.name}, {"direction", ingest::to_string(event.direction)}});
  }
  root["network_events"] = std::move(names);
  ordered_json list = ordered_json::array();
  std::size_t read = 0;
  std::size_t usable = 0;
  for (const ingest::TraceReport* trace : for_people(traces)) {
    const ingest::TraceReport& t = *trace;
    const uint64_t segments = probe_segments_of(traces, trace, probe_segments);
    const TraceCheck check = check_trace(t, kinds, segments);
    read += check.read ? 1 : 0;
    usable += check.usable ? 1 : 0;
    ordered_json j;
    snapshot::put_name(j, "path", t.info.path);
    snapshot::put_name(j, "name", t.info.name);
    j["status"] = ingest::to_string(t.status);
    j["problem"] = t.problem.empty() ? ordered_json(nullptr) : snapshot::readable_json(t.problem);
    j["usable"] = check.usable;
    j["verdict"] = snapshot::readable_json(check.verdict);
    if (t.info.hostname.empty()) {
      j["hostname"] = nullptr;
    } else {
      snapshot::put_name(j, "hostname", t.info.hostname);
    }
    snapshot::put_name(j, "domain", t.info.domain_id);
    j["domain_source"] = ingest::to_string(t.info.domain_source);
    j["events"] = t.info.events;
    j["network_events"] = t.info.network_events;
    j["damaged_packets"] = t.info.damaged_packets;
    j["damaged_network_events"] = t.info.damaged_network_events;
    j["reader"] = t.info.reader.empty() ? ordered_json(nullptr) : ordered_json(t.info.reader);
    j["reader_reason"] = t.info.reader_reason.empty() ? ordered_json(nullptr) : snapshot::readable_json(t.info.reader_reason);
    j["metadata_format"] = t.info.metadata_format.empty() ? ordered_json(nullptr) : ordered_json(t.info.metadata_format);
    j["probe_rounds"] = check.probe_rounds;
    if (!probe_segments.empty()) j["probe_segments"] = check.probe_segments;
    j["tcp_sends"] = ingest::tcp_events(t.info.network_census, Direction::kSend);
    j["tcp_receives"] = ingest::tcp_events(t.info.network_census, Direction::kReceive);
    ordered_json by_name = ordered_json::array();
    for (std::size_t i = 0; i < kNetworkEventNames.size(); ++i) {
      const NetworkEventTally& tally = t.info.network_census[i];
      by_name.push_back({{"name", kNetworkEventNames[i].name},
                         {"direction", ingest::to_string(kNetworkEventNames[i].direction)},
                         {"recorded", tally.recorded || tally.events() > 0},
                         {"events", tally.events()},
                         {"tcp", tally.tcp},
                         {"not_tcp", tally.not_tcp},
                         {"undecodable", tally.undecodable},
                         {"missing", tally.missing.empty() ? ordered_json(nullptr) : snapshot::readable_json(tally.missing)}});
    }
    j["event_names"] = std::move(by_name);
    ordered_json by_kind = ordered_json::array();
    ordered_json signals = ordered_json::array();
    for (std::size_t k = 0; k < kinds.size() && k < t.info.app_census.size(); ++k) {
      const ingest::AppEventTally& tally = t.info.app_census[k];
      if (kinds[k].is_signal()) {
        signals.push_back({{"name", snapshot::readable_json(kinds[k].name)},
                           {"event", snapshot::readable_json(kinds[k].send_event)},
                           {"recorded", tally.send_recorded},
                           {"occurrences", tally.sends},
                           {"undecodable", tally.undecodable},
                           {"problem", tally.problem.empty() ? ordered_json(nullptr) : snapshot::readable_json(tally.problem)}});
        continue;
      }
      by_kind.push_back({{"kind", k + 1},
                         {"name", snapshot::readable_json(kinds[k].name)},
                         {"send_recorded", tally.send_recorded},
                         {"receive_recorded", tally.receive_recorded},
                         {"sends", tally.sends},
                         {"receives", tally.receives},
                         {"key_too_long", tally.key_too_long},
                         {"undecodable", tally.undecodable},
                         {"problem", tally.problem.empty() ? ordered_json(nullptr) : snapshot::readable_json(tally.problem)}});
    }
    j["message_kinds"] = std::move(by_kind);
    if (!signals.empty()) j["signals"] = std::move(signals);
    ordered_json offered = ordered_json::array();
    for (const ingest::OfferedEventClass& c : t.info.offered_classes) {
      ordered_json fields = ordered_json::array();
      for (const std::string& field : c.key_fields) fields.push_back(snapshot::readable_json(field));
      offered.push_back({{"name", snapshot::readable_json(c.name)}, {"key_fields", std::move(fields)}});
    }
    j["user_space_event_classes"] = std::move(offered);
    list.push_back(std::move(j));
  }
  root["traces"] = std::move(list);
  root["read"] = read;
  root["usable"] = usable;
  return root;
}

}  // namespace tracesync::cli
