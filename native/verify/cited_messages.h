// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tracesync::verify {

// One message a certificate cites: its send on a trace of the sender's
// domain, its receive on a trace of the receiver's (docs/verify.md).
struct CitedMessage {
  std::string where;  // "link A / B segment k, a -> b message 3"
  int64_t send_ns = 0;
  int64_t receive_ns = 0;
  std::vector<std::string> sender_traces;    // the report's names of the sender domain's traces
  std::vector<std::string> receiver_traces;
  // Where the certificate says each event was read: the trace (one of the
  // domain's) and its stream file, as named in the trace directory. Empty
  // when the certificate does not say (the reader did not name the file).
  std::string send_trace, send_stream;
  std::string receive_trace, receive_stream;
};

// Every message of every link segment of the certificate, in its order.
// Throws VerifyInputError when the certificate is malformed.
std::vector<CitedMessage> cited_messages(const nlohmann::json& certificate);

// A send or receive event found in a trace at a cited instant: the trace
// it is in and its message key in words ("TCP seq 1 ack_seq 2 flags 24"),
// equal for the two ends of one message.
struct RecordedEvent {
  std::string trace;
  std::string key;
  std::string stream;  // the stream file it was read from; empty when the reader does not say
};

// The events a trace holds at an instant, one direction: what a re-reading
// of the traces found (an empty list when none).
using EventsAt = std::function<const std::vector<RecordedEvent>&(const std::string& trace, bool send, int64_t time_ns)>;

// The first cited message the traces do not hold, in words naming it and
// what is missing: no send event at its send time on any trace of its
// sender (on the trace and in the stream file the certificate names, when
// it names them), no receive event at its receive time on any of its
// receiver (likewise), or no send and receive there with one key. A named
// trace that is not of the sender's (receiver's) domain is a disagreement
// too. Empty when every message is held; `in_stream_files` counts the
// events found in the stream file the certificate names.
std::string first_message_not_in_traces(const std::vector<CitedMessage>& messages, const EventsAt& events_at,
                                        std::size_t* in_stream_files = nullptr);

}  // namespace tracesync::verify
