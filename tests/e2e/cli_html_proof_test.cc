// SPDX-License-Identifier: EPL-2.0
// The HTML report's proof end to end (issue 22): `tracesync sync --format
// html` on the real LTTng fixtures (when ../shared is present) and on
// simulated experiments says how many messages were received before they
// were sent, before synchronization and after, and none is after on a
// link of the tree.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "support/run_command.h"

namespace tracesync {
namespace {

using testing::run_command;
using testing::tracesync_binary;
namespace fs = std::filesystem;

struct LinkProof {
  std::string ends;
  bool in_tree = false;
  uint64_t before = 0;
  std::string after;  // "0 after", "<span class=\"warn\">3 after</span>", "no common time base"
};

struct Proof {
  uint64_t before = 0;
  uint64_t messages = 0;
  uint64_t after = 0;
  std::vector<LinkProof> links;
};

// The text from `start` up to and including `end`, from `from` on; empty
// when absent. (std::regex over a whole page would recurse too deep.)
std::string between(const std::string& page, const std::string& start, const std::string& end, std::size_t& from) {
  const std::size_t begin = page.find(start, from);
  if (begin == std::string::npos) return {};
  const std::size_t stop = page.find(end, begin);
  if (stop == std::string::npos) return {};
  from = stop + end.size();
  return page.substr(begin, from - begin);
}

// The report's summary and each link's one-line summary.
Proof read_proof(const std::string& page) {
  Proof p;
  std::size_t at = 0;
  const std::string summary = between(page, "<p id=\"causality\">", "</p>", at);
  std::smatch m;
  const std::regex causality(
      "Causality: on the traces' own clocks, <strong>([0-9]+)</strong> of ([0-9]+) message\\(s\\) were received "
      "before they were sent; after synchronization, <strong id=\"after-count\">([0-9]+)</strong>");
  EXPECT_TRUE(std::regex_search(summary, m, causality)) << "no causality summary: " << summary;
  if (!m.empty()) {
    p.before = std::stoull(m[1]);
    p.messages = std::stoull(m[2]);
    p.after = std::stoull(m[3]);
  }
  const std::regex link(
      "<summary><strong>([^<]*)</strong>:.*, (in the tree|not in the tree); received before sent: ([0-9]+) before, "
      "(.*)</summary>");
  at = 0;
  for (std::string item; !(item = between(page, "<details class=\"item\" id=\"link-", "</summary>", at)).empty();) {
    EXPECT_TRUE(std::regex_search(item, m, link)) << item;
    if (!m.empty()) p.links.push_back({m[1], m[2] == "in the tree", std::stoull(m[3]), m[4]});
  }
  return p;
}

std::string html_report(const std::vector<std::string>& inputs, const testing::TempDir& dir) {
  std::vector<std::string> args = {"sync", "--format", "html", "--output", dir.file("report.html")};
  args.insert(args.end(), inputs.begin(), inputs.end());
  const auto r = run_command(tracesync_binary(), args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return testing::read_file(dir.file("report.html"));
}

void expect_none_after_on_tree_links(const Proof& p) {
  ASSERT_FALSE(p.links.empty());
  uint64_t before = 0;
  for (const LinkProof& l : p.links) {
    before += l.before;
    if (l.in_tree) {
      EXPECT_EQ(l.after, "0 after") << l.ends;
    }
  }
  EXPECT_EQ(before, p.before);  // the summary adds up the links
}

TEST(HtmlProof, RealFixturesHaveNoReceiveBeforeSendAfterOnTreeLinks) {
  const std::string shared = std::string(TRACESYNC_SHARED_DIR) + "/fixtures";
  const std::map<std::string, std::vector<std::string>> experiments = {
      {"scp (lttng-modules 2.1)", {shared + "/lttng-modules-2.1-addons/scp_src", shared + "/lttng-modules-2.1-addons/scp_dest"}},
      {"django-vote-v1 (2.4)", {shared + "/lttng-modules-2.4-addons/django-vote-v1"}},
      {"django-vote-v2 (2.4)", {shared + "/lttng-modules-2.4-addons/django-vote-v2"}}};
  int read = 0;
  for (const auto& [name, paths] : experiments) {
    if (!fs::exists(paths.front())) continue;
    SCOPED_TRACE(name);
    ++read;
    testing::TempDir dir;
    const Proof p = read_proof(html_report(paths, dir));
    expect_none_after_on_tree_links(p);
    // The clocks of these traces differ by more than their latencies: many
    // messages arrive before they were sent on the traces' own clocks.
    EXPECT_GT(p.before, 0u);
    EXPECT_EQ(p.after, 0u);
  }
  if (read == 0) GTEST_SKIP() << "shared fixtures absent: " << shared;
}

TEST(HtmlProof, ASimulatedExperimentsCountsBeforeEqualTheMatchFilesOwn) {
  // A random topology: some links are off the tree.
  testing::TempDir dir;
  const auto sim = run_command(tracesync_binary(), {"simulate", "--quiet", "--hosts", "12", "--topology", "random",
                                                    "--duration", "2s", "--write-matches", "--no-traces", "--seed",
                                                    "3", "--output", dir.path()});
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  // Receive-before-send on the hosts' own clocks, straight from the file.
  std::istringstream lines(testing::read_file(dir.file("matches.txt")));
  uint64_t messages = 0, before = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string sender, receiver;
    int64_t send = 0, receive = 0;
    ASSERT_TRUE(fields >> sender >> send >> receiver >> receive) << line;
    ++messages;
    if (receive < send) ++before;
  }
  const Proof p = read_proof(html_report({"--matches", dir.file("matches.txt")}, dir));
  EXPECT_EQ(p.messages, messages);
  EXPECT_EQ(p.before, before);
  EXPECT_GT(before, 0u);
  expect_none_after_on_tree_links(p);
  bool off_tree = false;
  for (const LinkProof& l : p.links) off_tree = off_tree || !l.in_tree;
  EXPECT_TRUE(off_tree) << "the experiment was meant to have links off the tree";
}

}  // namespace
}  // namespace tracesync
