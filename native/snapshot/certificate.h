// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "snapshot/tracesync.pb.h"

namespace tracesync::snapshot {

// The certificate of a snapshot (`tracesync sync --certificate FILE`,
// docs/verify.md), as JSON text ("tracesync-certificate/1"): the
// assumptions the bounds rest on; for every link and segment the messages
// that pin its lines (the hull vertices of each direction, with the pair
// pinning Lmin and Lmax); and for every trace the path its transform was
// composed along, with the span of every domain on it. `tracesync verify`
// re-derives the report's numbers from it.
//
// With `cite`, each cited message also names the trace and stream file its
// send and its receive were read from (`send_trace`, `send_stream`,
// `receive_trace`, `receive_stream`), where `cite` knows them.
struct CitedEvents {
  std::string send_trace, send_stream;  // empty: not known
  std::string receive_trace, receive_stream;
};
using EventCitation = std::function<CitedEvents(const std::vector<std::string>& sender_traces, int64_t send_ns,
                                                const std::vector<std::string>& receiver_traces, int64_t receive_ns)>;
std::string certificate_json(const v1::Snapshot& snapshot, int indent = 2, const EventCitation& cite = {});
// The same certificate written to `out` as it goes, segment by segment,
// never held as one document or one string (docs/performance.md, "The
// certificate").
void write_certificate(const v1::Snapshot& snapshot, int indent, std::ostream& out, const EventCitation& cite = {});

}  // namespace tracesync::snapshot
