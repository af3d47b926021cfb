// SPDX-License-Identifier: EPL-2.0
// verify's look-up of cited messages in re-read traces: every message needs
// its send, its receive, and one key on both (docs/verify.md).

#include <gtest/gtest.h>

#include <map>
#include <tuple>

#include "verify/certificate_check.h"
#include "verify/cited_messages.h"

namespace tracesync::verify {
namespace {

using nlohmann::json;

const json kCertificate = json::parse(R"({
  "links": [{"a": "A", "b": "B", "a_traces": ["a/kernel"], "b_traces": ["b/kernel", "b/ust"],
             "segments": [{"a_to_b": [{"send_ns": 10, "receive_ns": 17}],
                           "b_to_a": [{"send_ns": 20, "receive_ns": 24}, {"send_ns": 30, "receive_ns": 35}]}]}]})");

// Traces as a test writes them: (trace, send?, time) -> events.
struct FakeTraces {
  std::map<std::tuple<std::string, bool, int64_t>, std::vector<RecordedEvent>> events;
  void put(const std::string& trace, bool send, int64_t time, const std::string& key) {
    events[{trace, send, time}].push_back({trace, key, ""});
  }
  EventsAt lookup() const {
    return [this](const std::string& t, bool send, int64_t time) -> const std::vector<RecordedEvent>& {
      static const std::vector<RecordedEvent> kNone;
      const auto found = events.find({t, send, time});
      return found == events.end() ? kNone : found->second;
    };
  }
};

FakeTraces all_held() {
  FakeTraces t;
  t.put("a/kernel", true, 10, "k1");
  t.put("b/kernel", false, 17, "k1");
  t.put("b/ust", true, 20, "k2");  // a receiver domain's second trace
  t.put("a/kernel", false, 24, "k2");
  t.put("b/kernel", true, 30, "k3");
  t.put("a/kernel", false, 35, "k3");
  return t;
}

TEST(CitedMessages, EveryMessageOfEverySegmentWithItsDomainsTraces) {
  const auto messages = cited_messages(kCertificate);
  ASSERT_EQ(messages.size(), 3u);
  EXPECT_EQ(messages[0].send_ns, 10);
  EXPECT_EQ(messages[0].receive_ns, 17);
  EXPECT_EQ(messages[0].sender_traces, std::vector<std::string>{"a/kernel"});
  EXPECT_EQ(messages[0].receiver_traces, (std::vector<std::string>{"b/kernel", "b/ust"}));
  EXPECT_EQ(messages[2].sender_traces, (std::vector<std::string>{"b/kernel", "b/ust"}));
  EXPECT_EQ(messages[2].where, "link A / B segment 0, b -> a message 1");
}

TEST(CitedMessages, HeldWhenBothEndsAreThereWithOneKey) {
  const FakeTraces traces = all_held();
  EXPECT_EQ(first_message_not_in_traces(cited_messages(kCertificate), traces.lookup()), "");
}

TEST(CitedMessages, AMissingSendIsNamed) {
  FakeTraces traces = all_held();
  traces.events.erase({"b/kernel", true, 30});
  const std::string why = first_message_not_in_traces(cited_messages(kCertificate), traces.lookup());
  EXPECT_NE(why.find("b -> a message 1"), std::string::npos) << why;
  EXPECT_NE(why.find("no send event at 30 ns"), std::string::npos) << why;
}

TEST(CitedMessages, AMovedReceiveIsNamed) {
  FakeTraces traces = all_held();
  traces.events.erase({"b/kernel", false, 17});
  traces.put("b/kernel", false, 18, "k1");
  const std::string why = first_message_not_in_traces(cited_messages(kCertificate), traces.lookup());
  EXPECT_NE(why.find("a -> b message 0"), std::string::npos) << why;
  EXPECT_NE(why.find("no receive event at 17 ns"), std::string::npos) << why;
}

TEST(CitedMessages, EndsOfTwoMessagesAreNotOne) {
  FakeTraces traces = all_held();
  traces.events.erase({"a/kernel", false, 24});
  traces.put("a/kernel", false, 24, "k9");
  const std::string why = first_message_not_in_traces(cited_messages(kCertificate), traces.lookup());
  EXPECT_NE(why.find("b -> a message 0"), std::string::npos) << why;
  EXPECT_NE(why.find("keys differ"), std::string::npos) << why;
  // Another event at the same instant with the right key makes it one.
  traces.put("a/kernel", false, 24, "k2");
  EXPECT_EQ(first_message_not_in_traces(cited_messages(kCertificate), traces.lookup()), "");
}

TEST(CitedMessages, AMessageOnATraceOfAnotherDomainIsNotHeld) {
  FakeTraces traces = all_held();
  traces.events.erase({"a/kernel", true, 10});
  traces.put("b/kernel", true, 10, "k1");  // the right time and key, on the wrong host
  EXPECT_NE(first_message_not_in_traces(cited_messages(kCertificate), traces.lookup()).find("no send event at 10"),
            std::string::npos);
}

// A certificate that names each event's trace and stream file
// (sync --certificate on traces the scanner read): the event must be there.
TEST(CitedMessages, AnEventMustBeInTheStreamFileTheCertificateNames) {
  json c = kCertificate;
  json& m = c["links"][0]["segments"][0]["b_to_a"][0];
  m["send_trace"] = "b/ust";
  m["send_stream"] = "chan_1";
  m["receive_trace"] = "a/kernel";
  m["receive_stream"] = "channel0_0";
  FakeTraces traces = all_held();
  traces.events.clear();
  for (const auto& [trace, send, time, key, stream] :
       std::vector<std::tuple<std::string, bool, int64_t, std::string, std::string>>{
           {"a/kernel", true, 10, "k1", "channel0_1"}, {"b/kernel", false, 17, "k1", "channel0_0"},
           {"b/ust", true, 20, "k2", "chan_1"}, {"a/kernel", false, 24, "k2", "channel0_0"},
           {"b/kernel", true, 30, "k3", "channel0_0"}, {"a/kernel", false, 35, "k3", "channel0_1"}}) {
    traces.events[{trace, send, time}].push_back({trace, key, stream});
  }
  std::size_t in_streams = 0;
  EXPECT_EQ(first_message_not_in_traces(cited_messages(c), traces.lookup(), &in_streams), "");
  EXPECT_EQ(in_streams, 2u);  // the two events the certificate places

  // The receive is in another stream file of the trace named.
  traces.events[{"a/kernel", false, 24}].front().stream = "channel0_1";
  std::string why = first_message_not_in_traces(cited_messages(c), traces.lookup());
  EXPECT_NE(why.find("b -> a message 0"), std::string::npos) << why;
  EXPECT_NE(why.find("no receive event at 24 ns in stream file channel0_0 of trace a/kernel"), std::string::npos)
      << why;
  traces.events[{"a/kernel", false, 24}].front().stream = "channel0_0";

  // The send is in the named stream file, but of the domain's other trace.
  m["send_trace"] = "b/kernel";
  why = first_message_not_in_traces(cited_messages(c), traces.lookup());
  EXPECT_NE(why.find("no send event at 20 ns in stream file chan_1 of trace b/kernel"), std::string::npos) << why;

  // A trace of the other domain is never where a sender's event is.
  m["send_trace"] = "a/kernel";
  why = first_message_not_in_traces(cited_messages(c), traces.lookup());
  EXPECT_NE(why.find("names trace a/kernel, not one of the sender's traces (b/kernel, b/ust)"), std::string::npos)
      << why;

  // A stream file without its trace, or a name that is not text: malformed.
  m.erase("send_trace");
  EXPECT_THROW(cited_messages(c), VerifyInputError);
  m["send_trace"] = 7;
  EXPECT_THROW(cited_messages(c), VerifyInputError);
}

TEST(CitedMessages, AMalformedCertificateIsBadInput) {
  json c = kCertificate;
  c["links"][0].erase("a_traces");
  EXPECT_THROW(cited_messages(c), VerifyInputError);
}

}  // namespace
}  // namespace tracesync::verify
