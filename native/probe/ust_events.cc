// SPDX-License-Identifier: EPL-2.0
#include "probe/ust_events.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <vector>

#ifndef TRACESYNC_PROBE_LTTNG_FROM_BIN_DIR
#define TRACESYNC_PROBE_LTTNG_FROM_BIN_DIR "../lib/tracesync"
#endif

namespace tracesync::probe {

namespace {

std::filesystem::path executable_folder() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::filesystem::path() : self.parent_path();
}

}  // namespace

UstEvents UstEvents::load(const std::string& path) {
  UstEvents events;
  std::string file = path;
  if (file.empty()) {
    if (const char* env = std::getenv("TRACESYNC_PROBE_LTTNG"); env != nullptr && *env != '\0') file = env;
  }
  if (file.empty()) {
    const std::filesystem::path folder = executable_folder();
    if (folder.empty()) {
      events.why_ = "cannot find tracesync's own folder (/proc/self/exe) to look for " + std::string(kUstLibraryName);
      return events;
    }
    file = (folder / TRACESYNC_PROBE_LTTNG_FROM_BIN_DIR / kUstLibraryName).lexically_normal().string();
  }
  std::error_code error;
  if (!std::filesystem::exists(file, error)) {
    events.why_ = file + " is not installed (tracesync was built without liblttng-ust-dev, or it was removed)";
    return events;
  }
  // Never closed: lttng-ust's threads and its registration live as long as
  // the process. RTLD_NODELETE keeps it even if someone closes it.
  void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (handle == nullptr) {
    const char* why = dlerror();
    events.why_ = "cannot load " + file + ": " + (why != nullptr ? why : "unknown error") +
                  " (is liblttng-ust1 installed?)";
    return events;
  }
  using Abi = int (*)();
  const auto abi = reinterpret_cast<Abi>(dlsym(handle, "tracesync_probe_lttng_abi"));
  const auto send = reinterpret_cast<Emit>(dlsym(handle, "tracesync_probe_lttng_round_send"));
  const auto recv = reinterpret_cast<Emit>(dlsym(handle, "tracesync_probe_lttng_round_recv"));
  if (abi == nullptr || send == nullptr || recv == nullptr || abi() != 1) {
    events.why_ = file + " is not the tracepoint provider of this tracesync (another version?)";
    return events;
  }
  events.send_ = send;
  events.recv_ = recv;
  events.why_.clear();
  events.library_ = file;
  return events;
}

}  // namespace tracesync::probe
