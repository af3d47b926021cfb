// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tracesync::ingest {

// Where the trace chunks of a local LTTng session with a rotation schedule
// are (`lttng enable-rotation`, lttng-rotate(1)), as lttng 2.13 lays them
// out under the session's output folder OUTPUT:
//   - chunk 0, before the first rotation: OUTPUT itself (ust/..., kernel/);
//   - the chunk being recorded, after it: OUTPUT/BEGIN-N;
//   - a chunk once rotated: briefly OUTPUT/.tmp_old_chunk, then, once the
//     consumer wrote its last packets, OUTPUT/archives/BEGIN-END-N
//     (lttng says "Trace chunk archive ... is now readable").
// BEGIN and END are ISO 8601 times (20261206T085516+0000), N counts from 0.
// Each chunk is a whole trace (its own metadata, a packet in every stream
// file: a rotation opens one, empty, in each stream of the new chunk).
struct TraceChunkPlace {
  std::string root;       // the chunk's directory (OUTPUT itself for chunk 0 in place)
  bool archived = false;  // in archives/: complete, nothing more is written to it
};

// Whether OUTPUT is the output folder of a session that rotated at least
// once (it holds archives/ or a chunk directory).
bool has_rotated(const std::string& output);

// The smallest chunk number under OUTPUT (in archives/ or recording), or
// nullopt when there is none or a chunk is moving to archives/.
std::optional<uint64_t> first_trace_chunk(const std::string& output);

// Where chunk `number` of OUTPUT is now; nullopt while it is not there yet
// or is being moved to archives/.
std::optional<TraceChunkPlace> find_trace_chunk(const std::string& output, uint64_t number);

// Whether a chunk later than `number` was begun (the recording went on
// past chunk `number`). A rotated chunk's successor is made before the
// chunk is archived, so a chunk archived with none after it was the
// session's last: lttng archives it when the session is destroyed.
bool trace_chunk_after(const std::string& output, uint64_t number);

// The chunk number that a chunk directory's name ends with (BEGIN-N or
// BEGIN-END-N); nullopt for any other name.
std::optional<uint64_t> trace_chunk_number(const std::string& name);

}  // namespace tracesync::ingest
