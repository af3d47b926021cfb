// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <jni.h>

#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace tracesync::jni {

// The Java exceptions a native method may throw.
enum class JavaError {
  kIllegalArgument,  // bad options or arguments
  kIllegalState,     // unknown or closed session, re-entrant call
  kIo,               // java.io.IOException: a trace that cannot be read
  kNullPointer,      // a null string or array
  kOutOfMemory,      // native memory exhausted
  kRuntime,          // anything unexpected
};

// A native error on its way to Java: thrown inside a native method, turned
// into the Java exception by at_boundary().
class JavaException : public std::runtime_error {
 public:
  JavaException(JavaError kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  JavaError kind() const { return kind_; }

 private:
  JavaError kind_;
};

// Thrown when a Java exception is already pending (a listener threw, or a
// JNI call failed): at_boundary() leaves it for the caller untouched.
struct JavaExceptionPending {};

// Makes an exception of `kind` with `message` (UTF-8) pending in `env`,
// unless one is pending already.
void throw_java(JNIEnv* env, JavaError kind, std::string_view message) noexcept;

// Runs the body of a native method and turns every C++ exception into a Java
// one, so that none unwinds into the JVM. On error returns a zero value,
// which Java never sees since an exception is pending.
template <typename Body>
auto at_boundary(JNIEnv* env, Body&& body) noexcept -> decltype(body()) {
  using Result = decltype(body());
  try {
    return body();
  } catch (const JavaException& e) {
    throw_java(env, e.kind(), e.what());
  } catch (const JavaExceptionPending&) {
    // Already pending.
  } catch (const std::bad_alloc&) {
    throw_java(env, JavaError::kOutOfMemory, "tracesync: out of native memory");
  } catch (const std::exception& e) {
    throw_java(env, JavaError::kRuntime, e.what());
  } catch (...) {
    throw_java(env, JavaError::kRuntime, "an unknown native error");
  }
  if constexpr (!std::is_void_v<Result>) return Result{};
}

}  // namespace tracesync::jni
