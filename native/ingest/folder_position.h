// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "ingest/resume_point.h"
#include "ingest/trace_info.h"
#include "ingest/written_packets.h"

namespace tracesync::ingest {

// Where the reading of a followed trace folder stands (GrowingTraceReader),
// so that a new reading process, after the one that read it died, goes on
// where it stopped: no event given twice, none lost (docs/live.md,
// "A reading process that dies").
//
// A folder is read a look at a time: each look stages the packets that
// became whole and reads them with the reader sync uses. What the looks
// read to their end is known by stream file, as packets counted from the
// file's start (the index file names them again in the same order); the look
// under way when the process died is known by the packets it took and by
// what its staged reader gave (a ResumePoint): a new reader stages the very
// same packets and metadata, so the staged trace and its stream numbering
// are the same, and gives only what the cut does not cover.
struct FolderPosition {
  // The trace chunk being read (0 when the session does not rotate).
  uint64_t chunk = 0;
  // Of the looks read to their end: per stream file of the chunk, the
  // packets read; per stream file of any chunk, the last of them (the next
  // packet's order is checked against it); the stream bytes of the chunks
  // read to their end; the whole metadata bytes at the last look; and the
  // trace's figures (events, census, ...), which the new reader goes on from.
  std::map<std::string, uint64_t> packets;
  std::map<std::string, WrittenPacket> last_packets;
  uint64_t finished_bytes = 0;
  uint64_t metadata_bytes = 0;
  TraceInfo info;
  // The look under way (empty: none): per stream file, the packets it took
  // after `packets`; the metadata bytes it staged; what its reader gave.
  std::map<std::string, uint64_t> look;
  uint64_t look_metadata_bytes = 0;
  ResumePoint look_delivered;

  // Nothing was read to its end and no look is under way: start afresh.
  bool empty() const { return packets.empty() && look.empty() && !info.clock; }
};

}  // namespace tracesync::ingest
