// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ctf/scan_plan.h"
#include "ctf/stream_scanner.h"
#include "ingest/ctf_trace_reader.h"
#include "ingest/event_sink.h"
#include "ingest/resume_point.h"
#include "ingest/scan_ahead.h"
#include "ingest/scanner_app_plan.h"
#include "ingest/scanner_network_plan.h"
#include "ingest/stream_time_check.h"
#include "ingest/trace_info.h"
#include "ingest/trace_reader.h"
#include "ingest/trace_source.h"

namespace tracesync::ingest {

// Reads one CTF 1.8 trace with our own scanner (native/ctf): the metadata
// parsed and a read plan compiled per event class once, then every stream
// file mapped and walked packet by packet, the network events' fields
// captured (ScannerNetworkPlan), and the application messages' keys of
// `--messages` (ScannerAppPlan), and every other event skipped. It gives the
// sink what CtfTraceReader gives it: the same PacketEvents, TraceInfo,
// progress promises and delivery cuts (ResumePoint), streams numbered in
// the order of their file names.
//
// Damage ends the trace with a problem naming the stream file and the byte
// offset; what was delivered before stands, as with CtfTraceReader. Time is
// checked as CtfTraceReader checks it (StreamTimeCheck, the same packets
// left out and counted), and its damage names the packet's byte offset too.
class ScannerTraceReader final : public ResumableTraceReader {
 public:
  // Reads the metadata and compiles the plans at once (a few milliseconds):
  // covered() then says whether the scanner can read the trace.
  ScannerTraceReader(TraceSource source, match::TraceIndex index, ReaderOptions options, EventSink& sink);
  ~ScannerTraceReader() override;
  ScannerTraceReader(const ScannerTraceReader&) = delete;
  ScannerTraceReader& operator=(const ScannerTraceReader&) = delete;

  // Whether the plans cover the trace; if not, why not (a reader that does
  // not cover its trace fails at its first step with that problem).
  bool covered() const { return plan_.has_value(); }
  const std::string& not_covered() const { return not_covered_; }

  State step(std::size_t rounds) override;
  void resume_after(ResumePoint delivered) override { resume_from_ = std::move(delivered); }
  ResumePoint resume_point() const override;
  void say_reader(std::string reader, std::string why) override {
    info_.reader = std::move(reader);
    info_.reader_reason = std::move(why);
  }

  State state() const override { return state_; }
  const TraceInfo& info() const override { return info_; }
  const std::string& problem() const override {
    return out_of_memory_ && problem_.empty() ? kOutOfMemoryProblem : problem_;
  }
  bool out_of_memory() const override { return out_of_memory_; }
  model::Nanoseconds progress() const override { return progress_; }
  uint64_t bytes_read() const override { return bytes_read_.load(std::memory_order_relaxed); }

 private:
  struct Stream;
  struct ScannedPacket;
  class Collector;
  // Packets a stream may have scanned ahead of the reader (ScanAhead).
  static constexpr std::size_t kPacketsScannedAhead = 4;
  void compile_plans();

  State read_some(std::size_t rounds);
  bool open();
  bool scan_packet(Stream& stream, ScannedPacket& out, int64_t& reached) const;
  bool read_packet(Stream& stream);
  void check_time(Stream& stream, const ctf::PacketSummary& summary, bool whole);
  void judge(Stream& stream, PacketVerdict verdict, std::vector<match::PacketEvent>& events, std::size_t file,
             uint64_t offset);
  void announce(const ctf::ScanPlan::StreamPlan& stream);
  void update_progress();
  void flush_up_to(model::Nanoseconds limit);
  void stop(Stream& damaged, std::string problem);
  void fail(std::string problem);

  TraceSource source_;
  match::TraceIndex index_;
  ReaderOptions options_;
  EventSink& sink_;
  std::optional<ctf::ScanPlan> plan_;
  // What each selected event class is (by ScanPlan::EventPlan::user): a
  // network event, or an application message's send or receive.
  struct SelectedClass {
    std::optional<ScannerNetworkPlan> network;
    std::optional<ScannerAppPlan> app;
  };
  void note_recorded(const SelectedClass& selected);
  void offer_classes(const ctf::StreamClass& stream);
  std::vector<SelectedClass> selected_;
  std::string not_covered_;
  // Its tracer's packets may end before their last event (babeltrace2's
  // fix, applied alike: see ends_packets_at_their_last_event).
  bool ends_at_last_event_ = false;
  bool lttng_ = false;  // an LTTng tracer wrote the trace (its env says so)

  State state_ = State::kNew;
  TraceInfo info_;
  std::string problem_;
  bool out_of_memory_ = false;
  bool announced_ = false;
  bool cutting_ = false;  // reading the other streams on to a damaged one's time (stop)
  std::vector<std::unique_ptr<Stream>> streams_;
  // Destroyed before streams_ (its helpers scan them).
  std::unique_ptr<ScanAhead<ScannedPacket>> scan_ahead_;
  std::vector<match::PacketEvent> batch_, held_;
  model::Nanoseconds read_to_ = INT64_MIN;
  model::Nanoseconds progress_ = INT64_MIN;
  std::atomic<uint64_t> bytes_read_{0};
  ResumePoint resume_from_;
  DeliveryCut last_flush_;
};

}  // namespace tracesync::ingest
