// SPDX-License-Identifier: EPL-2.0
#include "jni/java_exceptions.h"

#include "jni/java_classes.h"
#include "jni/java_strings.h"

namespace tracesync::jni {
namespace {

// Unexpected native errors get a prefix that says where they come from.
std::string describe(JavaError kind, std::string_view message) {
  if (kind == JavaError::kRuntime) return "tracesync native error: " + std::string(message);
  return std::string(message);
}

}  // namespace

void throw_java(JNIEnv* env, JavaError kind, std::string_view message) noexcept {
  if (env->ExceptionCheck()) return;
  const ExceptionClass& type = java_classes().exception(kind);
  try {
    // Through the String constructor rather than ThrowNew: ThrowNew wants
    // modified UTF-8, and messages carry arbitrary bytes (paths, host names).
    const jstring text = to_java_string(env, describe(kind, message));
    if (text == nullptr) return;  // OutOfMemoryError pending
    const auto error = static_cast<jthrowable>(env->NewObject(type.type, type.constructor, text));
    env->DeleteLocalRef(text);
    if (error == nullptr) return;  // the constructor's failure is pending
    env->Throw(error);
    env->DeleteLocalRef(error);
  } catch (...) {
    // Out of native memory while describing the error: a message without details.
    if (!env->ExceptionCheck()) env->ThrowNew(type.type, "tracesync: out of native memory while reporting an error");
  }
}

}  // namespace tracesync::jni
