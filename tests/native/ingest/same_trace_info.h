// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <gtest/gtest.h>

#include "ingest/trace_info.h"

namespace tracesync::ingest::testing {

// Every field of two TraceInfos equal (what a reading process, an extract or
// any other carrier of a TraceInfo must give back), each named on failure.
inline void expect_same_trace_info(const TraceInfo& a, const TraceInfo& b) {
  EXPECT_EQ(a.path, b.path);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.hostname, b.hostname);
  EXPECT_EQ(a.domain_id, b.domain_id);
  EXPECT_EQ(a.domain_source, b.domain_source);
  ASSERT_EQ(a.clock.has_value(), b.clock.has_value());
  if (a.clock) {
    EXPECT_EQ(a.clock->name, b.clock->name);
    EXPECT_EQ(a.clock->uuid, b.clock->uuid);
    EXPECT_EQ(a.clock->frequency, b.clock->frequency);
    EXPECT_EQ(a.clock->offset_seconds, b.clock->offset_seconds);
    EXPECT_EQ(a.clock->offset_cycles, b.clock->offset_cycles);
    EXPECT_EQ(a.clock->origin_is_unix_epoch, b.clock->origin_is_unix_epoch);
  }
  EXPECT_EQ(a.first_event, b.first_event);
  EXPECT_EQ(a.last_event, b.last_event);
  EXPECT_EQ(a.streams, b.streams);
  EXPECT_EQ(a.events, b.events);
  EXPECT_EQ(a.network_events, b.network_events);
  EXPECT_EQ(a.network_census, b.network_census);
  EXPECT_EQ(a.app_census, b.app_census);
  EXPECT_EQ(a.offered_classes, b.offered_classes);
  EXPECT_EQ(a.discarded_events, b.discarded_events);
  EXPECT_EQ(a.damaged_packets, b.damaged_packets);
  EXPECT_EQ(a.damaged_network_events, b.damaged_network_events);
  EXPECT_EQ(a.first_time_damage, b.first_time_damage);
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_EQ(a.reader, b.reader);
  EXPECT_EQ(a.reader_reason, b.reader_reason);
  EXPECT_EQ(a.metadata_format, b.metadata_format);
  EXPECT_EQ(a.stream_files, b.stream_files);
}

}  // namespace tracesync::ingest::testing
