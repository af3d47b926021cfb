// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "match/packet_event.h"

namespace tracesync::ingest {

// What a trace holds of one application message kind (`--messages`): whether
// its send and receive event classes are in the metadata, what they lack to
// give keys, and how their events decoded. `tracesync check` shows it; a
// non-empty problem becomes a problem of the trace in the reports.
struct AppEventTally {
  bool send_recorded = false;     // the send event class is in the trace's metadata
  bool receive_recorded = false;  // the receive event class is
  // What an event class lacks to give keys, naming the event and the field
  // ("tsapp:msg_send has no field `msg_id`"); empty when nothing lacks.
  std::string problem;
  uint64_t sends = 0;         // send events with a key
  uint64_t receives = 0;      // receive events with a key
  uint64_t key_too_long = 0;  // events whose key does not fit in an AppKey
  uint64_t undecodable = 0;   // events of a class with a problem: no key

  uint64_t events() const { return sends + receives + key_too_long + undecodable; }
  // Counts one decoded event of this kind (both CTF readers count so).
  void count(const match::PacketEvent& event) {
    switch (event.layout) {
      case match::Layout::kTcp: ++(event.direction == match::Direction::kSend ? sends : receives); break;
      case match::Layout::kKeyTooLong: ++key_too_long; break;
      case match::Layout::kNonTcp:
      case match::Layout::kUnknown: ++undecodable; break;
    }
  }
  friend bool operator==(const AppEventTally&, const AppEventTally&) = default;
};

// One tally per application kind: kind k at k - 1.
using AppEventCensus = std::vector<AppEventTally>;

// A user-space event class a trace offers (`tracesync check`): the fields
// that could serve in a key, each as "NAME (TYPE)" or "context.NAME
// (TYPE)", payload first.
struct OfferedEventClass {
  std::string name;
  std::vector<std::string> key_fields;
  friend bool operator==(const OfferedEventClass&, const OfferedEventClass&) = default;
};

}  // namespace tracesync::ingest
