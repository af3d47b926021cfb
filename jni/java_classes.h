// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <jni.h>

#include <array>

#include "jni/java_exceptions.h"

namespace tracesync::jni {

// An exception class and its (String message) constructor.
struct ExceptionClass {
  jclass type = nullptr;
  jmethodID constructor = nullptr;
};

// The Java classes and methods the bridge uses, looked up once when the
// library is loaded (JNI_OnLoad) and held by global references for as long
// as the library lives.
class JavaClasses {
 public:
  // Looks everything up; false (with a Java exception pending) when a class
  // or method is missing, which fails System.loadLibrary.
  bool load(JNIEnv* env);

  const ExceptionClass& exception(JavaError kind) const { return exceptions_[static_cast<std::size_t>(kind)]; }
  // boolean ProgressListener.onProgress(long, long, int, int)
  jmethodID on_progress() const { return on_progress_; }
  // void ResultSink.onResult(byte[]): a live result for TraceSync.follow
  jmethodID on_result() const { return on_result_; }

 private:
  std::array<ExceptionClass, 6> exceptions_;  // indexed by JavaError
  jmethodID on_progress_ = nullptr;
  jmethodID on_result_ = nullptr;
};

const JavaClasses& java_classes();
// Called once, from JNI_OnLoad.
bool load_java_classes(JNIEnv* env);

}  // namespace tracesync::jni
