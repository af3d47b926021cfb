// SPDX-License-Identifier: EPL-2.0
#include "apply/staged_output.h"

#include <gtest/gtest.h>

#include <sys/mount.h>
#include <unistd.h>

#include <filesystem>

#include "apply/trace_files.h"
#include "support/run_command.h"

namespace tracesync::apply {
namespace {

namespace fs = std::filesystem;

TEST(StagedOutput, RefusesInputsAndFullDirectories) {
  const testing::TempDir dir;
  fs::create_directories(dir.file("in/host0/kernel"));
  fs::create_directories(dir.file("full"));
  testing::write_file(dir.file("full/x"), "x");
  const std::vector<std::string> inputs = {dir.file("in")};
  EXPECT_EQ(StagedOutput::check(dir.file("out"), inputs, false), "");
  EXPECT_EQ(StagedOutput::check(dir.file("in"), inputs, true),
            "--output " + dir.file("in") + " is inside the input " + dir.file("in") + ": inputs are never written to");
  EXPECT_NE(StagedOutput::check(dir.file("in/host0/copies"), inputs, true).find("is inside the input"), std::string::npos);
  EXPECT_NE(StagedOutput::check(dir.path(), inputs, true).find("holds the input"), std::string::npos);
  EXPECT_EQ(StagedOutput::check(dir.file("full"), inputs, false),
            "--output " + dir.file("full") + " is not empty (give --force to replace it)");
  EXPECT_EQ(StagedOutput::check(dir.file("full"), inputs, true), "");
  EXPECT_EQ(StagedOutput::check(dir.file("full/x"), inputs, true),
            "--output " + dir.file("full/x") + " exists and is not a directory");
}

TEST(StagedOutput, NothingAppearsUntilCommitted) {
  const testing::TempDir dir;
  {
    StagedOutput staged(dir.file("out"), false);
    ASSERT_EQ(staged.error(), "");
    EXPECT_EQ(staged.staging().parent_path(), fs::path(dir.path()));
    EXPECT_EQ(write_file(staged.staging() / "a", "half"), "");
    EXPECT_FALSE(fs::exists(dir.file("out")));
  }  // a failure: never committed
  EXPECT_TRUE(fs::is_empty(dir.path()));
  StagedOutput staged(dir.file("out"), false);
  EXPECT_EQ(write_file(staged.staging() / "a", "whole"), "");
  EXPECT_EQ(staged.commit(), "");
  EXPECT_EQ(testing::read_file(dir.file("out/a")), "whole");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
}

TEST(StagedOutput, ForceReplacesAFullDirectory) {
  const testing::TempDir dir;
  fs::create_directories(dir.file("out"));
  testing::write_file(dir.file("out/old"), "old");
  StagedOutput staged(dir.file("out"), true);
  EXPECT_EQ(write_file(staged.staging() / "new", "new"), "");
  EXPECT_EQ(staged.commit(), "");
  EXPECT_FALSE(fs::exists(dir.file("out/old")));
  EXPECT_EQ(testing::read_file(dir.file("out/new")), "new");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
}

// Permissions do not bind root: as root the locked directory is a
// read-only tmpfs instead (EROFS binds everyone).
TEST(StagedOutput, AnUnwritableParentIsNamed) {
  const testing::TempDir dir;
  fs::create_directories(dir.file("locked"));
  const bool root = ::geteuid() == 0;
  if (root && ::mount("tracesync-test", dir.file("locked").c_str(), "tmpfs", MS_RDONLY, "size=64k") != 0) {
    GTEST_SKIP() << "root writes into read-only directories, and no read-only tmpfs can be mounted here";
  }
  if (!root) fs::permissions(dir.file("locked"), fs::perms::owner_read | fs::perms::owner_exec);
  EXPECT_NE(StagedOutput::check(dir.file("locked/out"), {}, false).find("cannot write --output " + dir.file("locked/out")),
            std::string::npos);
  StagedOutput staged(dir.file("locked/out"), false);
  EXPECT_NE(staged.error().find("cannot write beside " + dir.file("locked/out")), std::string::npos) << staged.error();
  if (root) {
    ::umount(dir.file("locked").c_str());
  } else {
    fs::permissions(dir.file("locked"), fs::perms::owner_all);
  }
}

TEST(TraceFiles, LinksOnTheSameFileSystemAndCopiesWhenAsked) {
  const testing::TempDir dir;
  fs::create_directories(dir.file("trace/index"));
  testing::write_file(dir.file("trace/metadata"), "/* CTF 1.8 */");
  testing::write_file(dir.file("trace/channel0_0"), "stream");
  testing::write_file(dir.file("trace/index/channel0_0.idx"), "index");
  FileCounts linked;
  EXPECT_EQ(mirror_trace_files(dir.file("trace"), dir.file("linked"), FilePolicy::kLinkWhenPossible, &linked), "");
  EXPECT_EQ(linked.linked, 2u);
  EXPECT_EQ(linked.copied, 0u);
  EXPECT_TRUE(fs::equivalent(dir.file("trace/channel0_0"), dir.file("linked/channel0_0")));
  EXPECT_TRUE(fs::equivalent(dir.file("trace/index/channel0_0.idx"), dir.file("linked/index/channel0_0.idx")));
  EXPECT_FALSE(fs::exists(dir.file("linked/metadata")));
  FileCounts copied;
  EXPECT_EQ(mirror_trace_files(dir.file("trace"), dir.file("copied"), FilePolicy::kCopy, &copied), "");
  EXPECT_EQ(copied.copied, 2u);
  EXPECT_FALSE(fs::equivalent(dir.file("trace/channel0_0"), dir.file("copied/channel0_0")));
  EXPECT_EQ(testing::read_file(dir.file("copied/index/channel0_0.idx")), "index");
}

}  // namespace
}  // namespace tracesync::apply
