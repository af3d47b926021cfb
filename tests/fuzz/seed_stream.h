// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <vector>

namespace tracesync::fuzz {

// The one stream file (channel0_0) of the trace that
// corpus/ctf_metadata/flat_tcp_events.tsdl describes: two 512-byte packets of
// six events each (sched_switch, inet_sock_local_out, inet_sock_local_in in
// turn), little-endian, with that metadata's trace UUID.
std::vector<uint8_t> seed_stream();

}  // namespace tracesync::fuzz
