// SPDX-License-Identifier: EPL-2.0
#include "ingest/trace_info.h"

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

}  // namespace tracesync::ingest
