// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <babeltrace2/babeltrace.h>

#include <cstdint>
#include <filesystem>
#include <string>

#include "apply/piecewise_transform.h"
#include "bt/ref.h"

namespace tracesync::apply {

// What one writer needs: the transform, how many input ports (one per
// stream port of src.ctf.fs: LTTng 2.1 traces whose packet beginnings step
// back go round the muxer), and the directory to create.
struct CtfWriterSettings {
  const PiecewiseTransform* transform = nullptr;
  uint64_t inputs = 1;
  std::filesystem::path output;
  std::string error;  // set by the sink when it stops: what went wrong
};

// Method 2's sink component class: writes the messages of src.ctf.fs as a
// CTF 1.8 trace in `output`, every clock snapshot (events, packet
// beginnings and ends) through the transform to the nearest cycle of the
// same clock, every field as it is, each packet where the source's was.
// Discarded events and packets are counted in the packets' contexts, as
// CTF records them. On its first message it plans the whole trace class and
// writes the metadata (tsdl_metadata.h); what it cannot write is refused
// then, before `output` exists. Pass a CtfWriterSettings as the initialize
// method data.
bt::SinkClassRef make_ctf_writer_sink_class();

}  // namespace tracesync::apply
