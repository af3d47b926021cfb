// SPDX-License-Identifier: EPL-2.0
#pragma once

// Both CTF readers over one trace: babeltrace2's (the oracle) and our
// scanner's, with what each gave its sink, for the differential tests.

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "ingest/ctf_trace_reader.h"
#include "ingest/scanner_trace_reader.h"
#include "ingest/recording_sink.h"

namespace tracesync::ingest::testing {

struct ReadOutcome {
  TraceReader::State state = TraceReader::State::kNew;
  TraceInfo info;
  std::string problem;
  std::vector<match::PacketEvent> events;  // in one total order (their multiset)
};

inline auto event_tuple(const match::PacketEvent& e) {
  return std::tie(e.time, e.direction, e.layout, e.tcp.seq, e.tcp.ack_seq, e.tcp.flags, e.endpoints.family,
                  e.endpoints.saddr, e.endpoints.daddr, e.endpoints.source_port, e.endpoints.dest_port, e.kind,
                  e.app.size, e.app.words);
}

template <typename Reader>
ReadOutcome read_to_end(Reader& reader, RecordingSink& sink) {
  while (reader.state() == TraceReader::State::kNew || reader.state() == TraceReader::State::kReading) {
    reader.step(64);
  }
  ReadOutcome out{reader.state(), reader.info(), reader.problem(), sink.events};
  std::sort(out.events.begin(), out.events.end(),
            [](const auto& a, const auto& b) { return event_tuple(a) < event_tuple(b); });
  return out;
}

inline ReadOutcome read_with_babeltrace2(const std::string& path, ReaderOptions options = {}) {
  RecordingSink sink;
  options.stream_ranges = false;
  CtfTraceReader reader(TraceSource{path, path, std::nullopt}, 0, options, sink);
  return read_to_end(reader, sink);
}

inline ReadOutcome read_with_scanner(const std::string& path, ReaderOptions options = {}) {
  RecordingSink sink;
  ScannerTraceReader reader(TraceSource{path, path, std::nullopt}, 0, options, sink);
  return read_to_end(reader, sink);
}

// What a damaged-time problem says of its packet, without how the reader
// names the stream (babeltrace2's port name, the scanner's file path) or the
// packet's byte offset (only the scanner knows it).
inline std::string damage_words(const std::string& text) {
  const std::size_t packet = text.find(", packet ");
  std::string words = packet == std::string::npos ? text : text.substr(packet);
  const std::size_t offset = words.rfind(" (the packet at byte ");
  if (offset != std::string::npos) words.resize(offset);
  return words;
}

// Every difference between two TraceInfos, one per line; empty when equal.
inline std::string info_differences(const TraceInfo& a, const TraceInfo& b) {
  std::ostringstream out;
  auto field = [&](const char* name, const auto& x, const auto& y) {
    if (!(x == y)) out << name << " differs\n";
  };
  field("path", a.path, b.path);
  field("name", a.name, b.name);
  field("hostname", a.hostname, b.hostname);
  field("domain_id", a.domain_id, b.domain_id);
  field("domain_source", a.domain_source, b.domain_source);
  field("clock present", a.clock.has_value(), b.clock.has_value());
  if (a.clock && b.clock) {
    field("clock.name", a.clock->name, b.clock->name);
    field("clock.uuid", a.clock->uuid, b.clock->uuid);
    field("clock.frequency", a.clock->frequency, b.clock->frequency);
    field("clock.offset_seconds", a.clock->offset_seconds, b.clock->offset_seconds);
    field("clock.offset_cycles", a.clock->offset_cycles, b.clock->offset_cycles);
    field("clock.origin_is_unix_epoch", a.clock->origin_is_unix_epoch, b.clock->origin_is_unix_epoch);
  }
  if (a.first_event != b.first_event) out << "first_event " << a.first_event.value_or(-1) << " vs " << b.first_event.value_or(-1) << "\n";
  if (a.last_event != b.last_event) out << "last_event " << a.last_event.value_or(-1) << " vs " << b.last_event.value_or(-1) << "\n";
  if (a.streams != b.streams) out << "streams " << a.streams << " vs " << b.streams << "\n";
  if (a.events != b.events) out << "events " << a.events << " vs " << b.events << "\n";
  if (a.network_events != b.network_events) out << "network_events " << a.network_events << " vs " << b.network_events << "\n";
  for (std::size_t i = 0; i < a.network_census.size(); ++i) {
    const auto& x = a.network_census[i];
    const auto& y = b.network_census[i];
    if (!(x == y)) {
      out << "census of " << kNetworkEventNames[i].name << ": recorded " << x.recorded << "/" << y.recorded << ", tcp "
          << x.tcp << "/" << y.tcp << ", not tcp " << x.not_tcp << "/" << y.not_tcp << ", undecodable " << x.undecodable
          << "/" << y.undecodable << ", missing '" << x.missing << "' / '" << y.missing << "'\n";
    }
  }
  if (a.discarded_events != b.discarded_events) out << "discarded_events " << a.discarded_events << " vs " << b.discarded_events << "\n";
  field("bytes", a.bytes, b.bytes);
  if (a.damaged_packets != b.damaged_packets) out << "damaged_packets " << a.damaged_packets << " vs " << b.damaged_packets << "\n";
  if (a.damaged_network_events != b.damaged_network_events) {
    out << "damaged_network_events " << a.damaged_network_events << " vs " << b.damaged_network_events << "\n";
  }
  if (damage_words(a.first_time_damage) != damage_words(b.first_time_damage)) {
    out << "first_time_damage '" << a.first_time_damage << "' vs '" << b.first_time_damage << "'\n";
  }
  field("app_census", a.app_census, b.app_census);
  field("offered_classes", a.offered_classes, b.offered_classes);
  return out.str();
}

// The first event where two outcomes differ, or empty.
inline std::string event_differences(const ReadOutcome& a, const ReadOutcome& b) {
  if (a.events.size() != b.events.size()) {
    return std::to_string(a.events.size()) + " events vs " + std::to_string(b.events.size());
  }
  for (std::size_t i = 0; i < a.events.size(); ++i) {
    if (event_tuple(a.events[i]) != event_tuple(b.events[i])) {
      return "event " + std::to_string(i) + " differs (time " + std::to_string(a.events[i].time) + " vs " +
             std::to_string(b.events[i].time) + ", seq " + std::to_string(a.events[i].tcp.seq) + " vs " +
             std::to_string(b.events[i].tcp.seq) + ")";
    }
  }
  return {};
}

}  // namespace tracesync::ingest::testing
