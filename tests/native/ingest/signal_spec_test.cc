// SPDX-License-Identifier: EPL-2.0
// `--simultaneous` specs (docs/signals.md): the syntax, clear errors naming
// the spec, and the filter's exact comparison by the field's type.

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <variant>

#include "ingest/signal_spec.h"
#include "simulate/temp_directory.h"

namespace tracesync::ingest {
namespace {

SignalSpec parsed(const std::string& text) {
  auto spec = parse_signal_spec(text);
  if (auto* why = std::get_if<std::string>(&spec)) ADD_FAILURE() << text << ": " << *why;
  return std::holds_alternative<SignalSpec>(spec) ? std::get<SignalSpec>(spec) : SignalSpec{};
}

std::string error_of(const std::string& text) {
  auto spec = parse_signal_spec(text);
  if (std::holds_alternative<SignalSpec>(spec)) {
    ADD_FAILURE() << text << " parsed";
    return {};
  }
  return std::get<std::string>(spec);
}

match::AppKey typed_key(SignalFieldType type, uint64_t value) {
  match::AppKey key;
  match::AppKeyBuilder build(key);
  build.add_integer(static_cast<uint64_t>(type));
  build.add_integer(value);
  return key;
}

match::AppKey string_key(const std::string& value) {
  match::AppKey key;
  match::AppKeyBuilder build(key);
  build.add_integer(static_cast<uint64_t>(SignalFieldType::kString));
  build.add_string(value);
  return key;
}

TEST(SignalSpec, ParsesEveryItem) {
  const SignalSpec s = parsed(" name=pps , event=gps:pps,filter=payload.line==3, jitter=1.5us,clocks-within=100ms,");
  EXPECT_EQ(s.name, "pps");
  EXPECT_EQ(s.event, "gps:pps");
  ASSERT_TRUE(s.filter_field);
  EXPECT_EQ(s.filter_field->name, "line");
  EXPECT_EQ(s.filter_field->scope, FieldScope::kPayload);
  EXPECT_EQ(s.filter_value, "3");
  EXPECT_EQ(s.jitter, 1500);
  EXPECT_EQ(s.clocks_within, 100'000'000);
}

TEST(SignalSpec, DefaultsAndDurations) {
  const SignalSpec s = parsed("event=irq_handler_entry,jitter=2us");
  EXPECT_EQ(s.name, "irq_handler_entry");
  EXPECT_FALSE(s.filter_field);
  EXPECT_FALSE(s.clocks_within);
  EXPECT_EQ(parse_signal_duration("7ns"), 7);
  EXPECT_EQ(parse_signal_duration("0.5ms"), 500'000);
  EXPECT_EQ(parse_signal_duration("2s"), 2'000'000'000);
  EXPECT_EQ(parse_signal_duration("1.0000000001s"), std::nullopt) << "finer than a nanosecond";
  for (const char* bad : {"2", "us", "-1us", "0us", "1.us", "1..2us", "2 parsecs", "1e3ns", ""}) {
    EXPECT_EQ(parse_signal_duration(bad), std::nullopt) << bad;
  }
}

TEST(SignalSpec, BadSpecsAreNamed) {
  EXPECT_NE(error_of("jitter=1us").find("names no event"), std::string::npos);
  EXPECT_NE(error_of("event=a:b").find("gives no jitter"), std::string::npos);
  const std::string jitter = error_of("event=a:b,jitter=fast");
  EXPECT_NE(jitter.find("'event=a:b,jitter=fast'"), std::string::npos) << jitter;
  EXPECT_NE(jitter.find("jitter='fast', not a duration"), std::string::npos) << jitter;
  EXPECT_NE(error_of("event=a:b,jitter=2").find("not a duration"), std::string::npos);
  EXPECT_NE(error_of("event=a:b,jitter=1us,filter=line=3").find("filter=FIELD==VALUE"), std::string::npos);
  EXPECT_NE(error_of("event=a:b,jitter=1us,filter=line==").find("without a value"), std::string::npos);
  EXPECT_NE(error_of("event=a:b,jitter=1us,colour=red").find("unknown item 'colour='"), std::string::npos);
  EXPECT_NE(error_of("event=a:b,event=c:d,jitter=1us").find("gives event= twice"), std::string::npos);
  EXPECT_NE(error_of("event=a:b,,jitter=1us").find("empty item"), std::string::npos);
}

TEST(SignalSpec, ClashesAreNamed) {
  auto two = parse_signal_specs({"event=a:b,jitter=1us", "event=a:c,jitter=1us,name=a:b"}, {});
  ASSERT_TRUE(std::holds_alternative<std::string>(two));
  EXPECT_NE(std::get<std::string>(two).find("two signals are named 'a:b'"), std::string::npos);

  MessageSpec message;
  message.name = "rpc";
  message.send_event = "app:out";
  message.receive_event = "app:in";
  const SignalSpec signal = parsed("event=app:in,jitter=1us");
  auto kinds = reading_kinds({message}, {signal});
  ASSERT_TRUE(std::holds_alternative<std::string>(kinds));
  EXPECT_NE(std::get<std::string>(kinds).find("the event app:in is both"), std::string::npos) << std::get<std::string>(kinds);

  const SignalSpec tcp = parsed("event=net_dev_queue,jitter=1us");
  auto network = reading_kinds({}, {tcp});
  ASSERT_TRUE(std::holds_alternative<std::string>(network));
  EXPECT_NE(std::get<std::string>(network).find("kernel network event"), std::string::npos);
}

TEST(SignalSpec, ReadAsAKindWithNoReceiveEvent) {
  MessageSpec message;
  message.name = "rpc";
  message.send_event = "app:out";
  message.receive_event = "app:in";
  auto kinds = reading_kinds({message}, {parsed("event=gps:pps,filter=line==3,jitter=1us")});
  ASSERT_TRUE(std::holds_alternative<std::vector<MessageSpec>>(kinds));
  const auto& list = std::get<std::vector<MessageSpec>>(kinds);
  ASSERT_EQ(list.size(), 2u);
  EXPECT_FALSE(list[0].is_signal());
  EXPECT_TRUE(list[1].is_signal());
  EXPECT_EQ(list[1].send_event, "gps:pps");
  ASSERT_EQ(list[1].key.size(), 1u);
  EXPECT_EQ(list[1].key[0].name, "line");
  EXPECT_TRUE(check_message_specs(list).empty()) << check_message_specs(list);
}

TEST(SignalSpec, TheFilterComparesByTheFieldsType) {
  const SignalSpec one = parsed("event=e:v,filter=line==1,jitter=1us");
  EXPECT_TRUE(one.passes(typed_key(SignalFieldType::kUnsigned, 1)));
  EXPECT_FALSE(one.passes(typed_key(SignalFieldType::kUnsigned, 2)));
  EXPECT_TRUE(one.passes(typed_key(SignalFieldType::kSigned, 1)));
  EXPECT_TRUE(one.passes(typed_key(SignalFieldType::kBool, 1)));
  EXPECT_TRUE(one.passes(string_key("1")));
  // The string "1" is the word 0x3101 = 12545 in a key: an integer field of
  // that value must not pass a filter on 1, nor a string "1" pass 12545.
  EXPECT_FALSE(one.passes(typed_key(SignalFieldType::kUnsigned, 12545)));
  EXPECT_FALSE(parsed("event=e:v,filter=line==12545,jitter=1us").passes(string_key("1")));

  const SignalSpec negative = parsed("event=e:v,filter=line==-3,jitter=1us");
  EXPECT_TRUE(negative.passes(typed_key(SignalFieldType::kSigned, static_cast<uint64_t>(int64_t{-3}))));
  bool mismatch = false;
  EXPECT_FALSE(negative.passes(typed_key(SignalFieldType::kUnsigned, static_cast<uint64_t>(int64_t{-3})), &mismatch));
  EXPECT_TRUE(mismatch) << "-3 cannot be an unsigned field's value";

  const SignalSpec hex = parsed("event=e:v,filter=line==0xc7,jitter=1us");
  EXPECT_TRUE(hex.passes(typed_key(SignalFieldType::kSigned, 199)));

  const SignalSpec name = parsed("event=e:v,filter=name==pps,jitter=1us");
  EXPECT_TRUE(name.passes(string_key("pps")));
  EXPECT_FALSE(name.passes(string_key("ppsx")));
  mismatch = false;
  EXPECT_FALSE(name.passes(typed_key(SignalFieldType::kUnsigned, 0), &mismatch));
  EXPECT_TRUE(mismatch);

  const SignalSpec all = parsed("event=e:v,jitter=1us");
  EXPECT_TRUE(all.passes(match::AppKey{})) << "no filter: every occurrence";
}

TEST(SignalSpec, AFileHoldsOneSpecALineAndErrorsNameItsLine) {
  const simulate::testing::TempDirectory dir;
  const std::string good = dir / "signals.txt";
  std::ofstream(good) << "# the lab's lines\n\nname=pps,event=gps:pps,jitter=1us\n  event=irq_handler_entry,filter=irq==199,jitter=2us\n";
  auto specs = parse_signal_specs({"event=trigger:fire,jitter=5us"}, {good});
  ASSERT_TRUE(std::holds_alternative<std::vector<SignalSpec>>(specs)) << std::get<std::string>(specs);
  const auto& list = std::get<std::vector<SignalSpec>>(specs);
  ASSERT_EQ(list.size(), 3u);  // --simultaneous first, then the file's, in order
  EXPECT_EQ(list[0].name, "trigger:fire");
  EXPECT_EQ(list[1].name, "pps");
  EXPECT_EQ(list[2].event, "irq_handler_entry");

  const std::string bad = dir / "bad.txt";
  std::ofstream(bad) << "event=gps:pps,jitter=1us\nevent=irq_handler_entry,jitter=2\n";
  specs = parse_signal_specs({}, {bad});
  ASSERT_TRUE(std::holds_alternative<std::string>(specs));
  EXPECT_EQ(std::get<std::string>(specs).rfind(bad + ":2: the signal spec 'event=irq_handler_entry,jitter=2'", 0), 0u)
      << std::get<std::string>(specs);
  specs = parse_signal_specs({}, {dir / "absent.txt"});
  ASSERT_TRUE(std::holds_alternative<std::string>(specs));
  EXPECT_EQ(std::get<std::string>(specs), "cannot read the signal specs file '" + (dir / "absent.txt") + "'");
  const std::string empty = dir / "empty.txt";
  std::ofstream(empty) << "# nothing\n";
  specs = parse_signal_specs({}, {empty});
  ASSERT_TRUE(std::holds_alternative<std::string>(specs));
  EXPECT_EQ(std::get<std::string>(specs), "the signal specs file '" + empty + "' holds no spec");
  // One name across the option and the file.
  specs = parse_signal_specs({"name=pps,event=other:pps,jitter=1us"}, {good});
  ASSERT_TRUE(std::holds_alternative<std::string>(specs));
  EXPECT_NE(std::get<std::string>(specs).find("two signals are named 'pps'"), std::string::npos);
}

}  // namespace
}  // namespace tracesync::ingest
