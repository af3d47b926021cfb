// SPDX-License-Identifier: EPL-2.0
#include <gtest/gtest.h>

#include "ingest/live_trace_reader.h"

namespace tracesync::ingest {
namespace {

TEST(LiveSessionUrl, SplitsRelayHostnameAndSession) {
  std::string problem;
  const auto url = parse_live_session_url("net://127.0.0.1:5400/host/alpha/s-1", problem);
  ASSERT_TRUE(url) << problem;
  EXPECT_EQ(url->relay, "net://127.0.0.1:5400");
  EXPECT_EQ(url->hostname, "alpha");
  EXPECT_EQ(url->session, "s-1");
  EXPECT_EQ(url->name(), "alpha/s-1");
  EXPECT_EQ(url->url, "net://127.0.0.1:5400/host/alpha/s-1");
}

TEST(LiveSessionUrl, TakesTheRelaysDefaultLivePort) {
  std::string problem;
  const auto url = parse_live_session_url("net://relay.example/host/h/s", problem);
  ASSERT_TRUE(url) << problem;
  EXPECT_EQ(url->relay, "net://relay.example:5344");
}

TEST(LiveSessionUrl, TakesABracketedIpv6Address) {
  std::string problem;
  const auto with_port = parse_live_session_url("net://[::1]:6000/host/h/s", problem);
  ASSERT_TRUE(with_port) << problem;
  EXPECT_EQ(with_port->relay, "net://[::1]:6000");
  const auto without = parse_live_session_url("net://[::1]/host/h/s", problem);
  ASSERT_TRUE(without) << problem;
  EXPECT_EQ(without->relay, "net://[::1]:5344");
}

TEST(LiveSessionUrl, RefusesWhatNamesNoSessionAndSaysWhy) {
  for (const char* text : {"net://127.0.0.1:5344", "net://127.0.0.1:5344/host/alpha", "net://127.0.0.1:5344/host//s",
                           "net://127.0.0.1:5344/host/alpha/", "net://127.0.0.1:5344/host/a/s/extra",
                           "net://127.0.0.1:5344/session/a/s"}) {
    std::string problem;
    EXPECT_FALSE(parse_live_session_url(text, problem)) << text;
    EXPECT_NE(problem.find("names no session"), std::string::npos) << problem;
    EXPECT_NE(problem.find("babeltrace2 -i lttng-live net://127.0.0.1:5344"), std::string::npos) << problem;
  }
}

TEST(LiveSessionUrl, RefusesOtherSchemesAndBadPorts) {
  for (const char* text : {"/tmp/trace", "file:///tmp/x", "tcp://127.0.0.1:5344/host/a/s"}) {
    std::string problem;
    EXPECT_FALSE(parse_live_session_url(text, problem)) << text;
    EXPECT_NE(problem.find("is not a live session URL"), std::string::npos) << problem;
  }
  for (const char* text : {"net://127.0.0.1:0/host/a/s", "net://127.0.0.1:70000/host/a/s", "net://127.0.0.1:x/host/a/s",
                           "net://:5344/host/a/s"}) {
    std::string problem;
    EXPECT_FALSE(parse_live_session_url(text, problem)) << text;
    EXPECT_NE(problem.find("names no relay host and port"), std::string::npos) << problem;
  }
}

}  // namespace
}  // namespace tracesync::ingest
