// SPDX-License-Identifier: EPL-2.0
// `--messages` specs: the syntax, and clear errors that name the spec text.

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <variant>

#include "ingest/message_spec.h"
#include "simulate/temp_directory.h"

namespace tracesync::ingest {
namespace {

MessageSpec parsed(const std::string& text) {
  auto spec = parse_message_spec(text);
  if (auto* why = std::get_if<std::string>(&spec)) ADD_FAILURE() << text << ": " << *why;
  return std::holds_alternative<MessageSpec>(spec) ? std::get<MessageSpec>(spec) : MessageSpec{};
}

std::string error_of(const std::string& text) {
  auto spec = parse_message_spec(text);
  if (std::holds_alternative<MessageSpec>(spec)) {
    ADD_FAILURE() << text << " parsed";
    return {};
  }
  return std::get<std::string>(spec);
}

TEST(MessageSpec, TheWordProbeIsTheBuiltInKindOfTracesyncProbe) {
  const MessageSpec spec = parsed(" probe ");
  EXPECT_EQ(spec.name, "probe");
  EXPECT_EQ(spec.send_event, "tracesync_probe:round_send");
  EXPECT_EQ(spec.receive_event, "tracesync_probe:round_recv");
  ASSERT_EQ(spec.key.size(), 2u);
  EXPECT_EQ(spec.key[0], (KeyField{"round", FieldScope::kAny}));
  EXPECT_EQ(spec.key[1], (KeyField{"leg", FieldScope::kAny}));
  EXPECT_EQ(spec.text, "probe");
  EXPECT_EQ(spec.canonical(), kProbeSpec);
  // Only the word alone: anything else is parsed as a spec.
  EXPECT_NE(error_of("probe,key=x").find("without '='"), std::string::npos);
}

TEST(MessageSpec, TheLiveHarnessFormParses) {
  const MessageSpec spec = parsed("send=tsapp:msg_send,recv=tsapp:msg_recv,key=msg_id");
  EXPECT_EQ(spec.name, "tsapp:msg_send");
  EXPECT_EQ(spec.send_event, "tsapp:msg_send");
  EXPECT_EQ(spec.receive_event, "tsapp:msg_recv");
  ASSERT_EQ(spec.key.size(), 1u);
  EXPECT_EQ(spec.key[0], (KeyField{"msg_id", FieldScope::kAny}));
  EXPECT_EQ(spec.text, "send=tsapp:msg_send,recv=tsapp:msg_recv,key=msg_id");
}

TEST(MessageSpec, NamesScopesSeveralFieldsAnyOrderAndSpaces) {
  const MessageSpec spec = parsed(" key = conn + payload.seq+context.vtid , receive=rpc:in, name=rpc ,send=rpc:out,");
  EXPECT_EQ(spec.name, "rpc");
  EXPECT_EQ(spec.send_event, "rpc:out");
  EXPECT_EQ(spec.receive_event, "rpc:in");
  ASSERT_EQ(spec.key.size(), 3u);
  EXPECT_EQ(spec.key[0], (KeyField{"conn", FieldScope::kAny}));
  EXPECT_EQ(spec.key[1], (KeyField{"seq", FieldScope::kPayload}));
  EXPECT_EQ(spec.key[2], (KeyField{"vtid", FieldScope::kContext}));
  // The canonical form reads back alike.
  MessageSpec again = parsed(spec.canonical());
  again.text = spec.text;
  EXPECT_EQ(again, spec);
}

TEST(MessageSpec, BadSpecsSayWhatIsWrongAndQuoteTheText) {
  const std::string no_key = error_of("send=a:b,recv=a:c");
  EXPECT_NE(no_key.find("'send=a:b,recv=a:c'"), std::string::npos) << no_key;
  EXPECT_NE(no_key.find("key"), std::string::npos) << no_key;
  EXPECT_NE(error_of("recv=a:c,key=id").find("no send event"), std::string::npos);
  EXPECT_NE(error_of("send=a:b,key=id").find("no receive event"), std::string::npos);
  EXPECT_NE(error_of("send=a:b,recv=a:c,key=id,colour=red").find("unknown item 'colour='"), std::string::npos);
  EXPECT_NE(error_of("send=a:b,recv=a:c,key=id,send=a:d").find("send= twice"), std::string::npos);
  EXPECT_NE(error_of("send=a:b,recv=a:b,key=id").find("both send and receive"), std::string::npos);
  EXPECT_NE(error_of("send=a:b,recv=a:c,key=id+").find("bad key"), std::string::npos);
  EXPECT_NE(error_of("send=a:b,recv=a:c,key=id+id").find("twice"), std::string::npos);
  EXPECT_NE(error_of("send=,recv=a:c,key=id").find("needs a name after send="), std::string::npos);
  EXPECT_NE(error_of("send=a:b,,recv=a:c,key=id").find("empty item"), std::string::npos);
  EXPECT_NE(error_of("msg_send").find("without '='"), std::string::npos);
  EXPECT_NE(error_of("").find("no send event"), std::string::npos);
}

TEST(MessageSpec, SpecsTogetherMustNotClash) {
  auto specs = parse_message_specs({"send=a:s,recv=a:r,key=id", "send=b:s,recv=a:s,key=id"}, {});
  ASSERT_TRUE(std::holds_alternative<std::string>(specs));
  EXPECT_NE(std::get<std::string>(specs).find("a:s is both the send of 'a:s' and the receive of 'b:s'"),
            std::string::npos)
      << std::get<std::string>(specs);
  specs = parse_message_specs({"name=x,send=a:s,recv=a:r,key=id", "name=x,send=b:s,recv=b:r,key=id"}, {});
  ASSERT_TRUE(std::holds_alternative<std::string>(specs));
  EXPECT_NE(std::get<std::string>(specs).find("two message kinds are named 'x'"), std::string::npos);
  specs = parse_message_specs({"send=net_dev_queue,recv=a:r,key=id"}, {});
  ASSERT_TRUE(std::holds_alternative<std::string>(specs));
  EXPECT_NE(std::get<std::string>(specs).find("kernel network event"), std::string::npos);
}

TEST(MessageSpec, AFileHoldsOneSpecALineAndErrorsNameItsLine) {
  const simulate::testing::TempDirectory dir;
  const std::string good = dir / "kinds.txt";
  std::ofstream(good) << "# two kinds\n\nname=rpc,send=rpc:out,recv=rpc:in,key=id\n  send=mq:put,recv=mq:get,key=topic+seq\n";
  auto specs = parse_message_specs({"send=a:s,recv=a:r,key=id"}, {good});
  ASSERT_TRUE(std::holds_alternative<std::vector<MessageSpec>>(specs)) << std::get<std::string>(specs);
  const auto& list = std::get<std::vector<MessageSpec>>(specs);
  ASSERT_EQ(list.size(), 3u);  // --messages first, then the file's, in order: kinds 1, 2, 3
  EXPECT_EQ(list[0].name, "a:s");
  EXPECT_EQ(list[1].name, "rpc");
  EXPECT_EQ(list[2].key.size(), 2u);

  const std::string bad = dir / "bad.txt";
  std::ofstream(bad) << "send=rpc:out,recv=rpc:in,key=id\nsend=mq:put,key=seq\n";
  specs = parse_message_specs({}, {bad});
  ASSERT_TRUE(std::holds_alternative<std::string>(specs));
  EXPECT_EQ(std::get<std::string>(specs).rfind(bad + ":2: the message spec 'send=mq:put,key=seq'", 0), 0u)
      << std::get<std::string>(specs);
  specs = parse_message_specs({}, {dir / "absent.txt"});
  ASSERT_TRUE(std::holds_alternative<std::string>(specs));
  EXPECT_NE(std::get<std::string>(specs).find("cannot read"), std::string::npos);
  const std::string empty = dir / "empty.txt";
  std::ofstream(empty) << "# nothing\n";
  specs = parse_message_specs({}, {empty});
  ASSERT_TRUE(std::holds_alternative<std::string>(specs));
  EXPECT_NE(std::get<std::string>(specs).find("holds no spec"), std::string::npos);
}

}  // namespace
}  // namespace tracesync::ingest
