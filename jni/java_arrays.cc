// SPDX-License-Identifier: EPL-2.0
#include "jni/java_arrays.h"

#include <cstdint>

#include "jni/java_exceptions.h"

namespace tracesync::jni {

std::string to_bytes(JNIEnv* env, jbyteArray array, std::string_view what) {
  if (array == nullptr) throw JavaException(JavaError::kNullPointer, std::string(what) + " must not be null");
  const jsize length = env->GetArrayLength(array);
  std::string bytes(static_cast<std::size_t>(length), '\0');
  env->GetByteArrayRegion(array, 0, length, reinterpret_cast<jbyte*>(bytes.data()));
  return bytes;
}

jbyteArray to_byte_array(JNIEnv* env, std::string_view bytes) {
  if (bytes.size() > static_cast<std::size_t>(INT32_MAX)) {
    throw JavaException(JavaError::kRuntime, "the snapshot is " + std::to_string(bytes.size()) +
                                                 " bytes long, more than a Java array can hold");
  }
  const auto length = static_cast<jsize>(bytes.size());
  const jbyteArray array = env->NewByteArray(length);
  if (array == nullptr) throw JavaExceptionPending{};  // OutOfMemoryError
  env->SetByteArrayRegion(array, 0, length, reinterpret_cast<const jbyte*>(bytes.data()));
  return array;
}

}  // namespace tracesync::jni
