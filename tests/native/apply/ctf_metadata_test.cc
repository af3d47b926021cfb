// SPDX-License-Identifier: EPL-2.0
#include "apply/ctf_metadata.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/run_command.h"

namespace tracesync::apply {
namespace {

namespace fs = std::filesystem;

const std::string kTsdl =
    "/* CTF 1.8 */\n"
    "typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := uint64_clock_t;\n"
    "env {\n\thostname = \"clock { freq = 1; };\";\n\tdomain = \"kernel\";\n};\n"
    "clock {\n"
    "\tname = monotonic;\n"
    "\tuuid = \"74715693-28c1-4d0d-bee9-24790a4942b0\";\n"
    "\tdescription = \"Monotonic Clock\";\n"
    "\tfreq = 1000000000; /* Frequency, in Hz */\n"
    "\t/* clock value offset from Epoch is: offset * (1/freq) */\n"
    "\toffset = 1361203559332331489;\n"
    "};\n"
    "stream { event.header := struct { uint64_clock_t timestamp; }; };\n";

TEST(CtfMetadata, FindsTheClockAndItsMapping) {
  std::string error;
  const auto blocks = find_clock_blocks(kTsdl, &error);
  ASSERT_TRUE(blocks) << error;
  ASSERT_EQ(blocks->size(), 1u);  // not the one in the hostname string
  const ClockBlock& clock = (*blocks)[0];
  EXPECT_EQ(clock.name, "monotonic");
  EXPECT_EQ(clock.uuid, "74715693-28c1-4d0d-bee9-24790a4942b0");
  EXPECT_EQ(clock.mapping.freq, 1'000'000'000u);
  EXPECT_EQ(clock.mapping.offset_s, 0);
  EXPECT_EQ(clock.mapping.offset, 1'361'203'559'332'331'489);
  EXPECT_EQ(clock.mapping_statements.size(), 2u);
}

TEST(CtfMetadata, RewritesOnlyTheMapping) {
  std::string error;
  const auto blocks = find_clock_blocks(kTsdl, &error);
  ASSERT_TRUE(blocks) << error;
  const std::string rewritten = with_clock_mappings(kTsdl, *blocks, {{999'999'962, 1'361'203'559, 123}}, "note");
  const auto again = find_clock_blocks(rewritten, &error);
  ASSERT_TRUE(again) << error;
  ASSERT_EQ(again->size(), 1u);
  EXPECT_EQ((*again)[0].mapping.freq, 999'999'962u);
  EXPECT_EQ((*again)[0].mapping.offset_s, 1'361'203'559);
  EXPECT_EQ((*again)[0].mapping.offset, 123);
  EXPECT_EQ((*again)[0].uuid, "74715693-28c1-4d0d-bee9-24790a4942b0");
  // Everything outside the clock block is byte for byte the same.
  EXPECT_EQ(rewritten.substr(0, (*blocks)[0].body_begin), kTsdl.substr(0, (*blocks)[0].body_begin));
  EXPECT_TRUE(rewritten.ends_with(kTsdl.substr((*blocks)[0].body_end)));
  EXPECT_NE(rewritten.find("description = \"Monotonic Clock\";"), std::string::npos);
  EXPECT_EQ(rewritten.find("1361203559332331489"), std::string::npos);
}

TEST(CtfMetadata, AClockWithoutMappingGetsTheDefaults) {
  std::string error;
  const auto blocks = find_clock_blocks("clock { name = c; };", &error);
  ASSERT_TRUE(blocks) << error;
  ASSERT_EQ(blocks->size(), 1u);
  EXPECT_EQ((*blocks)[0].mapping.freq, 1'000'000'000u);
  EXPECT_EQ((*blocks)[0].mapping.offset, 0);
}

TEST(CtfMetadata, ABadClockIsNamedWithItsLine) {
  std::string error;
  EXPECT_FALSE(find_clock_blocks("/* CTF 1.8 */\nclock {\n name = c;\n freq = many;\n};", &error));
  EXPECT_EQ(error, "line 4: clock freq 'many' is not a usable integer");
  EXPECT_FALSE(find_clock_blocks("clock {\n name = c;\n", &error));
  EXPECT_EQ(error, "line 1: clock block never closed");
}

// Packetized metadata as LTTng writes it: the text comes back whole.
TEST(CtfMetadata, ReadsPacketizedMetadata) {
  const fs::path fixture = fs::path(TRACESYNC_SHARED_DIR) / "fixtures/lttng-modules-2.1-addons/scp_src/metadata";
  if (!fs::exists(fixture)) GTEST_SKIP() << "shared fixture absent: " << fixture;
  std::string error;
  const auto read = read_metadata_text(fixture, &error);
  ASSERT_TRUE(read) << error;
  EXPECT_TRUE(read->packetized);
  EXPECT_TRUE(read->text.starts_with("/* CTF 1.8 */")) << read->text.substr(0, 40);
  EXPECT_EQ(read->text.find('\0'), std::string::npos);
  EXPECT_NE(read->text.find("hostname = "), std::string::npos);
  const auto blocks = find_clock_blocks(read->text, &error);
  ASSERT_TRUE(blocks) << error;
  ASSERT_EQ(blocks->size(), 1u);
  EXPECT_EQ((*blocks)[0].mapping.offset, 1'361'203'559'332'331'489);
}

TEST(CtfMetadata, ACutPacketIsNamed) {
  const fs::path fixture = fs::path(TRACESYNC_SHARED_DIR) / "fixtures/lttng-modules-2.1-addons/scp_src/metadata";
  if (!fs::exists(fixture)) GTEST_SKIP() << "shared fixture absent: " << fixture;
  const std::string bytes = testing::read_file(fixture.string());
  const testing::TempDir dir;
  testing::write_file(dir.file("metadata"), bytes.substr(0, 4096 + 20));
  std::string error;
  EXPECT_FALSE(read_metadata_text(dir.file("metadata"), &error));
  EXPECT_EQ(error, dir.file("metadata") + ": metadata packet 1 at byte 4096: no packet header (file cut short or damaged)");
}

}  // namespace
}  // namespace tracesync::apply
