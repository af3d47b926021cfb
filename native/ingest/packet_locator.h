// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tracesync::ingest {

// Where a packet is in a trace's files.
struct PacketPlace {
  std::string file;
  uint64_t offset = 0;  // in bytes
};

// Where packet `number` (from 0) of the stream babeltrace2 reads through
// the src.ctf.fs port `port` is (issue 34: babeltrace2's problems then name
// the file and byte as the scanner's do). babeltrace2 2.0 names such a port
// "TRACE | STREAM CLASS ID | STREAM", STREAM being the stream instance id of
// the packet headers or, where they have none, the stream file's path (and
// no stream class id where the trace has one stream class). The stream's
// files and packet order are src.ctf.fs's (ingest/stream_instances.h): a
// stream of one file is walked to the packet with the scanner's plans; a
// stream instance split over several files is read in the order of its
// merged index, whose N-th packet is in a file at an offset.
// nullopt when it cannot be said for sure: the metadata beyond the plans,
// no stream or several for the port, damage before the packet.
std::optional<PacketPlace> locate_packet(const std::string& trace, const std::string& port, uint64_t number);

}  // namespace tracesync::ingest
