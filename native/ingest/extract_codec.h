// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <span>
#include <string>
#include <vector>

#include "ingest/extract.pb.h"
#include "ingest/trace_info.h"
#include "match/packet_event.h"

namespace tracesync::ingest {

// Between the reading path's types and extract.proto's: what one is, the
// other says, exactly (a round trip gives back what went in).

void to_proto(const TraceInfo& info, extract::v1::TraceInfo& out);
// An empty string, or what in `in` cannot be a TraceInfo (a census of the
// wrong names, an unknown domain source).
std::string from_proto(const extract::v1::TraceInfo& in, TraceInfo& out);

// Events of one batch, times delta-coded from the first.
void to_proto(std::span<const match::PacketEvent> events, model::Nanoseconds progress, extract::v1::EventBatch& out);
// Appends the batch's events, all of trace `trace`, to `out`; an empty
// string, or what in `in` cannot be a PacketEvent.
std::string from_proto(const extract::v1::EventBatch& in, match::TraceIndex trace,
                       std::vector<match::PacketEvent>& out);

}  // namespace tracesync::ingest
