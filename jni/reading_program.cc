// SPDX-License-Identifier: EPL-2.0
#include "jni/reading_program.h"

#include <dlfcn.h>
#include <unistd.h>

#include <filesystem>
#include <vector>

namespace tracesync::jni {

std::optional<std::string> reading_program_beside_library() {
  // dladdr names the shared object that holds this very function.
  Dl_info self{};
  if (dladdr(reinterpret_cast<void*>(&reading_program_beside_library), &self) == 0 || self.dli_fname == nullptr) {
    return std::nullopt;
  }
  std::error_code error;
  const std::filesystem::path library = std::filesystem::canonical(self.dli_fname, error);
  if (error) return std::nullopt;
  std::vector<std::filesystem::path> candidates = {library.parent_path() / "tracesync",
                                                   library.parent_path() / ".." / "bin" / "tracesync"};
#ifdef TRACESYNC_PROGRAM_FROM_JNI_DIR
  // Installed: lib/<multiarch>/jni/libtracesync_jni.so and bin/tracesync.
  candidates.push_back(library.parent_path() / TRACESYNC_PROGRAM_FROM_JNI_DIR);
#endif
  for (const auto& candidate : candidates) {
    const std::filesystem::path program = std::filesystem::weakly_canonical(candidate, error);
    if (error || !std::filesystem::is_regular_file(program, error)) continue;
    if (access(program.c_str(), X_OK) == 0) return program.string();
  }
  return std::nullopt;
}

}  // namespace tracesync::jni
