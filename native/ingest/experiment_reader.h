#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "ingest/ctf_trace_reader.h"
#include "ingest/event_sink.h"
#include "ingest/trace_info.h"
#include "ingest/trace_source.h"

namespace tracesync::ingest {

struct ReadOptions {
  unsigned jobs = 0;  // worker threads; 0: one per core
  ReaderOptions reader;
  std::size_t rounds_per_step = 64;  // a reader's turn: this many batches from each of its streams
};

enum class TraceStatus : uint8_t {
  kComplete,   // read to its end
  kPartial,    // failed after some events: what was read before stands
  kSkipped,    // failed before any event
  kCancelled,  // not finished when reading was cancelled
};
std::string_view to_string(TraceStatus status);

struct TraceReport {
  TraceInfo info;
  TraceStatus status = TraceStatus::kComplete;
  std::string problem;  // one line, when partial or skipped
};

struct ExperimentReport {
  std::vector<TraceReport> traces;  // in the order given
  bool cancelled = false;
  double seconds = 0;  // wall-clock time of the reading
  uint64_t events() const;
  uint64_t bytes() const;
  bool any_skipped() const;
};

struct TraceProgress {
  uint64_t bytes_read = 0;  // an estimate until done
  uint64_t bytes_total = 0;
  bool done = false;
};
struct ReadProgress {
  uint64_t bytes_read = 0;
  uint64_t bytes_total = 0;
  uint32_t traces_done = 0;
  uint32_t traces_total = 0;
  std::span<const TraceProgress> traces;
};
// Called on the thread that called read_experiment, about ten times a second
// and once at the end; returning false cancels the reading.
using ProgressCallback = std::function<bool(const ReadProgress&)>;

// Reads every trace, `jobs` at a time, into `sink`.
//
// All traces are opened at the start (each stream file then holds a file
// descriptor until its trace is done). A free worker always takes the trace
// whose promised progress is the earliest, for a turn of rounds_per_step
// rounds, so the traces advance together in time: the matcher's memory then
// stays bounded by its horizon whatever the number of jobs.
//
// A trace that fails is reported (TraceReport::problem names what went
// wrong) and the others are still read. Setting *cancel, or the progress
// callback returning false, stops the reading after the current turns.
ExperimentReport read_experiment(const std::vector<TraceSource>& traces, const ReadOptions& options, EventSink& sink,
                                 const ProgressCallback& progress = {}, const std::atomic<bool>* cancel = nullptr);

}  // namespace tracesync::ingest
