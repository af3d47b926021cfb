// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <jni.h>

#include <string>
#include <string_view>

namespace tracesync::jni {

// The bytes of a Java byte[]. Throws JavaException(kNullPointer) naming
// `what` when the array is null.
std::string to_bytes(JNIEnv* env, jbyteArray array, std::string_view what);

// A new byte[] holding `bytes`. Throws JavaExceptionPending when the JVM
// cannot allocate it, JavaException when they are more than a Java array
// can hold.
jbyteArray to_byte_array(JNIEnv* env, std::string_view bytes);

}  // namespace tracesync::jni
