// SPDX-License-Identifier: EPL-2.0
// StreamBeingWritten and whole_metadata_bytes: what part of a trace that is
// still being written is whole, on files written here step by step as
// LTTng's consumer writes them (a packet's bytes, then its index entry).
#include "ingest/written_packets.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace tracesync::ingest {
namespace {

namespace fs = std::filesystem;

void append(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::app);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string big_endian(uint64_t value, int bytes) {
  std::string out;
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<char>(value >> (8 * i) & 0xff));
  return out;
}

std::string index_header() {
  return big_endian(0xC1F1DCC1, 4) + big_endian(1, 4) + big_endian(1, 4) + big_endian(72, 4);
}

// An index entry (9 fields, LTTng 2.13's) for a packet at `offset`.
std::string index_entry(uint64_t offset, uint64_t bytes, uint64_t end, uint64_t discarded) {
  return big_endian(offset, 8) + big_endian(bytes * 8, 8) + big_endian(bytes * 8, 8) + big_endian(end - 1, 8) +
         big_endian(end, 8) + big_endian(discarded, 8) + big_endian(0, 8) + big_endian(0, 8) + big_endian(0, 8);
}

class WrittenPackets : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("written_packets_test." + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "index");
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path stream() const { return dir_ / "c_0"; }
  fs::path index() const { return dir_ / "index" / "c_0.idx"; }

  fs::path dir_;
};

TEST_F(WrittenPackets, APacketIsWholeOnceItsIndexEntryAndAllItsBytesAreThere) {
  StreamBeingWritten s(stream().string(), index().string());
  std::vector<WrittenPacket> got;
  std::string problem;
  ASSERT_TRUE(s.poll(got, UINT64_MAX, problem));  // neither file yet
  EXPECT_TRUE(got.empty());
  append(stream(), std::string(4096, 'a'));
  append(index(), index_header().substr(0, 10));  // half a header
  ASSERT_TRUE(s.poll(got, UINT64_MAX, problem));
  EXPECT_TRUE(got.empty());
  append(index(), index_header().substr(10) + index_entry(0, 4096, 1000, 0));
  ASSERT_TRUE(s.poll(got, UINT64_MAX, problem)) << problem;
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].offset, 0u);
  EXPECT_EQ(got[0].size, 4096u);
  EXPECT_EQ(got[0].timestamp_end, 1000u);
  // The next packet's entry before all its bytes: it waits.
  append(stream(), std::string(2000, 'b'));
  append(index(), index_entry(4096, 8192, 2000, 3));
  got.clear();
  ASSERT_TRUE(s.poll(got, UINT64_MAX, problem));
  EXPECT_TRUE(got.empty());
  // Its bytes whole, and half of the next entry: one packet.
  append(stream(), std::string(8192 - 2000, 'b'));
  append(index(), index_entry(12288, 4096, 3000, 3).substr(0, 40));
  ASSERT_TRUE(s.poll(got, UINT64_MAX, problem));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].offset, 4096u);
  EXPECT_EQ(s.last().discarded_events, 3u);
  EXPECT_EQ(s.packets(), 2u);
}

TEST_F(WrittenPackets, ABudgetLeavesTheRestForTheNextPoll) {
  append(stream(), std::string(3 * 4096, 'a'));
  append(index(), index_header() + index_entry(0, 4096, 1, 0) + index_entry(4096, 4096, 2, 0) +
                      index_entry(8192, 4096, 3, 0));
  StreamBeingWritten s(stream().string(), index().string());
  std::vector<WrittenPacket> got;
  std::string problem;
  ASSERT_TRUE(s.poll(got, 5000, problem));
  EXPECT_EQ(got.size(), 1u);
  ASSERT_TRUE(s.poll(got, 8192, problem));
  EXPECT_EQ(got.size(), 3u);
  EXPECT_EQ(got.back().timestamp_end, 3u);
}

TEST_F(WrittenPackets, TheFilesAreFollowedWhereARotationMovesThem) {
  append(stream(), std::string(4096, 'a'));
  append(index(), index_header() + index_entry(0, 4096, 1000, 0));
  StreamBeingWritten s(stream().string(), index().string());
  std::vector<WrittenPacket> got;
  std::string problem;
  ASSERT_TRUE(s.poll(got, UINT64_MAX, problem)) << problem;
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].timestamp_begin, 999u);
  // lttng moves the chunk's directory (to .tmp_old_chunk, then archives/)
  // while its consumer writes the chunk's last packets: they are read from
  // the files already open.
  const fs::path moved = dir_.string() + ".moved";
  fs::rename(dir_, moved);
  append(moved / "c_0", std::string(4096, 'b'));
  append(moved / "index" / "c_0.idx", index_entry(4096, 4096, 2000, 0));
  got.clear();
  ASSERT_TRUE(s.poll(got, UINT64_MAX, problem)) << problem;
  fs::rename(moved, dir_);  // for TearDown
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].offset, 4096u);
  EXPECT_EQ(got[0].timestamp_end, 2000u);
  ASSERT_GE(s.stream_fd(), 0);
  char byte = 0;
  ASSERT_EQ(::pread(s.stream_fd(), &byte, 1, 4096), 1);
  EXPECT_EQ(byte, 'b') << "the copy reads the packet's bytes through the open file";
}

TEST_F(WrittenPackets, AnIndexThatIsNotLttngsOrSkipsAPacketIsAProblemNamingIt) {
  append(stream(), std::string(8192, 'a'));
  append(index(), "not an index at all");
  StreamBeingWritten bad(stream().string(), index().string());
  std::vector<WrittenPacket> got;
  std::string problem;
  EXPECT_FALSE(bad.poll(got, UINT64_MAX, problem));
  EXPECT_NE(problem.find(index().string()), std::string::npos) << problem;
  EXPECT_NE(problem.find("not an LTTng index"), std::string::npos) << problem;

  fs::remove(index());
  append(index(), index_header() + index_entry(0, 4096, 1, 0) + index_entry(5000, 1000, 2, 0));
  StreamBeingWritten gap(stream().string(), index().string());
  problem.clear();
  got.clear();
  EXPECT_FALSE(gap.poll(got, UINT64_MAX, problem));
  EXPECT_EQ(got.size(), 1u);  // the packet before the gap stands
  EXPECT_NE(problem.find("entry 1 describes a packet at byte 5000"), std::string::npos) << problem;
}

// A metadata packet: LTTng's header (native byte order) then text.
std::string metadata_packet(const std::string& text, uint32_t size) {
  std::string p(37, '\0');
  const uint32_t magic = 0x75D11D57, content = static_cast<uint32_t>((37 + text.size()) * 8), bits = size * 8;
  std::memcpy(p.data(), &magic, 4);
  std::memcpy(p.data() + 24, &content, 4);
  std::memcpy(p.data() + 28, &bits, 4);
  p += text;
  p.resize(size, '\0');
  return p;
}

TEST(WholeMetadata, OnlyWholePacketsCount) {
  const std::string two = metadata_packet("/* first */", 128) + metadata_packet("/* second */", 256);
  std::string problem;
  EXPECT_EQ(whole_metadata_bytes(two, problem), 384u);
  EXPECT_EQ(whole_metadata_bytes(two.substr(0, 300), problem), 128u);
  EXPECT_EQ(whole_metadata_bytes(two.substr(0, 100), problem), 0u);
  EXPECT_TRUE(problem.empty()) << problem;
  EXPECT_EQ(whole_metadata_bytes("/* CTF 1.8 */ trace { };", problem), 24u);  // text: whole as it is
  EXPECT_EQ(whole_metadata_bytes(two.substr(0, 128) + std::string(64, 'x'), problem), 128u);
  EXPECT_NE(problem.find("no packet header at byte 128"), std::string::npos) << problem;
}

// CTF 2 metadata (LTTng 2.15) is a JSON text sequence: whole when its
// fragments are, plain or in packets, a fragment possibly cut by a packet's end.
TEST(WholeMetadata, Ctf2CountsWholeFragments) {
  const std::string a = "\x1e{\"type\": \"preamble\",\n \"version\": 2}\n";
  const std::string b = "\x1e{\"type\": \"trace-class\",\n \"environment\": {}}\n";
  std::string problem;
  EXPECT_EQ(whole_metadata_bytes(a + b, problem), a.size() + b.size());
  // Cut inside the second fragment, even where a line ends: its first one.
  EXPECT_EQ(whole_metadata_bytes(a + b.substr(0, 26), problem), a.size());
  EXPECT_EQ(whole_metadata_bytes(a + b.substr(0, b.size() - 3), problem), a.size());
  EXPECT_EQ(whole_metadata_bytes(a.substr(0, 10), problem), 0u);
  EXPECT_TRUE(problem.empty()) << problem;
  // In packets: the second fragment over the second and third packet.
  const std::string packets = metadata_packet(a, 128) + metadata_packet(b.substr(0, 20), 128) +
                              metadata_packet(b.substr(20), 128);
  EXPECT_EQ(whole_metadata_bytes(packets, problem), 384u);
  EXPECT_EQ(whole_metadata_bytes(packets.substr(0, 300), problem), 128u);  // the fragment's end not written
  EXPECT_TRUE(problem.empty()) << problem;
}

}  // namespace
}  // namespace tracesync::ingest
