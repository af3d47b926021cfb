// SPDX-License-Identifier: EPL-2.0
// FrameChannel: frames cross a socket whole, in order, whatever their size,
// and a stream that ends or lies is an error, not a crash or a hang.

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <thread>

#include "ingest/frame_channel.h"

namespace tracesync::ingest {
namespace {

// Two connected ends, closed by the destructor.
struct SocketPair {
  SocketPair() { EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends), 0); }
  ~SocketPair() {
    for (int& end : ends) close_end(end);
  }
  static void close_end(int& end) {
    if (end >= 0) close(end);
    end = -1;
  }
  int ends[2] = {-1, -1};
};

std::vector<std::byte> bytes_of(const std::string& text) {
  std::vector<std::byte> out(text.size());
  std::memcpy(out.data(), text.data(), text.size());
  return out;
}

// Between turns a channel gives its receive buffer back: frames already
// received but not yet taken stay, and later frames arrive as before.
TEST(FrameChannel, ReleasingBuffersKeepsWhatIsUnread) {
  SocketPair pair;
  FrameChannel out(-1, pair.ends[0]);
  for (uint32_t i = 0; i < 3; ++i) ASSERT_TRUE(out.send(i, bytes_of("frame " + std::to_string(i))));
  ASSERT_TRUE(out.flush());
  FrameChannel in(pair.ends[1], -1);
  uint32_t type = 0;
  std::vector<std::byte> payload;
  ASSERT_TRUE(in.receive(type, payload)) << in.error();  // one read takes all three
  EXPECT_EQ(type, 0u);
  in.release_buffers();  // two frames unread: kept
  for (uint32_t i = 1; i < 3; ++i) {
    ASSERT_TRUE(in.receive(type, payload)) << in.error();
    EXPECT_EQ(type, i);
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(payload.data()), payload.size()), "frame " + std::to_string(i));
  }
  in.release_buffers();  // nothing unread: given back
  ASSERT_TRUE(out.send(7, bytes_of("after")));
  ASSERT_TRUE(out.flush());
  ASSERT_TRUE(in.receive(type, payload)) << in.error();
  EXPECT_EQ(type, 7u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(payload.data()), payload.size()), "after");
}

// While waiting for frames, another descriptor is drained whenever it has
// bytes, until it ends: a writer blocked on it cannot block the frames.
TEST(FrameChannel, DrainsAnotherDescriptorWhileWaiting) {
  SocketPair pair;
  int output[2];
  ASSERT_EQ(pipe(output), 0);
  std::thread writer([&] {
    const std::string line(1000, 'x');
    for (int i = 0; i < 1000; ++i) {  // 1 MB: far more than the pipe holds
      ASSERT_EQ(write(output[1], line.data(), line.size()), static_cast<ssize_t>(line.size()));
    }
    close(output[1]);
    FrameChannel channel(-1, pair.ends[0]);
    EXPECT_TRUE(channel.send(5, bytes_of("done")));
    EXPECT_TRUE(channel.flush());
  });
  std::size_t drained = 0;
  FrameChannel channel(pair.ends[1], -1);
  channel.drain_while_waiting(output[0], [&] {
    char chunk[4096];
    const ssize_t got = read(output[0], chunk, sizeof chunk);
    if (got > 0) drained += static_cast<std::size_t>(got);
    return got > 0;
  });
  uint32_t type = 0;
  std::vector<std::byte> payload;
  ASSERT_TRUE(channel.receive(type, payload)) << channel.error();
  writer.join();
  EXPECT_EQ(type, 5u);
  // The frame came once the writer was through; what it wrote last may
  // still wait in the pipe (64 KiB at most).
  EXPECT_GE(drained, 1'000'000u - 65'536u);
  std::size_t left = 0;
  char chunk[4096];
  for (ssize_t got; (got = read(output[0], chunk, sizeof chunk)) > 0;) left += static_cast<std::size_t>(got);
  EXPECT_EQ(drained + left, 1'000'000u);
  close(output[0]);
}

TEST(FrameChannel, FramesArriveWholeAndInOrder) {
  SocketPair pair;
  // 3 MB payloads pass the 1 MiB write-out point and the socket's buffer: the
  // writer must be read from while it writes.
  std::vector<std::byte> big(3u << 20);
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<std::byte>(i * 7 + i / 4096);
  const std::vector<std::byte> small = bytes_of("hello");
  std::thread writer([&] {
    FrameChannel channel(-1, pair.ends[0]);
    for (uint32_t i = 0; i < 50; ++i) EXPECT_TRUE(channel.send(i, small, bytes_of(std::to_string(i))));
    EXPECT_TRUE(channel.send(100, {}));
    EXPECT_TRUE(channel.send(101, big));
    EXPECT_TRUE(channel.send(102, small, big));
    EXPECT_TRUE(channel.flush());
    SocketPair::close_end(pair.ends[0]);
  });
  FrameChannel channel(pair.ends[1], -1);
  uint32_t type = 0;
  std::vector<std::byte> payload;
  for (uint32_t i = 0; i < 50; ++i) {
    ASSERT_TRUE(channel.receive(type, payload)) << channel.error();
    EXPECT_EQ(type, i);
    const std::string text(reinterpret_cast<const char*>(payload.data()), payload.size());
    EXPECT_EQ(text, "hello" + std::to_string(i));
  }
  ASSERT_TRUE(channel.receive(type, payload));
  EXPECT_EQ(type, 100u);
  EXPECT_TRUE(payload.empty());
  ASSERT_TRUE(channel.receive(type, payload));
  EXPECT_EQ(type, 101u);
  EXPECT_TRUE(payload == big);
  ASSERT_TRUE(channel.receive(type, payload));
  EXPECT_EQ(type, 102u);
  ASSERT_EQ(payload.size(), small.size() + big.size());
  EXPECT_TRUE(std::equal(big.begin(), big.end(), payload.begin() + static_cast<std::ptrdiff_t>(small.size())));
  // Then the end of the stream, between frames: not an error.
  EXPECT_FALSE(channel.receive(type, payload));
  EXPECT_EQ(channel.error(), "");
  writer.join();
}

TEST(FrameChannel, AStreamEndingInsideAFrameIsAnError) {
  for (const std::size_t cut : {1u, 4u, 7u, 8u, 12u}) {  // in the header, or in a 5-byte payload
    SocketPair pair;
    {
      FrameChannel writer(-1, pair.ends[0]);
      ASSERT_TRUE(writer.send(3, bytes_of("12345")));
    }
    // What a whole frame looks like, cut short by hand.
    std::vector<std::byte> frame;
    {
      SocketPair loop;
      FrameChannel writer(-1, loop.ends[0]);
      ASSERT_TRUE(writer.send(3, bytes_of("12345")) && writer.flush());
      frame.resize(13);
      ASSERT_EQ(read(loop.ends[1], frame.data(), frame.size()), 13);
    }
    ASSERT_EQ(write(pair.ends[0], frame.data(), cut), static_cast<ssize_t>(cut));
    SocketPair::close_end(pair.ends[0]);
    FrameChannel reader(pair.ends[1], -1);
    uint32_t type = 0;
    std::vector<std::byte> payload;
    EXPECT_FALSE(reader.receive(type, payload)) << "cut at " << cut;
    EXPECT_EQ(reader.error(), "the stream ends inside a frame") << "cut at " << cut;
  }
}

TEST(FrameChannel, AFrameClaimingTooManyBytesIsRefusedBeforeAnyAllocation) {
  SocketPair pair;
  const uint32_t header[2] = {4, 0xFFFFFFF0u};
  ASSERT_EQ(write(pair.ends[0], header, sizeof header), static_cast<ssize_t>(sizeof header));
  FrameChannel reader(pair.ends[1], -1);
  uint32_t type = 0;
  std::vector<std::byte> payload;
  EXPECT_FALSE(reader.receive(type, payload));
  EXPECT_EQ(reader.error(), "a frame claims 4294967280 bytes");
  EXPECT_TRUE(payload.empty());
}

TEST(FrameChannel, WritingToAGoneReaderFailsWithoutASignal) {
  SocketPair pair;
  SocketPair::close_end(pair.ends[1]);
  FrameChannel writer(-1, pair.ends[0]);
  // SIGPIPE would end this test program; send(2) with MSG_NOSIGNAL reports EPIPE.
  EXPECT_TRUE(writer.send(1, bytes_of("lost")));
  EXPECT_FALSE(writer.flush());
  EXPECT_EQ(writer.error(), std::strerror(EPIPE));
}

// Written in the background (a reading process, issue 30): send() returns
// while no one reads, megabytes after the socket's buffer is full; the
// frames then arrive whole and in order, and flush() waits until all are
// written.
TEST(FrameChannel, FramesWrittenInTheBackgroundArriveWholeAndInOrderWithoutTheSenderWaiting) {
  SocketPair pair;
  std::vector<std::byte> big(1u << 20);
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<std::byte>(i * 13 + i / 1000);
  FrameChannel sender(-1, pair.ends[0]);
  ASSERT_TRUE(sender.write_in_background());
  // 8 MB, many times the socket's buffer, and no reader yet.
  for (uint32_t i = 0; i < 8; ++i) ASSERT_TRUE(sender.send(i, bytes_of(std::to_string(i)), big));
  std::thread flusher([&] { EXPECT_TRUE(sender.flush()) << sender.error(); });
  FrameChannel receiver(pair.ends[1], -1);
  uint32_t type = 0;
  std::vector<std::byte> payload;
  for (uint32_t i = 0; i < 8; ++i) {
    ASSERT_TRUE(receiver.receive(type, payload)) << receiver.error();
    EXPECT_EQ(type, i);
    const std::string number = std::to_string(i);
    ASSERT_EQ(payload.size(), number.size() + big.size());
    EXPECT_EQ(std::memcmp(payload.data(), number.data(), number.size()), 0);
    EXPECT_TRUE(std::equal(big.begin(), big.end(), payload.begin() + static_cast<std::ptrdiff_t>(number.size())));
  }
  flusher.join();
}

TEST(FrameChannel, WritingInTheBackgroundToAGoneReaderFailsWithoutASignal) {
  SocketPair pair;
  SocketPair::close_end(pair.ends[1]);
  FrameChannel writer(-1, pair.ends[0]);
  ASSERT_TRUE(writer.write_in_background());
  writer.send(1, bytes_of("lost"));  // may already know
  EXPECT_FALSE(writer.flush());
  EXPECT_EQ(writer.error(), std::strerror(EPIPE));
  EXPECT_FALSE(writer.send(2, bytes_of("lost too")));
}

// A channel that goes while its thread waits for a reader that does not
// read (a reading process ending on an error) does not hang.
TEST(FrameChannel, AChannelGoesWhileItsWriterWaitsForTheReader) {
  SocketPair pair;
  {
    FrameChannel writer(-1, pair.ends[0]);
    ASSERT_TRUE(writer.write_in_background());
    ASSERT_TRUE(writer.send(1, std::vector<std::byte>(4u << 20)));
  }
  SUCCEED() << "the destructor returned";
}

// A pipe cannot be written without waiting: it stays written by send() and
// flush() themselves.
TEST(FrameChannel, APipeIsNotWrittenInTheBackground) {
  int ends[2];
  ASSERT_EQ(pipe(ends), 0);
  {
    FrameChannel writer(-1, ends[1]);
    EXPECT_FALSE(writer.write_in_background());
    ASSERT_TRUE(writer.send(5, bytes_of("piped")) && writer.flush());
    FrameChannel reader(ends[0], -1);
    uint32_t type = 0;
    std::vector<std::byte> payload;
    ASSERT_TRUE(reader.receive(type, payload));
    EXPECT_EQ(type, 5u);
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(payload.data()), payload.size()), "piped");
  }
  close(ends[0]);
  close(ends[1]);
}

}  // namespace
}  // namespace tracesync::ingest
