// SPDX-License-Identifier: EPL-2.0
#include "verify/cited_messages.h"

#include <algorithm>
#include <tuple>

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

// The events of `direction` at `time` on any of `traces`, or only on
// `trace` and in `stream` when the certificate names them.
std::vector<const RecordedEvent*> held(const std::vector<std::string>& traces, const std::string& trace,
                                       const std::string& stream, bool send, int64_t time, const EventsAt& events_at) {
  std::vector<const RecordedEvent*> out;
  for (const std::string& t : traces) {
    if (!trace.empty() && t != trace) continue;
    for (const RecordedEvent& e : events_at(t, send, time)) {
      if (stream.empty() || e.stream == stream) out.push_back(&e);
    }
  }
  return out;
}

// "the sender's traces (A, B)", or "stream file F of trace T".
std::string where_looked(const char* whose, const std::vector<std::string>& traces, const std::string& trace,
                         const std::string& stream) {
  if (trace.empty()) return std::string("the ") + whose + "'s traces (" + listed(traces) + ")";
  return (stream.empty() ? "" : "stream file " + stream + " of ") + "trace " + trace;
}

// Names of an event's trace and stream file, when the certificate gives them.
std::string optional_text(const json& message, const char* key, const std::string& where) {
  if (!message.contains(key)) return {};
  if (!message[key].is_string() || message[key].get<std::string>().empty()) {
    throw VerifyInputError(where + ": `" + key + "` is not a name");
  }
  return message[key].get<std::string>();
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
          CitedMessage& m = out.emplace_back();
          m.where = segment + ", " + (a_to_b ? "a -> b" : "b -> a") + " message " + std::to_string(i);
          m.send_ns = integer(list[i], "send_ns", segment);
          m.receive_ns = integer(list[i], "receive_ns", segment);
          m.sender_traces = a_to_b ? a_traces : b_traces;
          m.receiver_traces = a_to_b ? b_traces : a_traces;
          m.send_trace = optional_text(list[i], "send_trace", m.where);
          m.send_stream = optional_text(list[i], "send_stream", m.where);
          m.receive_trace = optional_text(list[i], "receive_trace", m.where);
          m.receive_stream = optional_text(list[i], "receive_stream", m.where);
          if ((m.send_trace.empty() && !m.send_stream.empty()) ||
              (m.receive_trace.empty() && !m.receive_stream.empty())) {
            throw VerifyInputError(m.where + ": a stream file without its trace");
          }
        }
      }
    }
  }
  return out;
}

std::string first_message_not_in_traces(const std::vector<CitedMessage>& messages, const EventsAt& events_at,
                                        std::size_t* in_stream_files) {
  std::size_t in_streams = 0;
  for (const CitedMessage& m : messages) {
    for (const auto& [trace, traces, whose] : {std::tuple{&m.send_trace, &m.sender_traces, "sender"},
                                               std::tuple{&m.receive_trace, &m.receiver_traces, "receiver"}}) {
      if (!trace->empty() && std::find(traces->begin(), traces->end(), *trace) == traces->end()) {
        return describe(m) + ": the certificate names trace " + *trace + ", not one of the " + whose +
               "'s traces (" + listed(*traces) + ")";
      }
    }
    const auto sends = held(m.sender_traces, m.send_trace, m.send_stream, true, m.send_ns, events_at);
    if (sends.empty()) {
      return describe(m) + ": no send event at " + std::to_string(m.send_ns) + " ns in " +
             where_looked("sender", m.sender_traces, m.send_trace, m.send_stream);
    }
    const auto receives = held(m.receiver_traces, m.receive_trace, m.receive_stream, false, m.receive_ns, events_at);
    if (receives.empty()) {
      return describe(m) + ": no receive event at " + std::to_string(m.receive_ns) + " ns in " +
             where_looked("receiver", m.receiver_traces, m.receive_trace, m.receive_stream);
    }
    in_streams += (m.send_stream.empty() ? 0 : 1) + (m.receive_stream.empty() ? 0 : 1);
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
  if (in_stream_files != nullptr) *in_stream_files = in_streams;
  return {};
}

}  // namespace tracesync::verify
