// SPDX-License-Identifier: EPL-2.0
#include "jni/session_registry.h"

#include <string>

#include "jni/java_exceptions.h"

namespace tracesync::jni {
namespace {

[[noreturn]] void throw_unknown(jlong handle) {
  throw JavaException(JavaError::kIllegalState,
                      "no open tracesync session has handle " + std::to_string(handle) + " (closed, or never opened)");
}

}  // namespace

SessionRegistry& SessionRegistry::instance() {
  static auto* registry = new SessionRegistry();
  return *registry;
}

jlong SessionRegistry::add(std::shared_ptr<SessionSlot> slot) {
  std::lock_guard<std::mutex> lock(mutex_);
  const jlong handle = next_handle_++;
  slots_.emplace(handle, std::move(slot));
  return handle;
}

std::shared_ptr<SessionSlot> SessionRegistry::find(jlong handle) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = slots_.find(handle);
  if (it == slots_.end()) throw_unknown(handle);
  return it->second;
}

std::shared_ptr<SessionSlot> SessionRegistry::remove(jlong handle) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = slots_.find(handle);
  if (it == slots_.end()) throw_unknown(handle);
  std::shared_ptr<SessionSlot> slot = std::move(it->second);
  slots_.erase(it);
  return slot;
}

}  // namespace tracesync::jni
