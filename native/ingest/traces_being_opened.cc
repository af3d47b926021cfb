// SPDX-License-Identifier: EPL-2.0
#include "ingest/traces_being_opened.h"

#include <map>
#include <mutex>

namespace tracesync::ingest {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<uint64_t, TraceOpening> openings;
  uint64_t next_id = 0;
};

Registry& registry() {
  static Registry instance;
  return instance;
}

}  // namespace

std::vector<TraceOpening> traces_being_opened() {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  std::vector<TraceOpening> out;
  for (const auto& [id, opening] : r.openings) out.push_back(opening);
  return out;
}

OpeningTrace::OpeningTrace(const std::string& path) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  id_ = r.next_id++;
  r.openings.emplace(id_, TraceOpening{path, std::chrono::steady_clock::now()});
}

OpeningTrace::~OpeningTrace() {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  r.openings.erase(id_);
}

}  // namespace tracesync::ingest
