// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string>

#include "simulate/experiment.h"

namespace tracesync::simulate {

// Gives a trace written by sink.ctf.fs the UUID we chose.
//
// babeltrace2's sink.ctf.fs (2.0 and later) ignores the IR trace's UUID and
// draws a random one for every trace it writes, which would make two runs
// with the same seed differ. Once the sink is done, this replaces that UUID,
// and only it: in the metadata's trace block and in every packet header,
// walking the packets by their packet_size. Nothing else of the trace is
// touched. Throws SimulationError when the trace does not have the layout
// sink.ctf.fs writes (checked in the metadata and at every packet).
void stamp_trace_uuid(const std::string& trace_directory, const Uuid& uuid);

}  // namespace tracesync::simulate
