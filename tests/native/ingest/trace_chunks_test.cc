// SPDX-License-Identifier: EPL-2.0
// trace_chunks: where the trace chunks of a rotating LTTng session are, on
// folders laid out here as lttng 2.13 lays them out (seen on this machine:
// chunk 0 in place, then BEGIN-N while recorded, .tmp_old_chunk while
// moving, archives/BEGIN-END-N once readable).
#include "ingest/trace_chunks.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

namespace tracesync::ingest {
namespace {

namespace fs = std::filesystem;

class TraceChunks : public ::testing::Test {
 protected:
  void SetUp() override {
    output_ = fs::temp_directory_path() / ("trace_chunks_test." + std::to_string(::getpid()));
    fs::remove_all(output_);
    fs::create_directories(output_ / "ust/uid/0/64-bit");  // chunk 0, recorded in place
  }
  void TearDown() override { fs::remove_all(output_); }
  std::string output() const { return output_.string(); }
  // The rotation that ends chunk `number` (0: the one in place): lttng moves
  // it aside, begins the next one, and archives it once written.
  void rotate(uint64_t number, const std::string& begin, const std::string& end) {
    const fs::path recorded = number == 0 ? output_ : output_ / (begin + "-" + std::to_string(number));
    fs::create_directories(output_ / ".tmp_old_chunk");
    fs::rename(number == 0 ? recorded / "ust" : recorded, number == 0 ? output_ / ".tmp_old_chunk/ust"
                                                                      : output_ / ".tmp_old_chunk/chunk");
    fs::create_directories(output_ / (end + "-" + std::to_string(number + 1)) / "ust/uid/0/64-bit");
  }
  void archive(uint64_t number, const std::string& begin, const std::string& end) {
    const fs::path moved = number == 0 ? output_ / ".tmp_old_chunk" : output_ / ".tmp_old_chunk/chunk";
    const fs::path archived = output_ / "archives" / (begin + "-" + end + "-" + std::to_string(number));
    fs::create_directories(archived.parent_path());
    fs::rename(moved, archived);
    fs::remove_all(output_ / ".tmp_old_chunk");
  }

  fs::path output_;
};

TEST(TraceChunkNames, TheNumberEndsAChunkNameThatBeginsWithItsTime) {
  EXPECT_EQ(trace_chunk_number("20261206T085611+0000-1"), 1u);
  EXPECT_EQ(trace_chunk_number("20261206T085610+0000-20261206T085611+0000-0"), 0u);
  EXPECT_EQ(trace_chunk_number("20261206T085610-0500-20261206T085611-0500-12"), 12u);
  EXPECT_EQ(trace_chunk_number("archives"), std::nullopt);
  EXPECT_EQ(trace_chunk_number("ust"), std::nullopt);
  EXPECT_EQ(trace_chunk_number("20261206T085611+0000-"), std::nullopt);
  EXPECT_EQ(trace_chunk_number("20261206T085611+0000-x1"), std::nullopt);
  EXPECT_EQ(trace_chunk_number("2026120XT085611+0000-1"), std::nullopt);
  EXPECT_EQ(trace_chunk_number("20261206T085611+0000-99999999999999999999999"), std::nullopt);
}

TEST_F(TraceChunks, ChunkZeroIsTheFolderItselfUntilTheFirstRotation) {
  EXPECT_FALSE(has_rotated(output()));
  const auto place = find_trace_chunk(output(), 0);
  ASSERT_TRUE(place);
  EXPECT_EQ(place->root, output());
  EXPECT_FALSE(place->archived);
  EXPECT_FALSE(find_trace_chunk(output(), 1));
  EXPECT_FALSE(trace_chunk_after(output(), 0));
}

TEST_F(TraceChunks, ARotatedChunkIsNowhereWhileItMovesThenInArchives) {
  rotate(0, "20261206T085610+0000", "20261206T085611+0000");
  EXPECT_TRUE(has_rotated(output()));
  EXPECT_FALSE(find_trace_chunk(output(), 0)) << "moving: not readable yet, and not in place any more";
  EXPECT_EQ(first_trace_chunk(output()), std::nullopt) << "which chunk is moving shows once it is archived";
  EXPECT_TRUE(trace_chunk_after(output(), 0));
  const auto recording = find_trace_chunk(output(), 1);
  ASSERT_TRUE(recording);
  EXPECT_FALSE(recording->archived);
  EXPECT_EQ(recording->root, (output_ / "20261206T085611+0000-1").string());

  archive(0, "20261206T085610+0000", "20261206T085611+0000");
  const auto archived = find_trace_chunk(output(), 0);
  ASSERT_TRUE(archived);
  EXPECT_TRUE(archived->archived);
  EXPECT_EQ(archived->root, (output_ / "archives/20261206T085610+0000-20261206T085611+0000-0").string());
  EXPECT_TRUE(fs::is_directory(archived->root + "/ust/uid/0/64-bit"));
  EXPECT_EQ(first_trace_chunk(output()), 0u);
  EXPECT_TRUE(trace_chunk_after(output(), 0));
  EXPECT_FALSE(trace_chunk_after(output(), 1));
}

TEST_F(TraceChunks, TheLastChunkIsArchivedWithNoneAfterIt) {
  rotate(0, "20261206T085610+0000", "20261206T085611+0000");
  archive(0, "20261206T085610+0000", "20261206T085611+0000");
  // The session is destroyed: its chunk 1 is archived, and no chunk 2 begins.
  fs::create_directories(output_ / ".tmp_old_chunk");
  fs::rename(output_ / "20261206T085611+0000-1", output_ / ".tmp_old_chunk/chunk");
  EXPECT_TRUE(trace_chunk_after(output(), 1)) << "while it moves, it may be any chunk's";
  archive(1, "20261206T085611+0000", "20261206T085612+0000");
  const auto last = find_trace_chunk(output(), 1);
  ASSERT_TRUE(last);
  EXPECT_TRUE(last->archived);
  EXPECT_FALSE(trace_chunk_after(output(), 1));
  EXPECT_FALSE(find_trace_chunk(output(), 2));
}

}  // namespace
}  // namespace tracesync::ingest
