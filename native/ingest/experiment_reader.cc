// SPDX-License-Identifier: EPL-2.0
#include "ingest/experiment_reader.h"

#include "ingest/ctf_trace_reader.h"
#include "ingest/extract_trace_reader.h"
#include "ingest/left_out_stream_files.h"
#include "ingest/process_trace_reader.h"
#include "ingest/reader_protocol.h"
#include "ingest/reading_lane.h"
#include "ingest/trace_being_read.h"
#include "ingest/trace_discovery.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

namespace tracesync::ingest {

std::string_view to_string(TraceStatus status) {
  switch (status) {
    case TraceStatus::kComplete:
      return "complete";
    case TraceStatus::kPartial:
      return "partial";
    case TraceStatus::kSkipped:
      return "skipped";
    case TraceStatus::kCancelled:
      return "cancelled";
  }
  return "?";
}

uint64_t ExperimentReport::events() const {
  uint64_t sum = 0;
  for (const TraceReport& trace : traces) sum += trace.info.events;
  return sum;
}

uint64_t ExperimentReport::bytes() const {
  uint64_t sum = 0;
  for (const TraceReport& trace : traces) sum += trace.info.bytes;
  return sum;
}

bool ExperimentReport::any_skipped() const {
  for (const TraceReport& trace : traces) {
    if (trace.status == TraceStatus::kSkipped) return true;
  }
  return false;
}

namespace {

// Hands out reading turns: the free, unfinished trace that is earliest in
// time goes next (unopened traces first, in the order given), a trace being
// free when no trace of its lane (its reading process) is stepping. A trace
// more than `max_lead` ahead of the slowest opened one waits: what it would
// read could only wait in the matcher (a clock an hour ahead kept an hour of
// traffic in memory).
class TurnScheduler {
 public:
  TurnScheduler(std::vector<std::unique_ptr<TraceReader>>& readers, model::Nanoseconds max_lead)
      : readers_(readers),
        max_lead_(max_lead),
        busy_(readers.size(), false),
        finished_(readers.size(), false),
        opened_(readers.size(), false),
        progress_(readers.size(), INT64_MIN),
        held_open_(readers.size(), false),
        unfinished_(readers.size()) {
    for (const auto& reader : readers_) {
      if (const auto lane = reader->lane()) lane_busy_.resize(std::max(lane_busy_.size(), *lane + 1), false);
    }
  }

  // Blocks until a trace is free; nullopt when all are finished or on stop.
  std::optional<std::size_t> take() {
    std::unique_lock lock(mutex_);
    for (;;) {
      if (stop_ || unfinished_ == 0) return std::nullopt;
      std::optional<std::size_t> best;
      for (std::size_t i = 0; i < readers_.size(); ++i) {
        if (busy_[i] || finished_[i] || lane_taken(i)) continue;
        if (!best || earlier(i, *best)) best = i;
      }
      if (best && !too_far_ahead(*best)) {
        busy_[*best] = true;
        if (const auto lane = readers_[*best]->lane()) lane_busy_[*lane] = true;
        return best;
      }
      turn_free_.wait(lock);
    }
  }

  // By the thread that stepped trace i, which still holds its reader.
  void give_back(std::size_t i, bool finished) {
    const bool opened = readers_[i]->state() != TraceReader::State::kNew;
    const model::Nanoseconds progress = readers_[i]->progress();
    bool now_finished = false;
    {
      const std::lock_guard lock(mutex_);
      opened_[i] = opened;
      progress_[i] = progress;
      busy_[i] = false;
      if (const auto lane = readers_[i]->lane()) lane_busy_[*lane] = false;
      if (finished && !finished_[i]) {
        finished_[i] = true;
        --unfinished_;
        now_finished = true;
        if (held_open_[i]) --held_;
      }
    }
    turn_free_.notify_all();
    // The waiting caller only cares about finished traces: waking it after
    // every turn costs a context switch per turn.
    if (now_finished) trace_finished_.notify_all();
  }

  void stop() {
    {
      const std::lock_guard lock(mutex_);
      stop_ = true;
    }
    turn_free_.notify_all();
    trace_finished_.notify_all();
  }

  // Waits up to `period` for all traces to finish; true when they have.
  bool wait_all(std::chrono::milliseconds period) {
    std::unique_lock lock(mutex_);
    return trace_finished_.wait_for(lock, period, [&] { return unfinished_ == 0; });
  }

  bool finished(std::size_t i) {
    const std::lock_guard lock(mutex_);
    return finished_[i];
  }

  bool held_open(std::size_t i) {
    const std::lock_guard lock(mutex_);
    return held_open_[i];
  }

  // At the end of a turn of trace i, unfinished and not held open: whether
  // it may stay open (fewer than `limit` traces are held), held from now if
  // so.
  bool hold_open(std::size_t i, std::size_t limit) {
    const std::lock_guard lock(mutex_);
    if (held_ >= limit) return false;
    ++held_;
    held_open_[i] = true;
    return true;
  }

 private:
  bool lane_taken(std::size_t i) const {
    const auto lane = readers_[i]->lane();
    return lane && lane_busy_[*lane];
  }

  // The slowest unfinished trace (by its progress at the end of its last
  // turn) is never too far ahead, so some trace can always go on. A trace
  // not opened yet is the slowest of all: its events could be the earliest.
  bool too_far_ahead(std::size_t i) const {
    if (max_lead_ == INT64_MAX || !opened_[i]) return false;
    model::Nanoseconds slowest = INT64_MAX;
    for (std::size_t t = 0; t < readers_.size(); ++t) {
      if (!finished_[t]) slowest = std::min(slowest, opened_[t] ? progress_[t] : INT64_MIN);
    }
    model::Nanoseconds allowed = 0;
    if (__builtin_add_overflow(slowest, max_lead_, &allowed)) return false;
    return progress_[i] > allowed;
  }

  bool earlier(std::size_t a, std::size_t b) const {
    const bool a_new = readers_[a]->state() == TraceReader::State::kNew;
    const bool b_new = readers_[b]->state() == TraceReader::State::kNew;
    if (a_new != b_new) return a_new;
    if (a_new) return a < b;
    return readers_[a]->progress() < readers_[b]->progress();
  }

  std::vector<std::unique_ptr<TraceReader>>& readers_;
  const model::Nanoseconds max_lead_;
  std::mutex mutex_;
  std::condition_variable turn_free_;       // a worker may take a turn
  std::condition_variable trace_finished_;  // for wait_all
  std::vector<bool> busy_;
  std::vector<bool> finished_;
  std::vector<bool> opened_;                   // as of its last turn
  std::vector<model::Nanoseconds> progress_;  // as of its last turn
  std::vector<bool> lane_busy_;               // a trace of the lane is stepping
  std::vector<bool> held_open_;               // counted in held_
  std::size_t held_ = 0;                      // traces held open between their turns
  std::size_t unfinished_;
  bool stop_ = false;
};

// "30 s", "0.5 s".
std::string format_seconds(std::chrono::milliseconds duration) {
  const auto ms = duration.count();
  std::string text = std::to_string(ms / 1000);
  if (ms % 1000 != 0) {
    std::string fraction = std::to_string(1000 + ms % 1000).substr(1);
    while (fraction.back() == '0') fraction.pop_back();
    text += "." + fraction;
  }
  return text + " s";
}

}  // namespace

ExperimentReport read_experiment(const std::vector<TraceSource>& traces, const ReadOptions& options, EventSink& sink,
                                 const ProgressCallback& progress, const std::atomic<bool>* cancel) {
  const auto start = std::chrono::steady_clock::now();
  const ReadingThreadStack signal_stack;  // this thread reads too when no worker can start
  std::vector<std::vector<Problem>> left_out;
  // An extract records what was left out of its trace (its reader says).
  for (const TraceSource& trace : traces) {
    left_out.push_back(trace.extract ? std::vector<Problem>{} : left_out_stream_files(trace.path));
  }
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t jobs = std::min<std::size_t>(options.jobs == 0 ? cores : options.jobs, traces.size());
  // With reading processes: one per job, each holding its share of the
  // traces (trace i in lane i mod jobs), whatever their number.
  // Extracts are read here, by our own parser: they need no reading process.
  const auto traces_to_read = static_cast<std::size_t>(
      std::count_if(traces.begin(), traces.end(), [](const TraceSource& t) { return !t.extract; }));
  std::vector<std::unique_ptr<ReadingLane>> lanes;
  if (!options.reading_command.empty()) {
    for (std::size_t l = 0; l < std::min(jobs, traces_to_read); ++l) {
      lanes.push_back(std::make_unique<ReadingLane>(options.reading_command));
    }
  }
  // Cores the traces leave idle go to their stream files: with fewer traces
  // than jobs, each trace's scanner scans on several threads (ScanAhead).
  ReaderOptions reader_options = options.reader;
  if (reader_options.scan_threads <= 1 && traces_to_read > 0) {
    const std::size_t wanted = options.jobs == 0 ? cores : options.jobs;
    reader_options.scan_threads =
        static_cast<unsigned>(std::clamp<std::size_t>(wanted / traces_to_read, 1, reader_protocol::kMaxScanThreads));
  }
  std::vector<std::unique_ptr<TraceReader>> readers;
  std::size_t next_lane = 0;
  for (std::size_t i = 0; i < traces.size(); ++i) {
    const auto index = static_cast<match::TraceIndex>(i);
    if (traces[i].extract) {
      readers.push_back(std::make_unique<ExtractTraceReader>(traces[i], index, sink));
    } else if (lanes.empty()) {
      readers.push_back(make_trace_reader(traces[i], index, reader_options, sink));
    } else {
      const std::size_t lane = next_lane++ % lanes.size();
      readers.push_back(
          std::make_unique<ProcessTraceReader>(traces[i], index, reader_options, *lanes[lane], lane, sink));
    }
  }
  TurnScheduler scheduler(readers, options.max_lead);
  const std::size_t long_turn =
      options.reading_command.empty() ? options.rounds_per_step : options.rounds_per_process_step;
  const bool parking = !options.reading_command.empty();
  const auto take_turn = [&](std::size_t i) {
    // A trace's first turn is short, so that every trace is soon opened
    // and known to the sink, even when the reading is cancelled early.
    TraceReader& reader = *readers[i];
    const bool first = reader.state() == TraceReader::State::kNew;
    const auto state = reader.step(first ? options.rounds_per_step : long_turn);
    const bool finished = state == TraceReader::State::kDone || state == TraceReader::State::kFailed;
    // It waits closed for its next turn when enough traces are held open
    // and it is cheap to read again (ReadOptions::max_open_traces).
    if (parking && state == TraceReader::State::kReading && !scheduler.held_open(i)) {
      const bool cheap = reader.bytes_read() <= options.max_parked_bytes;
      if (!scheduler.hold_open(i, cheap ? options.max_open_traces : SIZE_MAX)) reader.park();
    }
    scheduler.give_back(i, finished);
  };
  std::vector<std::thread> workers;
  // Whatever happens below (a throwing progress callback included), the
  // workers are stopped and joined before the readers go, and before
  // take_turn, which they call, goes out of scope (declared after it).
  struct JoinWorkers {
    TurnScheduler& scheduler;
    std::vector<std::thread>& workers;
    std::vector<std::unique_ptr<TraceReader>>& readers;
    ~JoinWorkers() {
      scheduler.stop();
      for (const auto& reader : readers) reader->interrupt();
      for (std::thread& worker : workers) {
        if (worker.joinable()) worker.join();
      }
    }
  } join_workers{scheduler, workers, readers};
  for (std::size_t w = 0; w < jobs; ++w) {
    try {
      workers.emplace_back([&] {
        const ReadingThreadStack worker_signal_stack;
        while (const auto i = scheduler.take()) take_turn(*i);
      });
    } catch (const std::system_error&) {
      // The process limit (`ulimit -u`) counts threads too: read with the
      // workers there are, or on this thread (below).
      break;
    }
  }

  std::vector<TraceProgress> per_trace(readers.size());
  for (std::size_t i = 0; i < traces.size(); ++i) {
    per_trace[i].bytes_total = traces[i].extract ? traces[i].extract->bytes : stream_file_bytes(traces[i].path);
  }
  bool cancelled = false;
  auto report_progress = [&] {
    ReadProgress total;
    total.traces_total = static_cast<uint32_t>(readers.size());
    for (std::size_t i = 0; i < readers.size(); ++i) {
      TraceProgress& trace = per_trace[i];
      trace.done = scheduler.finished(i);
      trace.bytes_read = trace.done ? trace.bytes_total : std::min(readers[i]->bytes_read(), trace.bytes_total);
      total.bytes_read += trace.bytes_read;
      total.bytes_total += trace.bytes_total;
      total.traces_done += trace.done ? 1 : 0;
    }
    total.traces = per_trace;
    return total;
  };
  // An opening that outlasts its limit is stopped: the trace fails, its
  // worker goes on with the others.
  const auto stop_overdue_openings = [&] {
    if (options.open_timeout.count() <= 0) return;
    const auto now = std::chrono::steady_clock::now();
    for (const auto& reader : readers) {
      const auto since = reader->opening_since();
      if (!since || now - *since < options.open_timeout) continue;
      reader->stop_opening("cannot be opened: babeltrace2 was still opening it after " +
                           format_seconds(options.open_timeout) +
                           ", the time allowed: a damaged trace it never finishes, or one large enough to need "
                           "more time");
    }
  };
  // Without a worker, this thread takes the turns, and looks up between
  // them as often as it can (a turn of a reading process it cannot stop
  // before it ends; a second Ctrl-C can).
  const auto wait_for_readers = [&] {
    if (!workers.empty()) return scheduler.wait_all(std::chrono::milliseconds(100));
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
    do {
      const auto i = scheduler.take();
      if (!i) return true;
      take_turn(*i);
    } while (std::chrono::steady_clock::now() < until);
    return scheduler.wait_all(std::chrono::milliseconds(0));
  };
  for (;;) {
    const bool all_done = wait_for_readers();
    stop_overdue_openings();
    if (cancel != nullptr && cancel->load()) cancelled = true;
    if (progress) {
      ReadProgress now = report_progress();
      if (!progress(now)) cancelled = true;
    }
    if (all_done) break;
    if (cancelled) {
      scheduler.stop();
      // Turns under way end now where they can (a reading process is
      // killed), not when babeltrace2 finishes them: it may never.
      for (const auto& reader : readers) reader->interrupt();
      break;
    }
  }
  scheduler.stop();
  for (std::thread& worker : workers) worker.join();

  ExperimentReport report;
  report.cancelled = cancelled;
  for (std::size_t i = 0; i < readers.size(); ++i) {
    const TraceReader* reader = readers[i].get();
    TraceReport trace{reader->info(), TraceStatus::kComplete, reader->problem(), reader->out_of_memory(),
                      std::move(left_out[i])};
    for (Problem& p : reader->left_out()) trace.left_out.push_back(std::move(p));
    switch (reader->state()) {
      case TraceReader::State::kDone:
        break;
      case TraceReader::State::kFailed:
        trace.status = reader->info().events > 0 ? TraceStatus::kPartial : TraceStatus::kSkipped;
        break;
      default:
        trace.status = TraceStatus::kCancelled;
    }
    report.traces.push_back(std::move(trace));
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace tracesync::ingest
