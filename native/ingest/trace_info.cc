// SPDX-License-Identifier: EPL-2.0
#include "ingest/trace_info.h"

#include <algorithm>

namespace tracesync::ingest {

std::string_view to_string(DomainSource source) {
  switch (source) {
    case DomainSource::kClockUuid:
      return "clock-uuid";
    case DomainSource::kHostname:
      return "hostname";
    case DomainSource::kPath:
      return "path";
    case DomainSource::kOverride:
      return "override";
  }
  return "?";
}

std::pair<std::string, DomainSource> choose_domain(const TraceSource& source, const std::optional<ClockInfo>& clock,
                                                   std::string_view hostname) {
  if (source.domain_override) return {*source.domain_override, DomainSource::kOverride};
  if (clock && clock->uuid) return {*clock->uuid, DomainSource::kClockUuid};
  if (!hostname.empty()) return {std::string(hostname), DomainSource::kHostname};
  return {source.path, DomainSource::kPath};
}

std::string time_damage_text(const TraceInfo& info) {
  const auto count = [](uint64_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  return count(info.damaged_packets, "packet", "packets") + " with damaged time (docs/bad-input.md): " +
         (info.damaged_packets == 1 ? "its " : "their ") +
         count(info.damaged_network_events, "network event was", "network events were") +
         " not used for matching; " + (info.damaged_packets == 1 ? "" : "the first: ") + info.first_time_damage;
}

void add_read_figures(TraceInfo& into, const TraceInfo& more) {
  if (more.first_event) into.first_event = std::min(into.first_event.value_or(INT64_MAX), *more.first_event);
  if (more.last_event) into.last_event = std::max(into.last_event.value_or(INT64_MIN), *more.last_event);
  into.events += more.events;
  into.network_events += more.network_events;
  for (std::size_t i = 0; i < into.network_census.size(); ++i) {
    NetworkEventTally& mine = into.network_census[i];
    const NetworkEventTally& theirs = more.network_census[i];
    mine.recorded = mine.recorded || theirs.recorded;
    if (mine.missing.empty()) mine.missing = theirs.missing;
    mine.tcp += theirs.tcp;
    mine.not_tcp += theirs.not_tcp;
    mine.undecodable += theirs.undecodable;
  }
  into.app_census.resize(std::max(into.app_census.size(), more.app_census.size()));
  for (std::size_t i = 0; i < more.app_census.size(); ++i) {
    AppEventTally& mine = into.app_census[i];
    const AppEventTally& theirs = more.app_census[i];
    mine.send_recorded = mine.send_recorded || theirs.send_recorded;
    mine.receive_recorded = mine.receive_recorded || theirs.receive_recorded;
    if (mine.problem.empty()) mine.problem = theirs.problem;
    mine.sends += theirs.sends;
    mine.receives += theirs.receives;
    mine.key_too_long += theirs.key_too_long;
    mine.undecodable += theirs.undecodable;
  }
  into.damaged_packets += more.damaged_packets;
  into.damaged_network_events += more.damaged_network_events;
  if (into.first_time_damage.empty()) into.first_time_damage = more.first_time_damage;
}

}  // namespace tracesync::ingest
