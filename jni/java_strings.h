// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <jni.h>

#include <string>
#include <string_view>

namespace tracesync::jni {

// Java strings are UTF-16, native strings UTF-8. Both conversions are done
// here rather than with GetStringUTFChars / NewStringUTF, which speak
// "modified UTF-8" (NUL as two bytes, supplementary characters as surrogate
// pairs) and misbehave on bytes that are not.

// A Java string as UTF-8; an unpaired surrogate becomes U+FFFD. Throws
// JavaException(kNullPointer) naming `what` when the string must not be null.
std::string to_utf8(JNIEnv* env, jstring text, std::string_view what);

// A new Java string from UTF-8 text; bytes that are not valid UTF-8 become
// U+FFFD, so any native message can be handed over. nullptr (with
// OutOfMemoryError pending) when the JVM cannot allocate it.
jstring to_java_string(JNIEnv* env, std::string_view utf8);

}  // namespace tracesync::jni
