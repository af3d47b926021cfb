// SPDX-License-Identifier: EPL-2.0
// The scanner's application keys of a CTF 2 boolean: listed and matched as
// babeltrace2 lists and matches a bool field (AppEventDecoder's `bool`, its
// value 0 or 1), not as the integer it is stored in. A CTF 1.8 "bool"
// (lttng-ust's ctf_integer of a _Bool: an 8-bit unsigned integer) is an
// integer to both readers, as the differential tests read it.

#include <gtest/gtest.h>

#include <memory>

#include "ctf/trace_class.h"
#include "ingest/event_selection.h"
#include "ingest/scanner_app_plan.h"
#include "ingest/signal_spec.h"

namespace tracesync::ingest {
namespace {

using ctf::FieldClass;

ctf::EventClass event_with_members(const std::string& name) {
  auto flag = std::make_shared<FieldClass>();
  flag->kind = FieldClass::Kind::kInteger;
  flag->size = 8;
  flag->boolean = true;
  auto count = std::make_shared<FieldClass>();
  count->kind = FieldClass::Kind::kInteger;
  count->size = 8;
  auto payload = std::make_shared<FieldClass>();
  payload->kind = FieldClass::Kind::kStructure;
  payload->members = {ctf::Member{"ready", flag}, ctf::Member{"count", count}};
  ctf::EventClass event;
  event.name = name;
  event.payload = payload;
  return event;
}

match::AppKey key_of(const ScannerAppPlan& plan, uint64_t value) {
  ctf::CapturedField captured;
  captured.present = true;
  captured.value = value;
  match::PacketEvent event;
  plan.decode(&captured, event);
  EXPECT_EQ(event.layout, match::Layout::kTcp);
  return event.app;
}

TEST(ScannerAppPlan, ACtf2BooleanIsOfferedAndMatchedAsABool) {
  const ctf::EventClass send = event_with_members("app:send");
  const ctf::StreamClass stream;
  const auto offered = ScannerAppPlan::offered(send, stream, /*tsdl_names=*/false);
  ASSERT_TRUE(offered);
  EXPECT_EQ(offered->key_fields, (std::vector<std::string>{"ready (bool)", "count (uint8)"}));

  const EventSelection selection({MessageSpec{"m", "app:send", "app:recv", {KeyField{"ready", FieldScope::kAny}}, ""}});
  const auto plan = ScannerAppPlan::for_class(send, stream, selection, false);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->problem(), "");
  // Any bits but zero are true: the same key, 1, as babeltrace2's bool field.
  EXPECT_EQ(key_of(*plan, 2), key_of(*plan, 1));
  EXPECT_NE(key_of(*plan, 0), key_of(*plan, 1));
  EXPECT_EQ(key_of(*plan, 255).words[0], 1u);

  // A simultaneous signal's key is typed: a bool's type word is kBool's.
  const EventSelection signals({MessageSpec{"s", "app:send", "", {KeyField{"ready", FieldScope::kAny}}, ""}});
  const auto typed = ScannerAppPlan::for_class(send, stream, signals, false);
  ASSERT_TRUE(typed);
  const match::AppKey key = key_of(*typed, 7);
  ASSERT_EQ(key.size, 2u);
  EXPECT_EQ(key.words[0], static_cast<uint64_t>(SignalFieldType::kBool));
  EXPECT_EQ(key.words[1], 1u);
}

}  // namespace
}  // namespace tracesync::ingest
