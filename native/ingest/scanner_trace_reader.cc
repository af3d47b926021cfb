// SPDX-License-Identifier: EPL-2.0
#include "ingest/scanner_trace_reader.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <new>

#include "ctf/trace_metadata.h"
#include "ingest/stream_instances.h"
#include "ingest/trace_being_read.h"
#include "ingest/trace_discovery.h"

namespace tracesync::ingest {

namespace fs = std::filesystem;

namespace {
// As CtfTraceReader: a thousand ticks a nanosecond at most.
constexpr uint64_t kMaxClockFrequency = 1'000'000'000'000;
const char* kTimeTooLarge = "a timestamp does not fit in 64-bit nanoseconds from the clock's origin";

// babeltrace2 2.0 works around an LTTng bug (fixed in lttng-ust 2.11.0 and
// lttng-modules 2.11.0, 2.10.10 and 2.9.13: a packet's last event may be
// later than its timestamp_end): for traces of the tracers before the fix,
// a packet whose timestamp_end is earlier than its last event (or than its
// beginning, when it has none) ends at that event instead. The scanner does
// the same, so that both readers judge the same packets damaged
// (docs/bad-input.md, "Damaged time"): on such traces a damaged
// timestamp_end is never seen, and events that jumped ahead show only
// against the next packet.
bool ends_packets_at_their_last_event(const ctf::TraceClass& trace) {
  const auto name = trace.environment_strings.find("tracer_name");
  const auto major = trace.environment_integers.find("tracer_major");
  if (name == trace.environment_strings.end() || major == trace.environment_integers.end()) return false;
  const auto integer = [&](const char* key, const char* other) -> int64_t {
    auto found = trace.environment_integers.find(key);
    if (found == trace.environment_integers.end() && other != nullptr) found = trace.environment_integers.find(other);
    return found == trace.environment_integers.end() ? 0 : found->second;
  };
  const int64_t minor = integer("tracer_minor", nullptr);
  const int64_t patch = integer("tracer_patch", "tracer_patchlevel");
  if (name->second == "lttng-ust") return major->second < 2 || (major->second == 2 && minor < 11);
  if (name->second != "lttng-modules") return false;
  if (major->second != 2) return major->second < 2;
  return minor < 9 || (minor == 9 && patch < 13) || (minor == 10 && patch < 10);
}

}  // namespace

struct ScannerTraceReader::Stream {
  Stream(const ctf::ScanPlan& plan, StreamInstance instance, std::vector<std::size_t> numbers, std::size_t place)
      : packets(std::move(instance.packets)), file_numbers(std::move(numbers)), number(place) {
    for (std::string& path : instance.files) files.push_back(std::make_unique<ctf::StreamScanner>(plan, std::move(path)));
  }
  // Scanned by one thread at a time (ScanAhead): its files' scanners, and
  // the selected events it met so far, delivered or not.
  std::vector<std::unique_ptr<ctf::StreamScanner>> files;  // one unless split (StreamInstance)
  // A split stream's packets in babeltrace2's order; empty: its files are
  // read one after the other, whole.
  std::vector<StreamInstance::Packet> packets;
  std::size_t next = 0;  // in `packets`
  std::size_t file = 0;  // the file being read
  std::vector<std::size_t> file_numbers;  // each file's among TraceInfo::stream_files
  uint64_t scan_position = 0;
  // The selected events its last packet scanned held: room made for as
  // many in the next (its vectors grew from nothing at every packet).
  std::size_t selected_before = 0;
  const ctf::StreamScanner& scanner() const { return *files[file]; }
  bool at_end() const {
    return packets.empty() ? file + 1 == files.size() && files[file]->at_end() : next == packets.size();
  }
  // Reads its next packet where babeltrace2 reads it (and what the tracer
  // says it discarded counts from the packet before, in whatever file).
  bool next_packet(ctf::EventVisitor& visitor, ctf::PacketSummary& summary, std::string& problem) {
    std::size_t to = file;
    if (!packets.empty()) {
      to = packets[next].file;
    } else if (files[file]->at_end()) {
      ++to;
    }
    if (to != file) {
      files[to]->carry_discarded(files[file]->discarded_so_far());
      file = to;
    }
    if (!packets.empty()) files[file]->seek(packets[next++].offset);
    return files[file]->next_packet(visitor, summary, problem);
  }
  // The rest is the reader's (taking the packets in order).
  std::size_t number;  // among the trace's streams
  bool ended = false;
  bool stopped = false;  // damaged: read no further (stop)
  bool began = false;
  bool saw_event = false;
  model::Nanoseconds reached = INT64_MIN;
  uint64_t network_read = 0;
  // Its packets carry timestamp_begin and timestamp_end: their times are
  // checked (StreamTimeCheck), as CtfTraceReader checks them, and a
  // packet's network events wait in `waiting` for its verdict (given at the
  // next packet's beginning).
  bool checks_time = false;
  const ctf::ScanPlan::StreamPlan* stream_plan = nullptr;  // its class's, once it began
  StreamTimeCheck time_check;
  std::vector<match::PacketEvent> waiting;
  uint64_t waiting_offset = 0;  // of the packet waiting, in bytes
  std::size_t waiting_file = 0, current_file = 0;  // the files of the packets waiting and being read
  // The network events of the packet being read, and each one's number
  // among the packet's events.
  std::vector<match::PacketEvent> current;
  std::vector<uint64_t> current_at;
  // When an event showed the current packet damaged: how many of `current`
  // came before the event before it (StreamTimeCheck::event).
  std::optional<std::size_t> trusted;
  // Every event it may still hand over is later than this.
  model::Nanoseconds settled() const { return waiting.empty() ? reached : std::min(reached, waiting.front().time - 1); }
};

// What scanning one packet of a stream gave, for the reader to take in order
// (ScanAhead): the scanner's summary and verdict, and the selected events
// not yet delivered by a predecessor, decoded.
struct ScannerTraceReader::ScannedPacket {
  ctf::PacketSummary summary;
  bool fine = true;
  std::string problem;
  std::size_t file = 0;  // among its stream's files
  bool bad_time = false;  // a selected event's time does not fit in nanoseconds
  uint64_t end_offset = 0;  // the scanner's offset after it
  bool at_end = false;
  uint64_t selected = 0;  // selected events met (network events), delivered ones included
  model::Nanoseconds reached = INT64_MIN;  // the latest of their times
  std::vector<match::PacketEvent> events;
  std::vector<uint64_t> at;       // each event's number among the packet's events
  std::vector<std::size_t> classes;  // each event's selected class (selected_)
  // A resumed reader's events a predecessor gave: decoded only to be
  // counted in the census (an uncut reading counts them), with their classes.
  std::vector<match::PacketEvent> given_before;
  std::vector<std::size_t> given_before_classes;
};

// Hears of the selected events of one packet and decodes them into a
// ScannedPacket. Runs on a scanning thread: it reads only what the reader
// never changes while reading (its plans, options and resume point).
class ScannerTraceReader::Collector final : public ctf::EventVisitor {
 public:
  Collector(const ScannerTraceReader& reader, Stream& stream, ScannedPacket& out)
      : reader_(reader), stream_(stream), out_(out) {}
  void selected_event(const ctf::ScanPlan::EventPlan& event, const ctf::ScanPlan::StreamPlan& stream_plan,
                      uint64_t clock, const ctf::CapturedField* captures) override {
    if (out_.bad_time) return;
    const auto time = stream_plan.time.ns_from_origin(clock);
    if (!time) {
      out_.bad_time = true;
      // The stream reached the event before it: the trace is cut there.
      if (const auto before = out_.summary.clock_before_last) {
        out_.reached = std::max(out_.reached, stream_plan.time.ns_from_origin(*before).value_or(INT64_MIN));
      }
      return;
    }
    out_.reached = std::max(out_.reached, *time);
    ++out_.selected;
    const uint64_t position = stream_.scan_position++;
    const bool given_before =
        !reader_.resume_from_.empty() && reader_.resume_from_.delivered(stream_.number, position, *time);
    const SelectedClass& selected = reader_.selected_[event.user];
    match::PacketEvent& out = given_before ? out_.given_before.emplace_back() : out_.events.emplace_back();
    if (given_before) {
      out_.given_before_classes.push_back(event.user);
    } else {
      out_.at.push_back(out_.summary.events - 1);  // the scanner counted it before telling
      out_.classes.push_back(event.user);
    }
    out.trace = reader_.index_;
    out.time = *time;
    // The file it was read from (TraceInfo::stream_files).
    const std::size_t file = stream_.file_numbers[stream_.file];
    if (file < match::kNoStream) out.stream = static_cast<match::StreamIndex>(file);
    if (selected.app) {
      selected.app->decode(captures, out);
    } else {
      selected.network->decode(captures, out);
    }
  }

 private:
  const ScannerTraceReader& reader_;
  Stream& stream_;
  ScannedPacket& out_;
};

ScannerTraceReader::ScannerTraceReader(TraceSource source, match::TraceIndex index, ReaderOptions options,
                                       EventSink& sink)
    : source_(std::move(source)), index_(index), options_(options), sink_(sink) {
  info_.path = source_.path;
  info_.name = source_.name;
  info_.app_census.assign(options_.selection.kinds().size(), AppEventTally{});
  std::tie(info_.domain_id, info_.domain_source) = choose_domain(source_, std::nullopt, "");
  try {
    compile_plans();
  } catch (const std::bad_alloc&) {
    plan_.reset();
    not_covered_ = kOutOfMemory;
    out_of_memory_ = true;  // not the trace's fault: no other reader is tried (make_trace_reader)
  }
}

ScannerTraceReader::~ScannerTraceReader() = default;

void ScannerTraceReader::compile_plans() {
  std::string error;
  // CTF 1.8's TSDL or CTF 2's JSON: one TraceClass either way (issue 38).
  std::optional<ctf::MetadataFormat> format;
  auto metadata = ctf::read_trace_metadata(fs::path(source_.path) / "metadata", &error, &format);
  if (format) info_.metadata_format = ctf::to_string(*format);
  if (!metadata) {
    not_covered_ = format ? "its " + info_.metadata_format + " metadata, " + error : "its metadata: " + error;
    return;
  }
  auto trace = std::optional<ctf::TraceClass>(std::move(metadata->trace));
  std::map<const ctf::EventClass*, std::size_t> plan_of;
  std::string app_not_covered;
  // The application classes, from their stream classes (before the plan
  // takes the trace class).
  std::map<std::pair<uint64_t, uint64_t>, ScannerAppPlan> app_plans;
  const bool tsdl_names = trace->major == 1;
  for (const auto& [stream_id, stream] : trace->stream_classes) {
    for (const auto& [event_id, event] : stream.event_classes) {
      if (auto app = ScannerAppPlan::for_class(event, stream, options_.selection, tsdl_names)) {
        if (!app->not_covered().empty() && app_not_covered.empty()) app_not_covered = app->not_covered();
        app_plans.emplace(std::pair(stream_id, event_id), std::move(*app));
      }
    }
  }
  auto plan = ctf::ScanPlan::compile(
      std::move(*trace),
      [&](const ctf::EventClass& event) -> std::optional<std::vector<ctf::FieldRequest>> {
        SelectedClass selected;
        if (const auto app = app_plans.find(std::pair(event.stream_class_id, event.id)); app != app_plans.end()) {
          selected.app = app->second;
        }
        if (!selected.app) selected.network = ScannerNetworkPlan::for_class(event, tsdl_names, options_.endpoints);
        if (!selected.app && !selected.network) return std::nullopt;
        plan_of[&event] = selected_.size();
        selected_.push_back(std::move(selected));
        if (!options_.decode) return std::nullopt;  // counted, not decoded (bench)
        const SelectedClass& added = selected_.back();
        return added.app ? added.app->requests() : added.network->requests();
      },
      &error);
  if (!plan) {
    not_covered_ = error;
    return;
  }
  if (!app_not_covered.empty()) {
    not_covered_ = app_not_covered;
    return;
  }
  for (ctf::ScanPlan::EventPlan* event : plan->selected()) event->user = plan_of.at(event->event_class);
  ends_at_last_event_ = ends_packets_at_their_last_event(plan->trace());
  {
    const auto tracer = plan->trace().environment_strings.find("tracer_name");
    lttng_ = tracer != plan->trace().environment_strings.end() && tracer->second.rfind("lttng", 0) == 0;
  }
  plan_ = std::move(plan);
}

void ScannerTraceReader::fail(std::string problem) {
  problem_ = std::move(problem);
  state_ = State::kFailed;
  // What was read before the failure stands, as with CtfTraceReader: the
  // events a packet still holds are used unless its times were already seen
  // to be damaged.
  for (const auto& stream : streams_) {
    batch_.insert(batch_.end(), stream->waiting.begin(), stream->waiting.end());
    const std::size_t kept = stream->time_check.holds_undamaged()
                                 ? stream->current.size()
                                 : std::min(stream->trusted.value_or(0), stream->current.size());
    batch_.insert(batch_.end(), stream->current.begin(), stream->current.begin() + static_cast<std::ptrdiff_t>(kept));
    stream->waiting.clear();
    stream->current.clear();
  }
  update_progress();
  flush_up_to(read_to_);
  held_.clear();
  scan_ahead_.reset();  // its helpers scan the streams
  streams_.clear();
  sink_.trace_closed(index_);
}

// A stream is damaged: the trace ends there, cut at one time (fail()).
// CtfTraceReader interleaves its streams in batches of a few events, so the
// other streams have been read nearly as far as the damage when it is met;
// this reader reads packet by packet, so that the others may not have begun
// yet (an early packet damaged). So first the other streams are read on up
// to the damaged one's time (a stream damaged in turn stops where it is),
// then the trace is cut where they all reached: at the damage, at or after
// where babeltrace2's batches cut it.
void ScannerTraceReader::stop(Stream& damaged, std::string problem) {
  damaged.stopped = true;
  if (cutting_) return;  // damage met while reading on: that stream stops there
  cutting_ = true;
  for (const auto& stream : streams_) {
    while (!stream->ended && !stream->stopped && stream->reached < damaged.reached) {
      if (!read_packet(*stream)) break;
    }
  }
  cutting_ = false;
  fail(std::move(problem));
}

TraceReader::State ScannerTraceReader::step(std::size_t rounds) {
  const ReadingTrace marked(source_.path.c_str());
  try {
    return read_some(rounds);
  } catch (const std::bad_alloc&) {
    out_of_memory_ = true;
    problem_.clear();
  } catch (const std::exception& e) {
    if (!compose_problem(problem_, "internal error while reading: ", e.what())) out_of_memory_ = true;
  }
  state_ = State::kFailed;
  scan_ahead_.reset();  // its helpers scan the streams
  streams_.clear();
  try {
    sink_.trace_closed(index_);
  } catch (...) {  // nothing more can be done for this trace
  }
  return state_;
}

bool ScannerTraceReader::open() {
  if (!plan_) {
    fail(out_of_memory_ ? std::string(kOutOfMemory) : "the scanner cannot read it: " + not_covered_);
    return false;
  }
  std::error_code error;
  // Its streams as babeltrace2 makes them of the files: one file each, or
  // a stream instance split over several (ingest/stream_instances.h).
  auto instances = stream_instances(*plan_, source_.path, error);
  if (!instances) {
    fail("cannot be read: " + error.message());
    return false;
  }
  info_.bytes = stream_file_bytes(source_.path);
  std::vector<std::string> names;
  for (const StreamInstance& instance : *instances) {
    for (const std::string& file : instance.files) names.push_back(fs::path(file).filename().string());
  }
  std::sort(names.begin(), names.end());
  info_.stream_files = names;
  for (StreamInstance& instance : *instances) {
    std::vector<std::size_t> numbers;
    for (const std::string& file : instance.files) {
      const std::string name = fs::path(file).filename().string();
      numbers.push_back(static_cast<std::size_t>(std::lower_bound(names.begin(), names.end(), name) - names.begin()));
    }
    auto stream = std::make_unique<Stream>(*plan_, std::move(instance), std::move(numbers), streams_.size());
    std::string problem;
    for (const auto& file : stream->files) {
      if (!file->open(problem)) {
        fail("cannot be opened: " + problem);
        return false;
      }
    }
    streams_.push_back(std::move(stream));
  }
  if (streams_.empty()) {
    fail("holds no stream file (nothing but metadata)");
    return false;
  }
  return true;
}

namespace {
// A stream class's event classes in the order the metadata declares them.
std::vector<const ctf::EventClass*> declared(const ctf::StreamClass& stream) {
  std::vector<const ctf::EventClass*> out;
  for (const auto& [id, event] : stream.event_classes) out.push_back(&event);
  std::stable_sort(out.begin(), out.end(), [](const ctf::EventClass* a, const ctf::EventClass* b) { return a->line < b->line; });
  return out;
}
}  // namespace

// A selected class is in the trace's metadata: what it lacks, as
// CtfTraceReader notes it at each stream's beginning.
void ScannerTraceReader::note_recorded(const SelectedClass& selected) {
  if (selected.app) {
    AppEventTally& tally = info_.app_census.at(selected.app->kind() - 1u);
    (selected.app->direction() == match::Direction::kSend ? tally.send_recorded : tally.receive_recorded) = true;
    if (tally.problem.empty()) tally.problem = selected.app->problem();
    return;
  }
  NetworkEventTally& tally = info_.network_census[selected.network->name_index()];
  if (!tally.recorded) {
    tally.recorded = true;
    tally.missing = selected.network->missing();
  }
}

// The user-space event classes of a stream class and their possible key
// fields (`check`), each class once, in the order the metadata declares
// them (as babeltrace2 lists them).
void ScannerTraceReader::offer_classes(const ctf::StreamClass& stream) {
  for (const ctf::EventClass* event : declared(stream)) {
    auto offered = ScannerAppPlan::offered(*event, stream, plan_->trace().major == 1);
    if (!offered) continue;
    const auto known = std::find_if(info_.offered_classes.begin(), info_.offered_classes.end(),
                                    [&](const OfferedEventClass& c) { return c.name == offered->name; });
    if (known == info_.offered_classes.end()) info_.offered_classes.push_back(std::move(*offered));
  }
}

// The trace's clock, hostname and domain, at its first stream's beginning.
void ScannerTraceReader::announce(const ctf::ScanPlan::StreamPlan& stream) {
  const ctf::TraceClass& trace = plan_->trace();
  if (const auto hostname = trace.environment_strings.find("hostname"); hostname != trace.environment_strings.end()) {
    info_.hostname = hostname->second;
  }
  ClockInfo clock;
  clock.name = stream.clock->name;
  clock.uuid = stream.clock->uuid;
  clock.frequency = stream.clock->frequency;
  clock.offset_seconds = stream.time.offset().seconds;
  clock.offset_cycles = stream.time.offset().cycles;
  // LTTng's clocks count from the Unix epoch (their offset says so) though
  // older LTTng does not write `absolute = true`: CTF readers, babeltrace2
  // among them, take an LTTng trace's clock as absolute.
  const auto tracer = trace.environment_strings.find("tracer_name");
  const bool lttng = tracer != trace.environment_strings.end() && tracer->second.rfind("lttng", 0) == 0;
  clock.origin_is_unix_epoch = stream.clock->absolute || lttng;
  info_.clock = clock;
  std::tie(info_.domain_id, info_.domain_source) = choose_domain(source_, info_.clock, info_.hostname);
  announced_ = true;
  sink_.trace_opened(index_, info_);
}

// Scans a stream's next packet (on any thread: ScanAhead); whether the
// stream goes on after it.
bool ScannerTraceReader::scan_packet(Stream& stream, ScannedPacket& out, int64_t& reached) const {
  const ReadingTrace marked(source_.path.c_str());
  Collector collector(*this, stream, out);
  out.events.reserve(stream.selected_before);
  out.at.reserve(stream.selected_before);
  out.classes.reserve(stream.selected_before);
  out.fine = stream.next_packet(collector, out.summary, out.problem);
  stream.selected_before = out.events.size();
  out.file = stream.file;
  out.end_offset = stream.scanner().offset();
  out.at_end = stream.at_end();
  reached = out.reached;
  if (out.summary.stream != nullptr) {
    const auto& summary = out.summary;
    const auto last = summary.last_clock ? summary.last_clock : summary.begin_clock;
    if (last) reached = std::max(reached, summary.stream->time.ns_from_origin(*last).value_or(INT64_MAX));
  }
  return out.fine && !out.bad_time && !out.at_end;
}

bool ScannerTraceReader::read_packet(Stream& stream) {
  if (!scan_ahead_) {
    // Helpers only where there is something to overlap (several streams),
    // and no more than streams to scan.
    const std::size_t helpers =
        streams_.size() > 1 ? std::min<std::size_t>(std::max(1u, options_.scan_threads) - 1, streams_.size()) : 0;
    scan_ahead_ = std::make_unique<ScanAhead<ScannedPacket>>(
        streams_.size(), helpers, kPacketsScannedAhead,
        [this](std::size_t s, ScannedPacket& out, int64_t& reached) { return scan_packet(*streams_[s], out, reached); });
  }
  ScannedPacket scanned = scan_ahead_->next(stream.number);
  const ctf::PacketSummary& summary = scanned.summary;
  const bool fine = scanned.fine;
  const std::string& problem = scanned.problem;
  stream.current = std::move(scanned.events);
  stream.current_file = scanned.file;
  stream.current_at = std::move(scanned.at);
  stream.reached = std::max(stream.reached, scanned.reached);
  info_.network_events += scanned.selected;
  stream.network_read += scanned.selected;
  const auto count = [this](std::size_t selected_class, const match::PacketEvent& event) {
    const SelectedClass& selected = selected_[selected_class];
    if (selected.app) {
      info_.app_census[event.kind - 1u].count(event);
    } else {
      info_.network_census[selected.network->name_index()].count(event.layout);
    }
  };
  for (std::size_t i = 0; i < stream.current.size(); ++i) count(scanned.classes[i], stream.current[i]);
  for (std::size_t i = 0; i < scanned.given_before.size(); ++i) count(scanned.given_before_classes[i], scanned.given_before[i]);
  if (summary.stream != nullptr && !stream.began) {
    stream.began = true;
    if (summary.stream->clock->frequency > kMaxClockFrequency) {
      stop(stream, "its clock `" + summary.stream->clock->name + "` runs at " +
                       std::to_string(summary.stream->clock->frequency) +
                       " Hz, over a thousand ticks a nanosecond, as no tracer's clock does (damaged metadata?): its "
                       "times in nanoseconds would be meaningless");
      return false;
    }
    ++info_.streams;
    stream.stream_plan = summary.stream;
    stream.checks_time = options_.check_time && options_.decode && summary.begin_clock && summary.end_clock;
    if (stream.checks_time) {
      stream.time_check = StreamTimeCheck::for_clock(kPacketStepBackTolerance, summary.stream->clock->frequency);
    }
    // In the order the metadata declares them, as babeltrace2 meets them.
    for (const ctf::EventClass* event_class : declared(*summary.stream->stream_class)) {
      const ctf::ScanPlan::EventPlan* event = summary.stream->event(event_class->id);
      if (event != nullptr && event->selected) note_recorded(selected_[event->user]);
    }
    if (options_.offered_classes) offer_classes(*summary.stream->stream_class);
    if (!announced_) announce(*summary.stream);
  }
  info_.events += summary.events;
  info_.discarded_events += summary.discarded;
  // Where a time does not fit, the stream reached its packet's beginning
  // and the event before (CtfTraceReader's stream reached them too): the
  // trace is cut there, and the network events before it stand.
  const auto reach = [&](std::optional<uint64_t> clock) {
    if (clock && summary.stream != nullptr) {
      stream.reached = std::max(stream.reached, summary.stream->time.ns_from_origin(*clock).value_or(INT64_MIN));
    }
  };
  if (scanned.bad_time) {
    reach(summary.begin_clock);
    stop(stream, kTimeTooLarge);
    return false;
  }
  if (summary.stream != nullptr) {
    const ctf::ClockTime& time = summary.stream->time;
    std::optional<model::Nanoseconds> first, last, begin;
    if (summary.first_clock) first = time.ns_from_origin(*summary.first_clock);
    if (summary.last_clock) last = time.ns_from_origin(*summary.last_clock);
    if (summary.begin_clock) begin = time.ns_from_origin(*summary.begin_clock);
    if ((summary.first_clock && !first) || (summary.last_clock && !last) || (summary.begin_clock && !begin)) {
      reach(summary.begin_clock);
      if (summary.last_clock && !last) reach(summary.clock_before_last);
      stop(stream, kTimeTooLarge);
      return false;
    }
    if (begin) stream.reached = std::max(stream.reached, *begin);
    if (last) {
      stream.reached = std::max(stream.reached, *last);
      if (!info_.last_event || *last > *info_.last_event) info_.last_event = *last;
    }
    if (first && !stream.saw_event) {
      stream.saw_event = true;
      if (!info_.first_event || *first < *info_.first_event) info_.first_event = *first;
    }
  }
  if (stream.checks_time && summary.begin_clock) {
    check_time(stream, summary, fine && summary.end_clock);
  } else {
    batch_.insert(batch_.end(), stream.current.begin(), stream.current.end());
    stream.current.clear();
  }
  bytes_read_.fetch_add(scanned.end_offset - summary.offset, std::memory_order_relaxed);
  if (!fine) {
    stop(stream, "reading stopped after " + std::to_string(info_.events) + " events: " + problem);
    return false;
  }
  if (scanned.at_end) {
    stream.ended = true;
    if (stream.checks_time) judge(stream, stream.time_check.end_stream(), stream.waiting, stream.waiting_file, stream.waiting_offset);
  }
  return true;
}

// Tells the stream's time check of one packet as CtfTraceReader tells it of
// the same packet, message by message: its beginning (the verdict on the
// packet before), its events (the first that goes back, else the last), its
// end when it was read whole.
void ScannerTraceReader::check_time(Stream& stream, const ctf::PacketSummary& summary, bool whole) {
  const uint64_t begin = *summary.begin_clock;
  judge(stream, stream.time_check.begin_packet(begin), stream.waiting, stream.waiting_file, stream.waiting_offset);
  stream.trusted.reset();
  if (summary.step_back) {
    const ctf::PacketSummary::StepBack& back = *summary.step_back;
    stream.time_check.event(back.latest);
    if (stream.time_check.event(back.clock)) {
      // The events before the one just before it are in order: kept.
      const auto before = std::lower_bound(stream.current_at.begin(), stream.current_at.end(),
                                           back.event == 0 ? 0 : back.event - 1);
      stream.trusted = static_cast<std::size_t>(before - stream.current_at.begin());
    }
  } else if (summary.last_clock) {
    stream.time_check.event(*summary.last_clock);
  }
  if (!whole) return;  // fail() decides what of it stands
  uint64_t end = *summary.end_clock;
  // babeltrace2 2.0's other LTTng workaround (lttng-crash): buffers a
  // crashed tracer left behind end with a timestamp_end of 0, which it
  // reads as "not written"; so does the scanner.
  const bool end_not_written = lttng_ && end == 0 && begin != 0;
  if (ends_at_last_event_ || end_not_written) end = std::max(end, summary.last_clock.value_or(begin));
  judge(stream, stream.time_check.end_packet(end), stream.current, stream.current_file, summary.offset);
  // Undamaged in itself: it waits for the next packet's beginning.
  stream.waiting.swap(stream.current);
  stream.waiting_offset = summary.offset;
  stream.waiting_file = stream.current_file;
  stream.current.clear();
}

// A verdict on the packet at `offset` whose network events are `events`:
// they are used, or (damaged time) left out and counted.
void ScannerTraceReader::judge(Stream& stream, PacketVerdict verdict, std::vector<match::PacketEvent>& events,
                               std::size_t file, uint64_t offset) {
  if (verdict == PacketVerdict::kNone) return;
  if (verdict == PacketVerdict::kUse) {
    batch_.insert(batch_.end(), events.begin(), events.end());
  } else {
    // Of a packet dropped when the next one began, nothing was trusted.
    const std::size_t kept = &events == &stream.current ? std::min(stream.trusted.value_or(0), events.size()) : 0;
    batch_.insert(batch_.end(), events.begin(), events.begin() + static_cast<std::ptrdiff_t>(kept));
    ++info_.damaged_packets;
    info_.damaged_network_events += events.size() - kept;
    if (info_.first_time_damage.empty()) {
      const ctf::ScanPlan::StreamPlan* plan = stream.stream_plan;
      const auto ns = [&](uint64_t cycles) { return plan == nullptr ? int64_t{0} : plan->time.ns_from_origin(cycles).value_or(0); };
      info_.first_time_damage = "stream `" + stream.files[file]->path() + "`, " + stream.time_check.what_was_wrong(ns) +
                                " (the packet at byte " + std::to_string(offset) + ")";
    }
  }
  events.clear();
}

TraceReader::State ScannerTraceReader::read_some(std::size_t rounds) {
  if (state_ == State::kNew) {
    if (!open()) return state_;
    state_ = State::kReading;
  }
  if (state_ != State::kReading) return state_;
  model::Nanoseconds began = progress_;
  for (std::size_t round = 0; round < rounds; ++round) {
    model::Nanoseconds span = 0;
    if (began == INT64_MIN) {
      began = progress_;
    } else if (!__builtin_sub_overflow(progress_, began, &span) && span > options_.step_span) {
      break;
    }
    // As CtfTraceReader: only the streams furthest behind are read, so that
    // the streams keep together in time.
    model::Nanoseconds behind = INT64_MAX;
    for (const auto& stream : streams_) {
      if (!stream->ended) behind = std::min(behind, stream->reached);
    }
    bool any_open = false;
    for (std::size_t i = 0; i < streams_.size(); ++i) {
      Stream& stream = *streams_[i];
      if (stream.ended) continue;
      any_open = true;
      if (stream.reached > behind) continue;
      if (!read_packet(stream)) return state_;
    }
    update_progress();
    if (!any_open) {
      bytes_read_.store(info_.bytes, std::memory_order_relaxed);
      state_ = State::kDone;
      flush_up_to(INT64_MAX);
      scan_ahead_.reset();  // its helpers scan the streams
      streams_.clear();
      sink_.trace_closed(index_);
      return state_;
    }
    if (batch_.size() >= options_.batch_events) flush_up_to(read_to_);
  }
  flush_up_to(read_to_);
  return state_;
}

void ScannerTraceReader::update_progress() {
  model::Nanoseconds slowest = INT64_MAX;
  for (const auto& stream : streams_) {
    if (!stream->ended) slowest = std::min(slowest, stream->settled());
  }
  read_to_ = slowest;
  if (slowest == INT64_MAX || slowest == INT64_MIN) return;
  model::Nanoseconds promise = 0;
  if (__builtin_sub_overflow(slowest, options_.step_back_tolerance, &promise)) promise = INT64_MIN;
  progress_ = std::max(progress_, promise);
}

// Hands the sink the events not later than `limit`, holds back the rest
// (CtfTraceReader::flush_up_to: the same cut, so that resuming works alike).
void ScannerTraceReader::flush_up_to(model::Nanoseconds limit) {
  if (!announced_) return;
  hold_back_after(batch_, held_, limit);
  last_flush_.through = limit;
  last_flush_.read.resize(streams_.size());
  for (std::size_t s = 0; s < streams_.size(); ++s) last_flush_.read[s] = streams_[s]->network_read;
  sink_.trace_events(index_, batch_, progress_);
  batch_.clear();
}

ResumePoint ScannerTraceReader::resume_point() const {
  ResumePoint point = resume_from_;
  if (!last_flush_.read.empty()) point.add(last_flush_);
  return point;
}

}  // namespace tracesync::ingest
