// SPDX-License-Identifier: EPL-2.0
#include "ingest/scanner_trace_reader.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <new>

#include "ctf/trace_metadata.h"
#include "ingest/directory_listing.h"
#include "ingest/trace_being_read.h"
#include "ingest/trace_discovery.h"

namespace tracesync::ingest {

namespace fs = std::filesystem;

namespace {
// As CtfTraceReader: a thousand ticks a nanosecond at most.
constexpr uint64_t kMaxClockFrequency = 1'000'000'000'000;
const char* kTimeTooLarge = "a timestamp does not fit in 64-bit nanoseconds from the clock's origin";
}  // namespace

struct ScannerTraceReader::Stream {
  Stream(const ctf::ScanPlan& plan, std::string path) : scanner(plan, std::move(path)) {}
  ctf::StreamScanner scanner;
  bool ended = false;
  bool began = false;
  bool saw_event = false;
  model::Nanoseconds reached = INT64_MIN;
  uint64_t network_read = 0;
};

// Hears of the network events of one packet and gives them to the reader's batch.
class ScannerTraceReader::Collector final : public ctf::EventVisitor {
 public:
  Collector(ScannerTraceReader& reader, Stream& stream, std::size_t number)
      : reader_(reader), stream_(stream), number_(number) {}
  void selected_event(const ctf::ScanPlan::EventPlan& event, const ctf::ScanPlan::StreamPlan& stream_plan,
                      uint64_t clock, const ctf::CapturedField* captures) override {
    if (bad_time_) return;
    const auto time = stream_plan.time.ns_from_origin(clock);
    if (!time) {
      bad_time_ = true;
      return;
    }
    stream_.reached = std::max(stream_.reached, *time);
    ++reader_.info_.network_events;
    const uint64_t position = stream_.network_read++;
    if (!reader_.resume_from_.empty() && reader_.resume_from_.delivered(number_, position, *time)) return;
    const ScannerNetworkPlan& plan = reader_.network_plans_[event.user];
    match::PacketEvent& out = reader_.batch_.emplace_back();
    out.trace = reader_.index_;
    out.time = *time;
    plan.decode(captures, out, reader_.options_.endpoints);
    NetworkEventTally& tally = reader_.info_.network_census[plan.name_index()];
    switch (out.layout) {
      case match::Layout::kTcp: ++tally.tcp; break;
      case match::Layout::kNonTcp: ++tally.not_tcp; break;
      case match::Layout::kUnknown: ++tally.undecodable; break;
      case match::Layout::kKeyTooLong: break;  // application keys only; the scanner decodes TCP events
    }
  }
  bool bad_time() const { return bad_time_; }

 private:
  ScannerTraceReader& reader_;
  Stream& stream_;
  std::size_t number_;
  bool bad_time_ = false;
};

ScannerTraceReader::ScannerTraceReader(TraceSource source, match::TraceIndex index, ReaderOptions options,
                                       EventSink& sink)
    : source_(std::move(source)), index_(index), options_(options), sink_(sink) {
  info_.path = source_.path;
  info_.name = source_.name;
  std::tie(info_.domain_id, info_.domain_source) = choose_domain(source_, std::nullopt, "");
  try {
    compile_plans();
  } catch (const std::bad_alloc&) {
    plan_.reset();
    not_covered_ = kOutOfMemory;
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
  auto plan = ctf::ScanPlan::compile(
      std::move(*trace),
      [&](const ctf::EventClass& event) -> std::optional<std::vector<ctf::FieldRequest>> {
        auto network = ScannerNetworkPlan::for_class(event);
        if (!network) return std::nullopt;
        plan_of[&event] = network_plans_.size();
        network_plans_.push_back(std::move(*network));
        if (!options_.decode) return std::nullopt;  // counted, not decoded (bench)
        return network_plans_.back().requests();
      },
      &error);
  if (!plan) {
    not_covered_ = error;
    return;
  }
  for (ctf::ScanPlan::EventPlan* event : plan->selected()) event->user = plan_of.at(event->event_class);
  plan_ = std::move(plan);
}

void ScannerTraceReader::fail(std::string problem) {
  problem_ = std::move(problem);
  state_ = State::kFailed;
  flush_up_to(read_to_);
  held_.clear();
  streams_.clear();
  sink_.trace_closed(index_);
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
  streams_.clear();
  try {
    sink_.trace_closed(index_);
  } catch (...) {  // nothing more can be done for this trace
  }
  return state_;
}

bool ScannerTraceReader::open() {
  if (!plan_) {
    fail("the scanner cannot read it: " + not_covered_);
    return false;
  }
  std::error_code error;
  const auto names = list_directory(source_.path, error);
  if (!names) {
    fail("cannot be read: " + error.message());
    return false;
  }
  // As src.ctf.fs: every regular, non-empty file but `metadata` and hidden ones.
  std::vector<std::string> files;
  for (const std::string& name : *names) {
    if (name == "metadata" || name.empty() || name.front() == '.') continue;
    const std::string path = (fs::path(source_.path) / name).string();
    struct stat status {};
    if (::stat(path.c_str(), &status) != 0 || !S_ISREG(status.st_mode) || status.st_size == 0) continue;
    files.push_back(path);
  }
  std::sort(files.begin(), files.end());
  info_.bytes = stream_file_bytes(source_.path);
  for (std::string& file : files) {
    auto stream = std::make_unique<Stream>(*plan_, std::move(file));
    std::string problem;
    if (!stream->scanner.open(problem)) {
      fail("cannot be opened: " + problem);
      return false;
    }
    streams_.push_back(std::move(stream));
  }
  if (streams_.empty()) {
    fail("holds no stream file (nothing but metadata)");
    return false;
  }
  return true;
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

bool ScannerTraceReader::read_packet(Stream& stream) {
  const std::size_t number = static_cast<std::size_t>(
      std::find_if(streams_.begin(), streams_.end(), [&](const auto& s) { return s.get() == &stream; }) -
      streams_.begin());
  Collector collector(*this, stream, number);
  ctf::PacketSummary summary;
  std::string problem;
  const std::size_t batch_before = batch_.size();
  const bool fine = stream.scanner.next_packet(collector, summary, problem);
  if (summary.stream != nullptr && !stream.began) {
    stream.began = true;
    if (summary.stream->clock->frequency > kMaxClockFrequency) {
      fail("its clock `" + summary.stream->clock->name + "` runs at " + std::to_string(summary.stream->clock->frequency) +
           " Hz, over a thousand ticks a nanosecond, as no tracer's clock does (damaged metadata?): its times in "
           "nanoseconds would be meaningless");
      return false;
    }
    ++info_.streams;
    for (const auto& event : summary.stream->by_id) {
      if (event && event->selected) {
        NetworkEventTally& tally = info_.network_census[network_plans_[event->user].name_index()];
        if (!tally.recorded) {
          tally.recorded = true;
          tally.missing = network_plans_[event->user].missing();
        }
      }
    }
    for (const auto& [id, event] : summary.stream->sparse) {
      if (!event->selected) continue;
      NetworkEventTally& tally = info_.network_census[network_plans_[event->user].name_index()];
      if (!tally.recorded) {
        tally.recorded = true;
        tally.missing = network_plans_[event->user].missing();
      }
    }
    if (!announced_) announce(*summary.stream);
  }
  info_.events += summary.events;
  info_.discarded_events += summary.discarded;
  if (collector.bad_time()) {
    batch_.resize(batch_before);
    fail(kTimeTooLarge);
    return false;
  }
  if (summary.stream != nullptr) {
    const ctf::ClockTime& time = summary.stream->time;
    std::optional<model::Nanoseconds> first, last, begin;
    if (summary.first_clock) first = time.ns_from_origin(*summary.first_clock);
    if (summary.last_clock) last = time.ns_from_origin(*summary.last_clock);
    if (summary.begin_clock) begin = time.ns_from_origin(*summary.begin_clock);
    if ((summary.first_clock && !first) || (summary.last_clock && !last) || (summary.begin_clock && !begin)) {
      fail(kTimeTooLarge);
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
  bytes_read_.fetch_add(stream.scanner.offset() - summary.offset, std::memory_order_relaxed);
  if (!fine) {
    fail("reading stopped after " + std::to_string(info_.events) + " events: " + problem);
    return false;
  }
  if (stream.scanner.at_end()) stream.ended = true;
  return true;
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
    if (!stream->ended) slowest = std::min(slowest, stream->reached);
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
  batch_.insert(batch_.end(), held_.begin(), held_.end());
  held_.clear();
  const auto later = std::partition(batch_.begin(), batch_.end(),
                                    [&](const match::PacketEvent& event) { return event.time <= limit; });
  held_.assign(later, batch_.end());
  batch_.erase(later, batch_.end());
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
