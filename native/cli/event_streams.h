// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ingest/event_sink.h"
#include "snapshot/certificate.h"

namespace tracesync::cli {

// Where each network event of a sync was read, for its certificate
// (`sync --certificate`, docs/verify.md): beside the matcher, it keeps every
// send and receive event's time, key and stream file, 24 bytes an event, so
// that the certificate can name the stream file of each event it cites
// without reading the traces a second time.
class EventStreams final : public ingest::EventSink {
 public:
  void trace_opened(match::TraceIndex trace, const ingest::TraceInfo& info) override;
  void trace_events(match::TraceIndex trace, std::span<const match::PacketEvent> events,
                    model::Nanoseconds progress) override;
  void trace_closed(match::TraceIndex) override {}

  // After the reading: where the two events of a message were read. The send
  // at `send_ns` on one of `sender_traces` and the receive at `receive_ns` on
  // one of `receiver_traces` (the report's trace names), the two with one
  // key when several events share an instant. An end the readers did not
  // place in a stream file (babeltrace2, an extract) is left empty.
  snapshot::CitedEvents cite(const std::vector<std::string>& sender_traces, int64_t send_ns,
                             const std::vector<std::string>& receiver_traces, int64_t receive_ns);

 private:
  struct Event {
    int64_t time = 0;
    uint64_t key = 0;  // a fingerprint of the message key: equal for both ends of one message
    match::StreamIndex stream = match::kNoStream;
    bool send = false;
  };
  struct Trace {
    std::string name;
    std::vector<std::string> stream_files;
    std::vector<Event> events;  // sorted by (send, time) at the first cite()
  };
  struct Found {
    const Trace* trace;
    const Event* event;
  };
  std::vector<Found> at(const std::vector<std::string>& traces, bool send, int64_t time);

  std::mutex mutex_;  // traces opened on several threads
  std::map<match::TraceIndex, std::unique_ptr<Trace>> traces_;
  bool sorted_ = false;
};

}  // namespace tracesync::cli
