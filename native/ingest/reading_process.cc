// SPDX-License-Identifier: EPL-2.0
#include "ingest/reading_process.h"

#include <sys/prctl.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "ingest/ctf_trace_reader.h"
#include "ingest/frame_channel.h"
#include "ingest/growing_trace_reader.h"
#include "ingest/live_trace_reader.h"
#include "ingest/reader_protocol.h"
#include "ingest/trace_being_read.h"

namespace tracesync::ingest {

namespace {

namespace protocol = reader_protocol;

// Forwards what the readers give their sink to the parent, frame by frame,
// each addressed to its trace. A broken channel (the parent gone) is
// remembered; the serving loop then ends.
class ChannelSink final : public EventSink {
 public:
  explicit ChannelSink(FrameChannel& channel) : channel_(channel) {}

  void trace_opened(match::TraceIndex trace, const TraceInfo& info) override {
    note(channel_.send(protocol::kOpened, protocol::addressed(trace, protocol::encode(info))));
  }
  void trace_events(match::TraceIndex trace, std::span<const match::PacketEvent> events,
                    model::Nanoseconds progress) override {
    protocol::EventsHeader header;
    header.promise = progress;
    if (stepping_ != nullptr) {
      header.events_read = stepping_->info().events;
      header.delivered = stepping_->resume_point();
    }
    if (folder_ != nullptr) header.folder = folder_->position();
    if (live_ != nullptr) header.live_cut = live_->live_cut();
    note(channel_.send(protocol::kEvents, protocol::addressed(trace, protocol::encode(header)), std::as_bytes(events)));
  }
  void trace_closed(match::TraceIndex trace) override {
    note(channel_.send(protocol::kClosed, protocol::addressed(trace, {})));
  }

  bool broken() const { return broken_; }
  // The reader being stepped, whose resume point goes with its events.
  void stepping(const ResumableTraceReader* reader) { stepping_ = reader; }
  // The followed folder being stepped, whose position goes with its events.
  void stepping_folder(const GrowingTraceReader* folder) { folder_ = folder; }
  // The live session being stepped, whose cut goes with its events.
  void stepping_live(const LiveTraceReader* live) { live_ = live; }

 private:
  void note(bool sent) { broken_ = broken_ || !sent; }
  FrameChannel& channel_;
  const ResumableTraceReader* stepping_ = nullptr;
  const GrowingTraceReader* folder_ = nullptr;
  const LiveTraceReader* live_ = nullptr;
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

namespace {

// The traces a reading process holds open, each read a step at a time as
// the parent asks.
class TracesServed {
 public:
  explicit TracesServed(FrameChannel& channel) : channel_(channel), sink_(channel) {}

  // Exit code when the process must end (a malformed or refused request),
  // else nullopt.
  std::optional<int> open(std::span<const std::byte> payload) {
    std::optional<protocol::OpenRequest> open = protocol::decode_open(payload);
    if (!open) {
      complain("malformed open request");
      return 1;
    }
    if (open->version != protocol::kVersion || open->event_size != sizeof(match::PacketEvent)) {
      refuse(*open);
      return 1;
    }
    if (readers_.empty() && !parent_known_) {
      die_with(open->parent_pid);
      parent_known_ = true;
    }
    Served& served = readers_[open->index];
    served = Served{};
    if (open->follow.kind == protocol::FollowedSource::Kind::kNone) {
      served.resumable = make_trace_reader(open->source, open->index, open->options, sink_);
      served.resumable->resume_after(std::move(open->resume));
      return std::nullopt;
    }
    if (open->follow.kind == protocol::FollowedSource::Kind::kFolder) {
      auto folder = std::make_unique<GrowingTraceReader>(open->source, open->index, open->options, sink_,
                                                         std::chrono::milliseconds(open->follow.quiet_end_ms));
      folder->stage_in(open->follow.staging_parent);
      folder->resume_at(std::move(open->folder));  // after what a process that died gave
      served.folder = folder.get();
      served.followed = std::move(folder);
      return std::nullopt;
    }
    std::unique_ptr<LiveTraceReader> live = make_live_session_reader(*open);
    served.live = live.get();
    served.followed = std::move(live);
    if (served.followed) return std::nullopt;
    readers_.erase(open->index);
    return 1;
  }

  // The parent parks the trace: its reader (graph, files, buffers) goes.
  std::optional<int> close(std::span<const std::byte> payload) {
    const std::optional<match::TraceIndex> trace = protocol::take_address(payload);
    if (!trace || !payload.empty()) {
      complain("malformed close request");
      return 1;
    }
    readers_.erase(*trace);
    return std::nullopt;
  }

  std::optional<int> step(std::span<const std::byte> payload) {
    const std::optional<match::TraceIndex> trace = protocol::take_address(payload);
    const std::optional<uint64_t> rounds = trace ? protocol::decode_rounds(payload) : std::nullopt;
    if (!rounds) {
      complain("malformed step request");
      return 1;
    }
    const auto found = readers_.find(*trace);
    if (found == readers_.end()) {
      complain("asked to step trace " + std::to_string(*trace) + ", which it was not asked to open");
      return 1;
    }
    Served& served = found->second;
    TraceReader& reader = served.reader();
    protocol::StepReport report;
    sink_.stepping(served.resumable.get());
    sink_.stepping_folder(served.folder);
    sink_.stepping_live(served.live);
    report.state = reader.step(*rounds);
    sink_.stepping(nullptr);
    sink_.stepping_folder(nullptr);
    sink_.stepping_live(nullptr);
    report.progress = reader.progress();
    report.bytes_read = reader.bytes_read();
    report.info = reader.info();
    report.problem = reader.problem();
    const bool over = report.state == TraceReader::State::kDone || report.state == TraceReader::State::kFailed;
    if (!over && served.resumable) report.delivered = served.resumable->resume_point();
    if (!over && served.folder != nullptr) report.folder = served.folder->position();
    if (served.live != nullptr) {
      report.gaps = served.live->gaps();
      report.unserved = served.live->unserved();
    }
    if (served.followed) {
      report.waiting = served.followed->waiting();
      if (report.state == TraceReader::State::kDone) report.end_words = served.followed->end_words();
    }
    if (over) readers_.erase(found);  // its graph and files go now, not when the process ends
    if (sink_.broken() || !channel_.send(protocol::kStepDone, protocol::addressed(*trace, protocol::encode(report))) ||
        !channel_.flush()) {
      return 1;
    }
    return std::nullopt;
  }

 private:
  // Answers the next step, so that the parent names the problem.
  void refuse(const protocol::OpenRequest& open) {
    protocol::StepReport refusal;
    refusal.state = TraceReader::State::kFailed;
    refusal.problem = "the reading program is from another build of tracesync (protocol " +
                      std::to_string(open.version) + ", expected " + std::to_string(protocol::kVersion) + ")";
    uint32_t type = 0;
    std::vector<std::byte> payload;
    if (!channel_.receive(type, payload)) return;
    std::span<const std::byte> rest(payload);
    const match::TraceIndex trace = protocol::take_address(rest).value_or(0);
    if (channel_.send(protocol::kStepDone, protocol::addressed(trace, protocol::encode(refusal)))) channel_.flush();
  }

  // A trace read as recorded (resumable: a new process reads on where the
  // last one stopped), or a source followed while it is recorded.
  struct Served {
    std::unique_ptr<ResumableTraceReader> resumable;
    std::unique_ptr<FollowedTraceReader> followed;
    GrowingTraceReader* folder = nullptr;  // followed, when it is a folder
    LiveTraceReader* live = nullptr;       // followed, when it is a live session
    TraceReader& reader() const {
      if (followed) return *followed;
      return *resumable;
    }
  };

  // The reader of a followed live session; null when the request is malformed.
  std::unique_ptr<LiveTraceReader> make_live_session_reader(const protocol::OpenRequest& open) {
    std::string problem;
    const std::optional<LiveSessionUrl> url = parse_live_session_url(open.source.path, problem);
    if (!url) {
      complain("malformed live session in an open request: " + problem);
      return nullptr;
    }
    auto live = std::make_unique<LiveTraceReader>(*url, open.index, open.options, sink_);
    if (open.live_cut.through != INT64_MIN) live->resume_after(open.live_cut);
    return live;
  }

  FrameChannel& channel_;
  ChannelSink sink_;
  std::map<match::TraceIndex, Served> readers_;
  bool parent_known_ = false;
};

}  // namespace

int serve_trace_reading(int read_fd, int write_fd) {
  FrameChannel channel(read_fd, write_fd);
  // The parent matches what came while this process reads on.
  channel.write_in_background();
  uint32_t type = 0;
  std::vector<std::byte> payload;
  if (!channel.receive(type, payload) || type != protocol::kOpen) {
    complain("expected an open request from the parent (this command is tracesync's own)");
    return 1;
  }
  const ReadingThreadStack signal_stack;
  TracesServed traces(channel);
  do {
    std::optional<int> end;
    if (type == protocol::kOpen) {
      end = traces.open(payload);
    } else if (type == protocol::kStep) {
      end = traces.step(payload);
    } else if (type == protocol::kClose) {
      end = traces.close(payload);
    } else {
      complain("unknown request " + std::to_string(type));
      end = 1;
    }
    if (end) return *end;
  } while (channel.receive(type, payload));
  return channel.error().empty() ? 0 : 1;
}

}  // namespace tracesync::ingest
