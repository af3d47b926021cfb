// SPDX-License-Identifier: EPL-2.0
#include "session/message_kinds.h"

#include <string>
#include <tuple>

namespace tracesync::session {

std::vector<v1::MessageKind> reported_kinds(const std::vector<ingest::MessageSpec>& specs) {
  std::vector<v1::MessageKind> kinds;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const ingest::MessageSpec& spec = specs[i];
    v1::MessageKind& kind = kinds.emplace_back();
    kind.set_kind(static_cast<uint32_t>(i + 1));
    kind.set_name(spec.name);
    kind.set_send_event(spec.send_event);
    kind.set_receive_event(spec.receive_event);
    for (const ingest::KeyField& field : spec.key) kind.add_key(field.text());
    kind.set_spec(spec.text);
  }
  return kinds;
}

void add_kind_matching(Session& session, const std::vector<match::MatchStatistics>& per_kind,
                       const std::map<std::pair<match::PacketMatcher::LinkKey, match::MessageKind>,
                                      match::MatchStatistics>& per_link_kind) {
  for (std::size_t kind = 0; kind < per_kind.size(); ++kind) {
    session.add_kind_matching(static_cast<match::MessageKind>(kind), per_kind[kind]);
  }
  for (const auto& [key, statistics] : per_link_kind) {
    session.add_link_kind_matches(key.first.first, key.first.second, key.second, statistics.matches);
  }
}

namespace {

v1::Problem problem(const std::string& source, const std::string& message, bool skipped) {
  v1::Problem p;
  p.set_source(source);
  p.set_message(message);
  p.set_skipped(skipped);
  return p;
}

}  // namespace

std::vector<v1::Problem> message_problems(const std::vector<ingest::MessageSpec>& kinds,
                                          const std::vector<ingest::TraceReport>& traces) {
  std::vector<v1::Problem> out;
  std::vector<bool> sent(kinds.size(), false), received(kinds.size(), false);
  bool any_read = false;
  for (const ingest::TraceReport& t : traces) {
    if (t.status == ingest::TraceStatus::kSkipped) continue;
    any_read = true;
    for (std::size_t k = 0; k < kinds.size() && k < t.info.app_census.size(); ++k) {
      const ingest::AppEventTally& tally = t.info.app_census[k];
      sent[k] = sent[k] || tally.send_recorded;
      received[k] = received[k] || tally.receive_recorded;
      if (!tally.problem.empty()) {
        out.push_back(problem(t.info.path, "messages '" + kinds[k].name + "': " + tally.problem, false));
      }
      if (tally.key_too_long > 0) {
        out.push_back(problem(t.info.path,
                              "messages '" + kinds[k].name + "': " + std::to_string(tally.key_too_long) +
                                  " events have a key longer than " + std::to_string(match::AppKey::kBytes) +
                                  " bytes and were not matched (docs/app-messages.md)",
                              false));
      }
    }
  }
  for (std::size_t k = 0; k < kinds.size() && any_read; ++k) {
    for (const auto& [found, event, role] : {std::tuple<bool, const std::string&, const char*>{sent[k], kinds[k].send_event, "send"},
                                             std::tuple<bool, const std::string&, const char*>{received[k], kinds[k].receive_event, "receive"}}) {
      if (!found) {
        out.push_back(problem("", "messages '" + kinds[k].name + "': no trace records its " + role + " event " + event +
                                      " (its spec: '" + kinds[k].text + "')",
                              false));
      }
    }
  }
  return out;
}

}  // namespace tracesync::session
