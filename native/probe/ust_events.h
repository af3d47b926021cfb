// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <string>

namespace tracesync::probe {

// The user-space events of `tracesync probe` (tracesync_probe:round_send and
// round_recv), when lttng-ust is there: they come from
// libtracesync-probe-lttng.so, a tracepoint provider built beside tracesync
// only where liblttng-ust-dev is installed, and loaded here at run time
// (dlopen), so tracesync needs lttng-ust neither to build nor to run.
// Without it, the calls do nothing.
class UstEvents {
 public:
  // No events.
  UstEvents() = default;
  // Loads the provider: from `path` when not empty, else from
  // $TRACESYNC_PROBE_LTTNG, else where tracesync installs it beside itself.
  // Nothing loaded is not an error: why() says why (the library is not
  // installed, liblttng-ust.so.1 cannot be loaded, ...).
  static UstEvents load(const std::string& path = {});

  bool loaded() const { return send_ != nullptr; }
  const std::string& why() const { return why_; }  // why nothing was loaded
  const std::string& library() const { return library_; }  // what was loaded

  void round_send(uint64_t round, uint8_t leg, const char* peer) const {
    if (send_ != nullptr) send_(round, leg, peer);
  }
  void round_recv(uint64_t round, uint8_t leg, const char* peer) const {
    if (recv_ != nullptr) recv_(round, leg, peer);
  }

 private:
  using Emit = void (*)(uint64_t, uint8_t, const char*);
  Emit send_ = nullptr;
  Emit recv_ = nullptr;
  std::string why_ = "not asked for";
  std::string library_;
};

// The provider's file name, and where `cmake --install` puts it relative to
// the tracesync executable's folder.
inline constexpr const char* kUstLibraryName = "libtracesync-probe-lttng.so";

}  // namespace tracesync::probe
