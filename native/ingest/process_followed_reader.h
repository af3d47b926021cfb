// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "ingest/followed_trace_reader.h"
#include "ingest/live_trace_reader.h"
#include "ingest/process_trace_reader.h"
#include "ingest/reading_lane.h"

namespace tracesync::ingest {

// Follows one live session or trace folder in a reading process of its own
// (`tracesync read-trace`, which runs the LiveTraceReader or
// GrowingTraceReader the follower would run in-process): babeltrace2
// aborting or looping on a damaged stream then costs that source only, not
// `tracesync live` nor the JVM that follows through the Java bridge.
//
// The process streams back what its reader gives the sink, step by step,
// over the reading protocol (reader_protocol, FollowedSource), with each
// step's waiting() and, at the end, end_words(). When the process dies, a
// folder is read on in a new one after what it gave (once per place:
// ProcessTraceReader, FolderPosition), and take_resumed() says so; a live
// session is attached again in a new one, which gives what comes after the
// last time given, and take_gaps() names each stream the relay, serving a
// viewer attaching again from its newest data, begins again only later. A
// source whose process dies again at the same place fails: the events it
// gave before stand, and the follower goes on with the other sources.
//
// The process is killed when the reader goes. A folder's packets are staged
// in a directory of the parent's (removed then), so that a process that
// dies leaves nothing behind.
class ProcessFollowedReader final : public FollowedTraceReader {
 public:
  // A live session.
  ProcessFollowedReader(std::vector<std::string> reading_command, const LiveSessionUrl& session,
                        match::TraceIndex index, ReaderOptions options, EventSink& sink);
  // A trace folder being written (GrowingTraceReader's quiet_end).
  ProcessFollowedReader(std::vector<std::string> reading_command, const std::string& folder, match::TraceIndex index,
                        ReaderOptions options, EventSink& sink, std::chrono::milliseconds quiet_end);
  ~ProcessFollowedReader() override;
  ProcessFollowedReader(const ProcessFollowedReader&) = delete;
  ProcessFollowedReader& operator=(const ProcessFollowedReader&) = delete;

  State step(std::size_t rounds) override { return reader_->step(rounds); }
  State state() const override { return reader_->state(); }
  const TraceInfo& info() const override { return reader_->info(); }
  const std::string& problem() const override { return reader_->problem(); }
  bool out_of_memory() const override { return reader_->out_of_memory(); }
  model::Nanoseconds progress() const override { return reader_->progress(); }
  uint64_t bytes_read() const override { return reader_->bytes_read(); }
  bool waiting() const override { return reader_->waiting(); }
  std::string end_words() const override { return reader_->end_words(); }
  std::string take_resumed() override { return reader_->take_resumed(); }
  std::vector<StreamGap> take_gaps() override { return reader_->take_gaps(); }
  std::vector<StreamGap> take_unserved() override { return reader_->take_unserved(); }

 private:
  ProcessFollowedReader(std::vector<std::string> reading_command, TraceSource source, match::TraceIndex index,
                        ReaderOptions options, EventSink& sink, reader_protocol::FollowedSource follow);

  std::string staging_;  // a folder's: where its process stages packets (empty: none made)
  std::unique_ptr<ReadingLane> lane_;
  std::unique_ptr<ProcessTraceReader> reader_;
};

}  // namespace tracesync::ingest
