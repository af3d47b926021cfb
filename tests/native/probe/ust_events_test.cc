// SPDX-License-Identifier: EPL-2.0
// The lttng-ust events of tracesync probe are optional: a provider that is
// missing or is something else is named, never fatal; the calls then do
// nothing.

#include <gtest/gtest.h>
#include <dlfcn.h>
#include <link.h>

#include <string>

#include "probe/ust_events.h"

namespace tracesync::probe {
namespace {

TEST(UstEvents, AMissingProviderIsNamedAndTheEventsDoNothing) {
  const UstEvents events = UstEvents::load("/nonexistent/libtracesync-probe-lttng.so");
  EXPECT_FALSE(events.loaded());
  EXPECT_NE(events.why().find("/nonexistent/libtracesync-probe-lttng.so is not installed"), std::string::npos)
      << events.why();
  events.round_send(1, 0, "peer");  // nothing, no crash
  events.round_recv(1, 1, "peer");
  EXPECT_FALSE(UstEvents().loaded());
}

TEST(UstEvents, ALibraryThatIsNotTheProviderIsRefused) {
  // libm is in every process of this test: a real shared object, not ours.
  void* self = dlopen("libm.so.6", RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(self, nullptr);
  link_map* map = nullptr;
  ASSERT_EQ(dlinfo(self, RTLD_DI_LINKMAP, &map), 0);
  const std::string path = map->l_name;
  dlclose(self);
  const UstEvents events = UstEvents::load(path);
  EXPECT_FALSE(events.loaded());
  EXPECT_NE(events.why().find("is not the tracepoint provider of this tracesync"), std::string::npos) << events.why();
}

}  // namespace
}  // namespace tracesync::probe
