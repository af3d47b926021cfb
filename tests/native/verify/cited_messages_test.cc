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
    events[{trace, send, time}].push_back({trace, key});
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

TEST(CitedMessages, AMalformedCertificateIsBadInput) {
  json c = kCertificate;
  c["links"][0].erase("a_traces");
  EXPECT_THROW(cited_messages(c), VerifyInputError);
}

}  // namespace
}  // namespace tracesync::verify
