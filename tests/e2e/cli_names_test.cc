// SPDX-License-Identifier: EPL-2.0
// Names that are not UTF-8 (issue 20, item 4): a Latin-1 host name in a
// match stream, a trace whose metadata `hostname` is Latin-1, a trace under
// a Latin-1 directory. Every report format is written, valid and readable,
// and the exact bytes come back (docs/json.md, "Names that are not UTF-8").

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "snapshot/base64.h"
#include "snapshot/tracesync.pb.h"
#include "snapshot/utf8.h"
#include "support/run_command.h"

namespace tracesync {
namespace {

using nlohmann::json;
using testing::CommandResult;
using testing::run_command;
using testing::TempDir;
using testing::tracesync_binary;
namespace fs = std::filesystem;

const std::string kLatin1Host = "h\xe9te";        // "hôte" in Latin-1: é is the byte E9
const std::string kReadableHost = "h\\xe9te";     // how every output shows it
const std::string kLatin1Stream = "a 0 " + kLatin1Host + " 10\n" + kLatin1Host + " 55 a 50\na 100 " + kLatin1Host + " 110\n";

// The exact bytes a JSON object gives for the name under `key`.
std::string exact(const json& object, const std::string& key) {
  if (!object.contains(key + "_raw")) return object.at(key).get<std::string>();
  EXPECT_EQ(object.at(key), snapshot::readable_text(*snapshot::from_base64(object.at(key + "_raw").get<std::string>())));
  return snapshot::from_base64(object.at(key + "_raw").get<std::string>()).value_or("(not base64)");
}

CommandResult sync_stream(const std::string& stream, const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"sync", "--matches", "-"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_command(tracesync_binary(), args, stream);
}

// A simulated two-host experiment under `dir`; returns host1's trace directory.
std::string simulate_two_hosts(const TempDir& dir) {
  const auto r = run_command(tracesync_binary(),
                             {"simulate", "--quiet", "--output", dir.path(), "--hosts", "2", "--duration", "1s", "--cpus", "1"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return dir.path() + "/host1/kernel";
}

// Reports list names as people count: host2 before host10. The JSON keeps
// the order its contract states (traces sorted by name, byte by byte).
TEST(NaturalOrder, ReportsListHost2BeforeHost10) {
  const std::string stream =
      "host1 0 host10 100\nhost10 150 host1 140\nhost1 1000 host10 1100\nhost10 1150 host1 1140\n"
      "host10 0 host2 100\nhost2 150 host10 140\nhost10 1000 host2 1100\nhost2 1150 host10 1140\n";
  const auto in_order = [](const std::string& text, const std::vector<std::string>& parts) {
    std::size_t at = 0;
    for (const std::string& part : parts) {
      at = text.find(part, at);
      if (at == std::string::npos) return false;
      ++at;
    }
    return true;
  };
  const auto text = sync_stream(stream, {});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_TRUE(in_order(text.out, {"\n  host1 ", "\n  host2 ", "\n  host10 ", "\nLinks"})) << text.out;
  EXPECT_TRUE(in_order(text.out, {"\nLinks", "\n  host1 +host10 ", "\n  host10 +host2 "}) ||
              in_order(text.out, {"\nLinks", "\n  host1   host10 ", "\n  host10  host2 "}))
      << text.out;

  const auto html = sync_stream(stream, {"--format", "html"});
  ASSERT_EQ(html.exit_code, 0) << html.err;
  EXPECT_TRUE(in_order(html.out, {"id=\"trace-list\"", "data-search=\"host1 ", "data-search=\"host2 ",
                                  "data-search=\"host10 "}))
      << html.out;

  const auto j = sync_stream(stream, {"--format", "json"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const json report = json::parse(j.out);
  ASSERT_EQ(report["traces"].size(), 3u);
  EXPECT_EQ(report["traces"][0]["name"], "host1");
  EXPECT_EQ(report["traces"][1]["name"], "host10");
  EXPECT_EQ(report["traces"][2]["name"], "host2");
}

TEST(Latin1Names, MatchStreamJsonReport) {
  const auto r = sync_stream(kLatin1Stream, {"--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(snapshot::is_utf8(r.out));
  const json report = json::parse(r.out);
  const json& host = report["traces"][1];
  EXPECT_EQ(host["name"], kReadableHost);
  EXPECT_EQ(host["name_raw"], "aOl0ZQ==");
  EXPECT_EQ(exact(host, "name"), kLatin1Host);
  EXPECT_EQ(exact(host, "hostname"), kLatin1Host);
  EXPECT_EQ(exact(host, "domain"), kLatin1Host);
  EXPECT_FALSE(report["traces"][0].contains("name_raw"));  // "a" is UTF-8
  EXPECT_EQ(exact(report["links"][0], "b"), kLatin1Host);
  EXPECT_EQ(exact(report["links"][0], "b_hostname"), kLatin1Host);
  EXPECT_EQ(report["links"][0]["quality"], "ACCURATE");
}

TEST(Latin1Names, MatchStreamTextAndHtmlReports) {
  for (const std::string format : {"text", "html"}) {
    const auto r = sync_stream(kLatin1Stream, {"--format", format});
    ASSERT_EQ(r.exit_code, 0) << format << ": " << r.err;
    EXPECT_TRUE(snapshot::is_utf8(r.out)) << format;
    EXPECT_NE(r.out.find(kReadableHost), std::string::npos) << format;
  }
}

TEST(Latin1Names, MatchStreamProtobufReport) {
  const auto r = sync_stream(kLatin1Stream, {"--format", "protobuf"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");  // protobuf complained of strings that were not UTF-8
  v1::Snapshot snapshot;
  ASSERT_TRUE(snapshot.ParseFromString(r.out));  // proto3 refuses strings that are not UTF-8
  ASSERT_EQ(snapshot.traces_size(), 2);
  EXPECT_EQ(snapshot.traces(1).name(), kReadableHost);
  EXPECT_EQ(snapshot.traces(1).name_raw(), kLatin1Host);
  EXPECT_EQ(snapshot.links(0).b_raw(), kLatin1Host);
}

TEST(Latin1Names, History) {
  const auto as_json = sync_stream(kLatin1Stream, {"--history", "--format", "json"});
  ASSERT_EQ(as_json.exit_code, 0) << as_json.err;
  std::istringstream lines(as_json.out);
  int count = 0;
  for (std::string line; std::getline(lines, line); ++count) {
    const json j = json::parse(line);
    if (j["format"] == "tracesync-history/1") {
      EXPECT_EQ(exact(j, "b"), kLatin1Host);
    }
  }
  EXPECT_EQ(count, 4);  // three messages, then the report
  const auto as_text = sync_stream(kLatin1Stream, {"--history"});
  ASSERT_EQ(as_text.exit_code, 0) << as_text.err;
  EXPECT_TRUE(snapshot::is_utf8(as_text.out));
  EXPECT_NE(as_text.out.find(kReadableHost), std::string::npos);
}

TEST(Latin1Names, ErrorMessagesQuoteReadableText) {
  const auto r = sync_stream("a 1\xe9 b 2\n", {"--format", "json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(snapshot::is_utf8(r.err));
  EXPECT_NE(r.err.find("SEND_NS '1\\xe9'"), std::string::npos) << r.err;
  const json report = json::parse(r.out);
  EXPECT_NE(report["problems"][0]["message"].get<std::string>().find("'1\\xe9'"), std::string::npos);

  const TempDir dir;
  const std::string missing = dir.path() + "/" + kLatin1Host;
  const auto absent = run_command(tracesync_binary(), {"sync", "--format", "json", missing});
  EXPECT_EQ(absent.exit_code, 2);
  EXPECT_TRUE(snapshot::is_utf8(absent.err));
  EXPECT_NE(absent.err.find(dir.path() + "/" + kReadableHost), std::string::npos) << absent.err;
  const json problems = json::parse(absent.out)["problems"];
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(exact(problems[0], "source"), missing);
}

TEST(Latin1Names, TraceWhoseMetadataHostnameIsLatin1) {
  const TempDir dir;
  const std::string host1 = simulate_two_hosts(dir);
  const std::string metadata_path = host1 + "/metadata";
  std::string metadata = testing::read_file(metadata_path);
  const std::string entry = "hostname = \"host1\";";
  ASSERT_NE(metadata.find(entry), std::string::npos);
  metadata.replace(metadata.find(entry), entry.size(), "hostname = \"" + kLatin1Host + "\";");
  testing::write_file(metadata_path, metadata);

  const auto r = run_command(tracesync_binary(), {"sync", "--format", "json", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = json::parse(r.out);
  const json& trace = report["traces"][1];
  EXPECT_EQ(trace["hostname"], kReadableHost);
  EXPECT_EQ(exact(trace, "hostname"), kLatin1Host);
  EXPECT_FALSE(trace.contains("name_raw"));
  const json& link = report["links"][0];
  EXPECT_EQ(exact(link, link["a_hostname"] == "host0" ? "b_hostname" : "a_hostname"), kLatin1Host);

  const auto text = run_command(tracesync_binary(), {"sync", dir.path()});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_TRUE(snapshot::is_utf8(text.out));
  EXPECT_NE(text.out.find(kReadableHost), std::string::npos);
}

TEST(Latin1Names, TraceUnderALatin1Directory) {
  const TempDir dir;
  simulate_two_hosts(dir);
  const std::string latin1_dir = dir.path() + "/" + kLatin1Host;
  fs::rename(dir.path() + "/host1", latin1_dir);

  const auto r = run_command(tracesync_binary(), {"sync", "--format", "json", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = json::parse(r.out);
  ASSERT_EQ(report["traces"].size(), 2u);
  const json& trace = report["traces"][1];
  EXPECT_EQ(exact(trace, "path"), latin1_dir + "/kernel");
  EXPECT_EQ(trace["path"], dir.path() + "/" + kReadableHost + "/kernel");
  EXPECT_NE(exact(trace, "name").find(kLatin1Host), std::string::npos);
  EXPECT_TRUE(trace["synchronized"].get<bool>());

  const auto check = run_command(tracesync_binary(), {"check", dir.path()});
  EXPECT_EQ(check.exit_code, 0) << check.err;
  EXPECT_TRUE(snapshot::is_utf8(check.out));
  EXPECT_NE(check.out.find(kReadableHost + "/kernel"), std::string::npos) << check.out;
}

TEST(Latin1Names, ApplyCopiesATraceUnderALatin1DirectoryByteForByte) {
  const TempDir dir;
  simulate_two_hosts(dir);
  fs::rename(dir.path() + "/host1", dir.path() + "/" + kLatin1Host);
  const TempDir out;
  const std::string output = out.path() + "/copies";
  const auto r = run_command(tracesync_binary(), {"apply", dir.path(), "--output", output});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(snapshot::is_utf8(r.err));
  const json manifest = json::parse(testing::read_file(output + "/tracesync-manifest.json"));
  ASSERT_EQ(manifest["traces"].size(), 2u);
  const json& copy = manifest["traces"][1];
  const std::string copied = exact(copy, "output");
  EXPECT_NE(copied.find(kLatin1Host + "/kernel"), std::string::npos) << copied;
  EXPECT_TRUE(fs::exists(output + "/" + copied + "/metadata")) << copied;
  EXPECT_EQ(exact(copy, "input"), dir.path() + "/" + kLatin1Host + "/kernel");
  // The command line names the (UTF-8) experiment directory: no bytes to carry.
  EXPECT_EQ(manifest["command_line"][2], dir.path());
  EXPECT_FALSE(manifest.contains("command_line_raw"));
}

}  // namespace
}  // namespace tracesync
