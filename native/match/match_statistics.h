// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>

namespace tracesync::match {

// What happened to the send and receive events of an experiment, a trace, a
// link or a message kind ("TCP" below: any event with a key, application
// messages included).
//
// Every TCP event ends up in exactly one bucket, so for any set of keys
//   sends + receives == 2 * (matches + same_domain) + retransmissions + duplicates
//                       + unmatched_sends + unmatched_receives + expired.
// The other counters classify events that never reach a key.
struct MatchStatistics {
  uint64_t sends = 0;               // TCP send events
  uint64_t receives = 0;            // TCP receive events
  uint64_t matches = 0;             // messages emitted: a kept send and a kept receive in two domains
  uint64_t same_domain = 0;         // kept send and kept receive in one domain: ignored
  uint64_t retransmissions = 0;     // sends of a key after its first one
  uint64_t duplicates = 0;          // receives of a key after its first one
  uint64_t unmatched_sends = 0;     // keys with a send and no receive at the end
  uint64_t unmatched_receives = 0;  // keys with a receive and no send at the end
  uint64_t expired = 0;             // keys with one end only, dropped by the horizon
  uint64_t unknown_layout = 0;      // network events whose payload could not be decoded
  uint64_t non_tcp = 0;             // network events of another transport, or without IP header
  uint64_t tc_key_fallback = 0;     // strict key asked, event without addresses: matched by the tc key
  uint64_t late = 0;                // events older than their trace's announced progress (reader fault)
  uint64_t key_too_long = 0;        // application events whose key does not fit in an AppKey: not matched
  uint64_t probe_matches = 0;       // of the matches, TCP segments of tracesync probe's (MatchOptions::probe_ports)

  MatchStatistics& operator+=(const MatchStatistics& other);
  friend bool operator==(const MatchStatistics&, const MatchStatistics&) = default;
};

}  // namespace tracesync::match
