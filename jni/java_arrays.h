#pragma once

#include <jni.h>

#include <string>
#include <string_view>

#include <google/protobuf/message_lite.h>

namespace tracesync::jni {

// The bytes of a Java byte[]. Throws JavaException(kNullPointer) naming
// `what` when the array is null.
std::string to_bytes(JNIEnv* env, jbyteArray array, std::string_view what);

// A new byte[] holding the serialized message. Throws JavaExceptionPending
// when the JVM cannot allocate it, JavaException when the message is larger
// than a Java array can be.
jbyteArray to_byte_array(JNIEnv* env, const google::protobuf::MessageLite& message);

}  // namespace tracesync::jni
