// SPDX-License-Identifier: EPL-2.0
// A reading process that damage kills at the same place each time:
//   ingest_test_dying_read_trace TRACE BATCHES
// serves as the tests' reading program does, and kills itself (SIGKILL)
// once it has given BATCHES batches of events of trace TRACE (the trace's
// index), those included. Its parent has every frame it sent until then,
// and none after: where it dies depends on what it read, never on how
// fast either process ran.
//
// The reader serves on a socket of this process's own; this process relays
// the parent's requests to it as they are, and its frames to the parent
// one at a time, counting them.

#include <sys/socket.h>
#include <unistd.h>

#include <csignal>
#include <span>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "ingest/frame_channel.h"
#include "ingest/reader_protocol.h"
#include "ingest/reading_process.h"

namespace {

using namespace tracesync::ingest;
namespace protocol = tracesync::ingest::reader_protocol;

// Copies the parent's bytes to the reader until the parent closes its end,
// then closes the reader's input.
void relay_requests(int reader) {
  std::vector<char> buffer(64 << 10);
  for (;;) {
    const ssize_t got = read(kReadingChannelFd, buffer.data(), buffer.size());
    if (got <= 0) break;
    for (ssize_t done = 0; done < got;) {
      const ssize_t sent = send(reader, buffer.data() + done, static_cast<std::size_t>(got - done), MSG_NOSIGNAL);
      if (sent <= 0) return;
      done += sent;
    }
  }
  shutdown(reader, SHUT_WR);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  const auto victim = static_cast<tracesync::match::TraceIndex>(std::strtoul(argv[1], nullptr, 10));
  const long batches_to_die = std::strtol(argv[2], nullptr, 10);
  int ends[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) return 1;
  std::thread requests(relay_requests, ends[0]);
  requests.detach();  // it ends with the process
  std::thread reader([reader_end = ends[1]] {
    serve_trace_reading(reader_end, reader_end);
    shutdown(reader_end, SHUT_WR);
  });
  FrameChannel from_reader(ends[0], ends[0]);
  FrameChannel to_parent(kReadingChannelFd, kReadingChannelFd);
  long batches = 0;
  uint32_t type = 0;
  std::vector<std::byte> payload;
  while (from_reader.receive(type, payload)) {
    if (!to_parent.send(type, payload) || !to_parent.flush()) break;
    std::span<const std::byte> rest(payload);
    if (type == protocol::kEvents && protocol::take_address(rest) == victim && ++batches >= batches_to_die) {
      std::raise(SIGKILL);
    }
  }
  reader.join();
  _exit(0);
}
