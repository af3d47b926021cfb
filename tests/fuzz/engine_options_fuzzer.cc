// SPDX-License-Identifier: EPL-2.0
// libFuzzer target: the JNI options decoder (jni/engine_options), on the
// bytes Java would send as a serialized tracesync.v1.EngineOptions, without a
// JVM. Whatever the bytes, the decoder either gives settings that pass
// Synchronization::validate or refuses them with an IllegalArgumentException
// and a message; any other exception, crash or sanitizer report is a fault
// (it would reach the JVM).

#include <cstddef>
#include <cstdint>
#include <string_view>

#include <google/protobuf/stubs/logging.h>

#include "fuzz_check.h"
#include "jni/engine_options.h"
#include "jni/java_exceptions.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // protobuf logs every string field that is not UTF-8 (most mutations);
  // the decoder's answer is what is checked, not the log.
  google::protobuf::SetLogHandler(nullptr);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    const tracesync::jni::EngineSettings settings = tracesync::jni::parse_engine_options(bytes);
    FUZZ_CHECK(tracesync::session::Synchronization::validate(settings.session, settings.ingest).empty());
  } catch (const tracesync::jni::JavaException& e) {
    FUZZ_CHECK(e.kind() == tracesync::jni::JavaError::kIllegalArgument);
    FUZZ_CHECK(e.what()[0] != '\0');
  }
  return 0;
}
