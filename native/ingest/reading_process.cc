// SPDX-License-Identifier: EPL-2.0
#include "ingest/reading_process.h"

#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <string>

#include "ingest/ctf_trace_reader.h"
#include "ingest/frame_channel.h"
#include "ingest/reader_protocol.h"
#include "ingest/trace_being_read.h"

namespace tracesync::ingest {

namespace {

namespace protocol = reader_protocol;

// Forwards what the reader gives its sink to the parent, frame by frame.
// A broken channel (the parent gone) is remembered; the serving loop then
// ends.
class ChannelSink final : public EventSink {
 public:
  explicit ChannelSink(FrameChannel& channel) : channel_(channel) {}

  void trace_opened(match::TraceIndex, const TraceInfo& info) override {
    note(channel_.send(protocol::kOpened, protocol::encode(info)));
  }
  void trace_events(match::TraceIndex, std::span<const match::PacketEvent> events,
                    model::Nanoseconds progress) override {
    note(channel_.send(protocol::kEvents, protocol::encode_promise(progress), std::as_bytes(events)));
  }
  void trace_closed(match::TraceIndex) override { note(channel_.send(protocol::kClosed, {})); }

  bool broken() const { return broken_; }

 private:
  void note(bool sent) { broken_ = broken_ || !sent; }
  FrameChannel& channel_;
  bool broken_ = false;
};

void complain(const std::string& what) { std::fprintf(stderr, "tracesync read-trace: %s\n", what.c_str()); }

// A reading process outlives nothing: when the parent dies (even killed),
// the kernel kills it, instead of leaving it looping on a damaged trace.
void die_with(int64_t parent) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(1);  // the parent died before the line above
}

}  // namespace

int serve_trace_reading(int read_fd, int write_fd) {
  FrameChannel channel(read_fd, write_fd);
  uint32_t type = 0;
  std::vector<std::byte> payload;
  if (!channel.receive(type, payload) || type != protocol::kOpen) {
    complain("expected an open request from the parent (this command is tracesync's own)");
    return 1;
  }
  const std::optional<protocol::OpenRequest> open = protocol::decode_open(payload);
  if (!open) {
    complain("malformed open request");
    return 1;
  }
  if (open->version != protocol::kVersion || open->event_size != sizeof(match::PacketEvent)) {
    // Answer the first step, so that the parent names the problem.
    protocol::StepReport refusal;
    refusal.state = TraceReader::State::kFailed;
    refusal.problem = "the reading program is from another build of tracesync (protocol " +
                      std::to_string(open->version) + ", expected " + std::to_string(protocol::kVersion) + ")";
    if (channel.receive(type, payload) && channel.send(protocol::kStepDone, protocol::encode(refusal))) channel.flush();
    return 1;
  }
  die_with(open->parent_pid);

  const ReadingThreadStack signal_stack;
  ChannelSink sink(channel);
  CtfTraceReader reader(open->source, open->index, open->options, sink);
  while (channel.receive(type, payload)) {
    const std::optional<uint64_t> rounds = type == protocol::kStep ? protocol::decode_rounds(payload) : std::nullopt;
    if (!rounds) {
      complain("malformed step request");
      return 1;
    }
    protocol::StepReport report;
    report.state = reader.step(*rounds);
    report.progress = reader.progress();
    report.bytes_read = reader.bytes_read();
    report.info = reader.info();
    report.problem = reader.problem();
    if (sink.broken() || !channel.send(protocol::kStepDone, protocol::encode(report)) || !channel.flush()) return 1;
  }
  return channel.error().empty() ? 0 : 1;
}

}  // namespace tracesync::ingest
