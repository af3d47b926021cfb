// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "ctf/scan_plan.h"

namespace tracesync::ingest {

// The streams of a trace as babeltrace2 2.0's src.ctf.fs makes them of its
// stream files, so that the scanner reads the same streams in the same
// packet order, and a babeltrace2 packet number names the same file and byte
// (issue 34). LTTng splits a stream instance over several files with
// `--tracefile-size` (CHANNEL_CPU_0, CHANNEL_CPU_1, ...; with
// `--tracefile-count` the files are reused in turn, so the first by name
// need not be the first in time).
//
// What src.ctf.fs 2.0.4 does (fs.c, add_ds_file_to_ds_file_group, and
// data-stream-file.c, its index):
// - It takes the stream files in the order the directory lists them
//   (readdir), and reads each one's first packet: stream class, stream
//   instance id, timestamp_begin.
// - A file whose first packet has no stream instance id or no
//   timestamp_begin is a stream of its own. Files whose first packets say
//   the same stream class and instance id are one stream.
// - Each file is indexed: its packets' offsets, sizes and bounds, from
//   LTTng's index/FILE.idx where that is valid by babeltrace2's rules, else
//   from the packet contexts, walked. The stream's index is the first
//   file's (in directory order) as it is; each later file's packets are
//   inserted one by one before the first packet whose timestamp_begin (in
//   ns from origin) is not earlier, and left out when that packet has the
//   same size, timestamp_begin, timestamp_end and sequence number (a copy:
//   overlapping snapshots).
// - The stream's packets are read in its index's order, one after the
//   other, through one message iterator: packet N of its port is the N-th
//   of that order, and "packets in order" spans the files.
// Undamaged, that is every packet in time order, whatever the directory's
// order; damaged times move packets, as they move them for babeltrace2
// (where a valid index file gives the times, damage in the stream files
// moves nothing).
// A stream of one file is not indexed here: the scanner walks it from its
// beginning to its end, as babeltrace2 reads it at the offsets of its index
// (of a valid index file, the same packets unless that file is damaged).
struct StreamInstance {
  struct Packet {
    std::size_t file = 0;  // among StreamInstance::files
    uint64_t offset = 0;   // in bytes
  };
  // Paths of its files, by their first packet's timestamp_begin (as
  // src.ctf.fs lists them); one unless split.
  std::vector<std::string> files;
  // Its packets in babeltrace2's order when split (16 bytes each: a split
  // stream's index is held while it is read, as babeltrace2 holds it);
  // empty when it is one file, or split with a file that cannot be
  // indexed: its files are then read one after the other, each from its
  // beginning to its end.
  std::vector<Packet> packets;
  std::optional<uint64_t> stream_class;  // of its first packet, when that could be read
  // Its stream instance id, when its files are grouped by it (the first
  // packet has one and a timestamp_begin): babeltrace2 names its port by
  // it, else by the file's path.
  std::optional<uint64_t> instance;
  bool split() const { return files.size() > 1; }
};

// The streams of the trace in `trace_directory`, each once, ordered by the
// name of their first file in name order (the scanner's stream numbers). A
// file whose first packet cannot be read is a stream of its own (its reader
// names the damage); a split stream with a file that cannot be indexed is
// read file after file (babeltrace2 does not open such a trace at all).
// nullopt, with `error` set, when the directory cannot be listed.
std::optional<std::vector<StreamInstance>> stream_instances(const ctf::ScanPlan& plan,
                                                            const std::string& trace_directory,
                                                            std::error_code& error);

}  // namespace tracesync::ingest
