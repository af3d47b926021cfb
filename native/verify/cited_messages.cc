// SPDX-License-Identifier: EPL-2.0
#include "verify/cited_messages.h"

#include "verify/json_fields.h"

namespace tracesync::verify {
namespace {

using nlohmann::json;

std::vector<std::string> names(const json& list, const std::string& where) {
  if (!list.is_array()) throw VerifyInputError(where + ": not a list of traces");
  std::vector<std::string> out;
  for (const json& n : list) {
    if (!n.is_string()) throw VerifyInputError(where + ": a trace name that is not a string");
    out.push_back(n.get<std::string>());
  }
  return out;
}

std::string listed(const std::vector<std::string>& traces) {
  std::string out;
  for (const std::string& t : traces) out += (out.empty() ? "" : ", ") + t;
  return out.empty() ? "(none)" : out;
}

std::string describe(const CitedMessage& m) {
  return m.where + " (sent " + std::to_string(m.send_ns) + " ns, received " + std::to_string(m.receive_ns) + " ns)";
}

// The events of `direction` at `time` on any of `traces`.
std::vector<const RecordedEvent*> held(const std::vector<std::string>& traces, bool send, int64_t time,
                                       const EventsAt& events_at) {
  std::vector<const RecordedEvent*> out;
  for (const std::string& t : traces) {
    for (const RecordedEvent& e : events_at(t, send, time)) out.push_back(&e);
  }
  return out;
}

}  // namespace

std::vector<CitedMessage> cited_messages(const json& certificate) {
  std::vector<CitedMessage> out;
  for (const json& link : field(certificate, "links", "certificate")) {
    const std::string a = text(link, "a", "certificate link"), b = text(link, "b", "certificate link");
    const std::string name = "link " + a + " / " + b;
    const std::vector<std::string> a_traces = names(field(link, "a_traces", name), name);
    const std::vector<std::string> b_traces = names(field(link, "b_traces", name), name);
    const json& segments = field(link, "segments", name);
    for (std::size_t k = 0; k < segments.size(); ++k) {
      const std::string segment = name + " segment " + std::to_string(k);
      for (const bool a_to_b : {true, false}) {
        const json& list = field(segments[k], a_to_b ? "a_to_b" : "b_to_a", segment);
        for (std::size_t i = 0; i < list.size(); ++i) {
          out.push_back({segment + ", " + (a_to_b ? "a -> b" : "b -> a") + " message " + std::to_string(i),
                         integer(list[i], "send_ns", segment), integer(list[i], "receive_ns", segment),
                         a_to_b ? a_traces : b_traces, a_to_b ? b_traces : a_traces});
        }
      }
    }
  }
  return out;
}

std::string first_message_not_in_traces(const std::vector<CitedMessage>& messages, const EventsAt& events_at) {
  for (const CitedMessage& m : messages) {
    const auto sends = held(m.sender_traces, true, m.send_ns, events_at);
    if (sends.empty()) {
      return describe(m) + ": no send event at " + std::to_string(m.send_ns) + " ns in the sender's traces (" +
             listed(m.sender_traces) + ")";
    }
    const auto receives = held(m.receiver_traces, false, m.receive_ns, events_at);
    if (receives.empty()) {
      return describe(m) + ": no receive event at " + std::to_string(m.receive_ns) + " ns in the receiver's traces (" +
             listed(m.receiver_traces) + ")";
    }
    bool one_message = false;
    for (const RecordedEvent* s : sends) {
      for (const RecordedEvent* r : receives) one_message = one_message || s->key == r->key;
    }
    if (!one_message) {
      return describe(m) + ": the send there (" + sends.front()->trace + ", " + sends.front()->key +
             ") and the receive (" + receives.front()->trace + ", " + receives.front()->key +
             ") are not one message: their keys differ";
    }
  }
  return {};
}

}  // namespace tracesync::verify
