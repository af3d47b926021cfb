// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/point.h"
#include "session/domain_table.h"

namespace tracesync::session {

using TraceIndex = uint32_t;

// What a session is told about a trace when it is added.
struct TraceDescription {
  std::string name;      // shown to users, unique in the session
  std::string path;      // empty for hosts of a match stream
  std::string hostname;  // shown to users
  std::string domain;    // clock domain id (DESIGN.md)
};

struct TraceRecord {
  TraceDescription description;
  DomainIndex domain = 0;
  std::optional<model::Nanoseconds> first;
  std::optional<model::Nanoseconds> last;
  uint64_t events = 0;
  std::optional<uint64_t> network_events;  // traces only
  std::string reader, reader_reason;       // traces only: which CTF reader read it, and why
};

}  // namespace tracesync::session
