// SPDX-License-Identifier: EPL-2.0
// A followed folder's staging directory is removed when its reader goes,
// and, when its owner died without removing it (babeltrace2 aborting in
// `live --in-process`), by the next one made beside it; never one whose
// owner lives, nor one without a lock (being made, or an older tracesync's).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>

#include "ingest/staging_directory.h"
#include "simulate/temp_directory.h"

namespace tracesync::ingest {
namespace {

namespace fs = std::filesystem;

TEST(StagingDirectory, WhatADeadOwnerLeftIsRemovedByTheNextNotWhatALiveOneHolds) {
  const simulate::testing::TempDirectory dir;
  const std::string parent = dir.path().string();
  std::string problem;

  // What an owner that died left: its directory and its lock file, which
  // nothing holds any more (the kernel released it with the process).
  fs::create_directory(dir.path() / "tracesync-follow-dead");
  std::ofstream(dir.path() / "tracesync-follow-dead" / "lock").put('\n');
  const auto entries = [&] { return std::distance(fs::directory_iterator(parent), fs::directory_iterator()); };
  fs::create_directory(dir.path() / "tracesync-follow-unlocked");  // being made, or an older tracesync's

  const std::unique_ptr<StagingDirectory> living = StagingDirectory::make(parent, problem);
  ASSERT_TRUE(living) << problem;
  EXPECT_TRUE(fs::is_directory(living->path()));
  EXPECT_EQ(entries(), 2) << "the dead owner's went; the living one's and the one without a lock stay";
  EXPECT_FALSE(fs::exists(dir.path() / "tracesync-follow-dead"));
  EXPECT_TRUE(fs::is_directory(dir.path() / "tracesync-follow-unlocked"));

  {
    const std::unique_ptr<StagingDirectory> another = StagingDirectory::make(parent, problem);
    ASSERT_TRUE(another) << problem;
    EXPECT_TRUE(fs::is_directory(living->path())) << "removed while its owner lives";
    EXPECT_EQ(entries(), 3);
  }
  EXPECT_EQ(entries(), 2) << "a directory goes with its owner";
}

TEST(StagingDirectory, OneThatCannotBeMadeIsSaid) {
  std::string problem;
  EXPECT_FALSE(StagingDirectory::make("/nonexistent/tracesync-tmp", problem));
  EXPECT_NE(problem.find("cannot make a staging directory '/nonexistent/tracesync-tmp/tracesync-follow-"),
            std::string::npos)
      << problem;
}

}  // namespace
}  // namespace tracesync::ingest
