// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <atomic>
#include <chrono>
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
  unsigned jobs = 0;  // worker threads, and reading processes with reading_command; 0: one per core
  ReaderOptions reader;
  std::size_t rounds_per_step = 64;  // a reader's turn: this many batches from each of its streams
  // A turn in a reading process costs a round trip between two processes
  // (two context switches, and with several jobs a wake-up on another core),
  // so turns there are longer. On the 2-core VM of README's figures, reading
  // 20.7 M events: at 64 rounds the round trips took 7 % more CPU time than
  // reading in-process; at 1024 rounds CPU time was the same but two jobs
  // took 15 % longer (3.4 vs 2.9 s); at 16384 rounds (a quarter of a trace
  // of that experiment per turn) both were the same.
  std::size_t rounds_per_process_step = 16384;
  // Empty: traces are read in this process (CtfTraceReader). Otherwise the
  // program, with its first arguments, that reads traces in processes of
  // its own, `jobs` of them each holding its share of the traces
  // (ReadingLane, ProcessTraceReader): `tracesync read-trace`. babeltrace2
  // then aborting or looping on a damaged trace costs that trace only.
  std::vector<std::string> reading_command;
  // With reading processes: a trace babeltrace2 is still opening after this
  // long fails (its process is killed) and the others go on. babeltrace2
  // 2.0.4 loops forever opening some damaged traces; a large trace may take
  // long too. Zero: no limit.
  std::chrono::milliseconds open_timeout{0};
  // A trace whose progress is further than this ahead of the slowest opened
  // trace (times compared as recorded) waits for it: the matcher keeps what
  // is read ahead until every trace has passed it, so this bounds memory
  // when a clock is far ahead of the others. INT64_MAX: no limit.
  model::Nanoseconds max_lead = INT64_MAX;
  // Traces held open at once between their turns, in reading processes. A
  // trace whose turn ends while this many are held, and which has read at
  // most max_parked_bytes, is parked (TraceReader::park): closed, with where
  // it is and its promise kept, and opened again for its next turn, which
  // re-reads what it had read. A trace that read more is held open anyway
  // (re-reading it at every turn would cost more than its memory). An open
  // trace costs about 1 MiB in its reading process (babeltrace2's graph and
  // buffers, its mapped files): 1,000 small traces all open at once took
  // 1 GB. Traces read in this process are not parked.
  std::size_t max_open_traces = 256;
  uint64_t max_parked_bytes = 1u << 20;
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
  // Memory ran out while reading it: the trace is not at fault (it may read
  // well with more memory). The status says what of it was read.
  bool out_of_memory = false;
  // Entries of its directory babeltrace2 leaves out (left_out_stream_files),
  // whatever the status: the trace was read without them.
  std::vector<Problem> left_out;
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
// descriptor until its trace is done), in this process or in the `jobs`
// reading processes: trace i in the process of lane i mod jobs, where the
// traces step one at a time. A free worker always takes the trace
// whose promised progress is the earliest, for a turn of rounds_per_step
// rounds, so the traces advance together in time: the matcher's memory then
// stays bounded by its horizon whatever the number of jobs.
//
// A trace that fails is reported (TraceReport::problem names what went
// wrong) and the others are still read. Before any is read, each trace's
// directory is examined for entries babeltrace2 would leave out in silence
// (TraceReport::left_out), in this process, without opening them. Setting *cancel, or the progress
// callback returning false, stops the reading after the current turns (at
// once when the traces are read in child processes: they are killed).
ExperimentReport read_experiment(const std::vector<TraceSource>& traces, const ReadOptions& options, EventSink& sink,
                                 const ProgressCallback& progress = {}, const std::atomic<bool>* cancel = nullptr);

}  // namespace tracesync::ingest
