// SPDX-License-Identifier: EPL-2.0
#include "snapshot/link_evidence_summary.h"

#include <set>

namespace tracesync::snapshot {

namespace {
// The send event of the built-in kind `probe` (ingest/message_spec.h): a
// kind is tracesync probe's whatever name the user gave it.
constexpr std::string_view kProbeSendEvent = "tracesync_probe:round_send";
}  // namespace

LinkEvidenceSummary link_evidence_summary(const v1::Link& link, const v1::EngineOptions& options) {
  LinkEvidenceSummary evidence;
  std::set<uint32_t> probe_kinds;
  for (const v1::MessageKind& k : options.message_kinds()) {
    if (k.send_event() == kProbeSendEvent) probe_kinds.insert(k.kind());
  }
  if (options.probe_ports_size() > 0) {
    // Kernel traces' TCP segments of tracesync probe, told by their port.
    v1::LinkDetail detail;
    if (detail.ParseFromString(link.detail())) evidence.probe_messages += detail.matching().probe_matches();
  }
  if (link.message_kinds_size() == 0) {
    // No --messages: every message is a TCP segment.
    if (link.messages() > 0) evidence.messages.push_back({"tcp", link.messages()});
    return evidence;
  }
  for (const v1::KindMessages& k : link.message_kinds()) {
    if (k.matches() == 0) continue;
    evidence.messages.push_back({k.name(), k.matches()});
    if (probe_kinds.count(k.kind()) != 0) evidence.probe_messages += k.matches();
  }
  return evidence;
}

std::string evidence_text(const LinkEvidenceSummary& evidence) {
  if (evidence.messages.empty()) return "no messages";
  std::string text;
  for (const LinkEvidenceSummary::Kind& k : evidence.messages) {
    text += (text.empty() ? "" : ", ") + std::to_string(k.messages) + " " + k.name;
  }
  text += " message(s)";
  if (evidence.probe_messages > 0) {
    text += "; " + std::to_string(evidence.probe_messages) + " of tracesync probe's rounds";
  }
  return text;
}

}  // namespace tracesync::snapshot
