// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <string>

#include "ctf/trace_class.h"

namespace tracesync::ctf {

// A TraceClass as CTF 2 metadata (the final specification's form, as LTTng
// 2.15 writes it): a JSON text sequence of a preamble, a trace class, the
// clock classes, then each data stream class followed by its event record
// classes. With it, CTF 1.8 TSDL translates to CTF 2: parse_tsdl, then this.
//
// Roles are given as the CTF 1.8 names say (LTTng's and babeltrace's
// conventions): the packet header's `magic`, `uuid`, `stream_id`,
// `stream_instance_id`; the packet context's `packet_size`, `content_size`,
// `timestamp_begin`, `timestamp_end`, `events_discarded`, `packet_seq_num`;
// the event header's `id` and its clock-mapped integers. A TraceClass read
// from CTF 2 keeps its own roles. Relative field references stay relative
// (CTF 2 looks them up from the structure that holds the field, as CTF 1.8
// does for the references tracers write).
//
// nullopt with `error` said when the class holds what CTF 2 cannot say
// (a stream class whose fields map two clocks).
std::optional<std::string> write_ctf2(const TraceClass& trace, std::string* error);

}  // namespace tracesync::ctf
