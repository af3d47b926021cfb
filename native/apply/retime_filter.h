// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <babeltrace2/babeltrace.h>

#include <cstdint>
#include <string>

#include "apply/piecewise_transform.h"
#include "bt/ref.h"

namespace tracesync::apply {

// What one retiming filter needs: the transform, and how many input ports
// (one per stream port of src.ctf.fs: LTTng 2.1 traces whose packet
// beginnings step back go round the muxer).
struct RetimeSettings {
  const PiecewiseTransform* transform = nullptr;
  uint64_t inputs = 1;
  std::string error;  // set by the filter when a message cannot be retimed
};

// Method 2's filter component class: every clock snapshot of every message
// (events, packet beginnings and ends, stream beginnings and ends, discarded
// events and packets) goes through the transform, with the cycle value
// rounded to the nearest cycle; every field of every event (payload,
// contexts) is copied as it is. Messages of all input ports leave through
// one output port. Pass a RetimeSettings as the initialize method data.
bt::FilterClassRef make_retime_filter_class();

}  // namespace tracesync::apply
