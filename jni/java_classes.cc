// SPDX-License-Identifier: EPL-2.0
#include "jni/java_classes.h"

#include <iterator>
#include <tuple>
#include <utility>

namespace tracesync::jni {
namespace {

JavaClasses& instance() {
  static JavaClasses classes;
  return classes;
}

// A global reference to a class; nullptr with NoClassDefFoundError pending.
jclass global_class(JNIEnv* env, const char* name) {
  const jclass local = env->FindClass(name);
  if (local == nullptr) return nullptr;
  const auto global = static_cast<jclass>(env->NewGlobalRef(local));
  env->DeleteLocalRef(local);
  return global;
}

}  // namespace

bool JavaClasses::load(JNIEnv* env) {
  constexpr std::pair<JavaError, const char*> kExceptions[] = {
      {JavaError::kIllegalArgument, "java/lang/IllegalArgumentException"},
      {JavaError::kIllegalState, "java/lang/IllegalStateException"},
      {JavaError::kIo, "java/io/IOException"},
      {JavaError::kNullPointer, "java/lang/NullPointerException"},
      {JavaError::kOutOfMemory, "java/lang/OutOfMemoryError"},
      {JavaError::kRuntime, "java/lang/RuntimeException"},
  };
  static_assert(std::size(kExceptions) == std::tuple_size_v<decltype(exceptions_)>);
  for (const auto& [kind, name] : kExceptions) {
    ExceptionClass& e = exceptions_[static_cast<std::size_t>(kind)];
    e.type = global_class(env, name);
    if (e.type == nullptr) return false;
    e.constructor = env->GetMethodID(e.type, "<init>", "(Ljava/lang/String;)V");
    if (e.constructor == nullptr) return false;
  }
  const jclass listener = env->FindClass("org/tracesync/ProgressListener");
  if (listener == nullptr) return false;
  on_progress_ = env->GetMethodID(listener, "onProgress", "(JJII)Z");
  env->DeleteLocalRef(listener);
  if (on_progress_ == nullptr) return false;
  const jclass sink = env->FindClass("org/tracesync/ResultSink");
  if (sink == nullptr) return false;
  on_result_ = env->GetMethodID(sink, "onResult", "([B)V");
  env->DeleteLocalRef(sink);
  return on_result_ != nullptr;
}

const JavaClasses& java_classes() { return instance(); }

bool load_java_classes(JNIEnv* env) { return instance().load(env); }

}  // namespace tracesync::jni
