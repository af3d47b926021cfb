// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "ingest/app_event_census.h"
#include "ingest/network_event_census.h"
#include "ingest/trace_source.h"
#include "model/point.h"

namespace tracesync::ingest {

// Where a trace's clock domain id came from (DESIGN.md, "Clock domain").
enum class DomainSource : uint8_t { kClockUuid, kHostname, kPath, kOverride };
std::string_view to_string(DomainSource source);

// The default clock class of a trace's streams.
struct ClockInfo {
  std::string name;
  std::optional<std::string> uuid;  // lower-case 8-4-4-4-12 text
  uint64_t frequency = 0;           // Hz
  int64_t offset_seconds = 0;       // origin to clock zero: seconds ...
  uint64_t offset_cycles = 0;       // ... plus cycles
  bool origin_is_unix_epoch = false;
};

// What a trace is and what reading it found.
struct TraceInfo {
  std::string path;
  std::string name;
  std::string hostname;  // the `hostname` environment entry; empty when absent
  std::string domain_id;
  DomainSource domain_source = DomainSource::kPath;
  std::optional<ClockInfo> clock;  // of its first stream
  std::optional<model::Nanoseconds> first_event;
  std::optional<model::Nanoseconds> last_event;
  uint64_t streams = 0;
  uint64_t events = 0;            // all events read
  uint64_t network_events = 0;    // send and receive events among them (TCP and application)
  NetworkEventCensus network_census;  // the TCP events by name, and the names recorded
  AppEventCensus app_census;          // the application events by kind (`--messages`)
  // With ReaderOptions::offered_classes: the user-space event classes
  // (PROVIDER:EVENT) of its metadata, in metadata order.
  std::vector<OfferedEventClass> offered_classes;
  uint64_t discarded_events = 0;  // the tracer's count of events it lost
  // Packets whose time is damaged (StreamTimeCheck): their network events
  // were read but not used for matching, and the trace counts as read in part.
  uint64_t damaged_packets = 0;
  uint64_t damaged_network_events = 0;
  std::string first_time_damage;  // the first such packet, in words: stream, packet, what is wrong
  uint64_t bytes = 0;             // of its stream files
  std::string reader;             // which reader read it: "scanner" or "babeltrace2" (ReaderChoice)
  std::string reader_reason;      // why that one (`--reader auto` chose it, or was told to)
  std::string metadata_format;    // "CTF 1.8" or "CTF 2" (LTTng 2.15's default); empty when not known
  // Its stream files' names in the trace directory, in the order
  // PacketEvent::stream numbers them (the scanner's); empty when the reader
  // does not name them (babeltrace2). A certificate cites them (docs/verify.md).
  std::vector<std::string> stream_files;
};

// Adds to `into` what a further reading of the same trace read (a trace
// chunk of a followed folder, a live session attached again): its span, its
// events and network events, their census, its damaged time. The stream
// files' figures (streams, bytes, the tracer's lost events) are the
// caller's: how they add up depends on what the readings were.
void add_read_figures(TraceInfo& into, const TraceInfo& more);

// "2 packets with damaged time: their 5 network events were not used; the
// first: stream ..., packet 3 (from 0): ...": for the trace's problem.
std::string time_damage_text(const TraceInfo& info);

// The domain id DESIGN.md gives a trace: the override when there is one, else
// the clock class UUID, else the hostname, else the trace path.
std::pair<std::string, DomainSource> choose_domain(const TraceSource& source, const std::optional<ClockInfo>& clock,
                                                   std::string_view hostname);

}  // namespace tracesync::ingest
