// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tracesync::simulate::testing {

// What the tests check of one event read back from a CTF trace.
struct ReadEvent {
  std::string name;
  int64_t ns_from_origin = 0;
  uint64_t stream_id = 0;
  uint64_t cpu_id = 0;  // from the packet context
  // Network events only:
  std::string network_option;  // the selected option of network_header: "ipv4", "ipv6"
  uint64_t seq = 0;
  uint64_t ack_seq = 0;
  uint64_t flags = 0;
  std::vector<uint64_t> saddr;
  std::vector<uint64_t> daddr;
};

// One trace read back through babeltrace2 (src.ctf.fs -> flt.utils.muxer ->
// a sink of the test's own), independently of the code that wrote it.
struct ReadBack {
  std::string error;  // empty when the graph ran to its end
  std::string trace_uuid;  // empty when none
  std::map<std::string, std::string> env_strings;
  std::map<std::string, int64_t> env_integers;
  std::string clock_name;
  std::string clock_uuid;  // empty when none
  uint64_t clock_frequency = 0;
  int64_t clock_offset_ns = 0;  // offset_s * 1e9 + offset cycles (frequency 1e9)
  std::map<uint64_t, std::string> stream_names;
  std::vector<ReadEvent> events;
};

ReadBack read_back(const std::string& trace_directory);

}  // namespace tracesync::simulate::testing
