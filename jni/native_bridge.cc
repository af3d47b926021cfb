// SPDX-License-Identifier: EPL-2.0
// The native methods of org.tracesync.NativeBridge, and JNI_OnLoad, which
// registers them. Each method only marshals: it finds the session by its
// handle, converts the arguments, calls session::Synchronization under the
// session's lock, and converts the result or the error.

#include <jni.h>

#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "jni/engine_options.h"
#include "jni/java_arrays.h"
#include "jni/java_classes.h"
#include "jni/java_exceptions.h"
#include "jni/java_strings.h"
#include "jni/progress_forwarder.h"
#include "jni/session_registry.h"
#include "snapshot/utf8.h"

namespace tracesync::jni {
namespace {

// "tracesync skipped 2 traces: 'a': why; 'b': why".
// "'path': message; 'path': message", names as the snapshot shows them
// (bytes that are not UTF-8 as \xNN).
std::string describe_traces(const std::vector<v1::Problem>& problems) {
  std::string text;
  for (std::size_t i = 0; i < problems.size(); ++i) {
    text += (i == 0 ? "'" : "; '") + snapshot::readable_text(problems[i].source()) +
            "': " + snapshot::readable_text(problems[i].message());
  }
  return text;
}

std::string describe_skipped(const std::vector<v1::Problem>& skipped) {
  return "tracesync skipped " + std::to_string(skipped.size()) + (skipped.size() == 1 ? " trace: " : " traces: ") +
         describe_traces(skipped);
}

// long open(byte[] engineOptions)
jlong open_session(JNIEnv* env, jclass, jbyteArray engine_options) {
  return at_boundary(env, [&] {
    EngineSettings settings = parse_engine_options(to_bytes(env, engine_options, "the engine options"));
    auto synchronization =
        std::make_unique<session::Synchronization>(std::move(settings.session), std::move(settings.ingest));
    return SessionRegistry::instance().add(std::make_shared<SessionSlot>(std::move(synchronization)));
  });
}

// void addTracePath(long session, String path) throws IOException
void add_trace_path(JNIEnv* env, jclass, jlong handle, jstring java_path) {
  at_boundary(env, [&] {
    const std::string path = to_utf8(env, java_path, "the trace path");
    if (path.find('\0') != std::string::npos) {
      throw JavaException(JavaError::kIllegalArgument, "the trace path contains a NUL character");
    }
    const std::string error =
        SessionRegistry::instance().find(handle)->with_session([&](auto& s) { return s.add_trace_path(path); });
    if (!error.empty()) throw JavaException(JavaError::kIo, error);
  });
}

// void addMatch(long session, String sender, long sendNs, String receiver, long receiveNs)
void add_match(JNIEnv* env, jclass, jlong handle, jstring java_sender, jlong send, jstring java_receiver,
               jlong receive) {
  at_boundary(env, [&] {
    const std::string sender = to_utf8(env, java_sender, "the sender");
    const std::string receiver = to_utf8(env, java_receiver, "the receiver");
    SessionRegistry::instance().find(handle)->with_session(
        [&](auto& s) { s.add_match(sender, send, receiver, receive); });
  });
}

// void run(long session, ProgressListener listener) throws IOException
void run_session(JNIEnv* env, jclass, jlong handle, jobject listener) {
  at_boundary(env, [&] {
    const std::shared_ptr<SessionSlot> slot = SessionRegistry::instance().find(handle);
    slot->with_session([&](session::Synchronization& s) {
      const session::RunOutcome outcome = s.run(ProgressForwarder(env, listener, *slot));
      if (env->ExceptionCheck()) throw JavaExceptionPending{};  // the listener's, for run()'s caller
      if (slot->closing()) {
        throw JavaException(JavaError::kIllegalState, "the tracesync session was closed while it was running");
      }
      if (!outcome.out_of_memory.empty()) {
        // Not the traces' fault: an OutOfMemoryError, not an IOException.
        throw JavaException(JavaError::kOutOfMemory,
                            "tracesync ran out of native memory reading " + describe_traces(outcome.out_of_memory));
      }
      if (!outcome.skipped.empty()) throw JavaException(JavaError::kIo, describe_skipped(outcome.skipped));
    });
  });
}

// byte[] follow(long session, String[] sources, long intervalNs, long quietNs, long waitNs, long matchHorizonNs,
//               ResultSink sink)
// Follows on the calling thread; each result goes to sink.onResult as a
// serialized Snapshot, on this thread. Stops when the sink throws (its
// exception stays pending for the caller) or the session is closed. A match
// horizon of zero is live's default (session::kLiveMatchHorizon).
jbyteArray follow_sources(JNIEnv* env, jclass, jlong handle, jobjectArray java_sources, jlong interval, jlong quiet,
                          jlong wait, jlong match_horizon, jobject sink) {
  return at_boundary(env, [&]() -> jbyteArray {
    if (java_sources == nullptr || sink == nullptr) {
      throw JavaException(JavaError::kIllegalArgument, "follow needs its sources and a listener");
    }
    session::Synchronization::FollowOptions options;
    const jsize count = env->GetArrayLength(java_sources);
    for (jsize i = 0; i < count; ++i) {
      const auto source = static_cast<jstring>(env->GetObjectArrayElement(java_sources, i));
      if (env->ExceptionCheck()) throw JavaExceptionPending{};
      if (source == nullptr) throw JavaException(JavaError::kIllegalArgument, "a source to follow is null");
      options.sources.push_back(to_utf8(env, source, "a source to follow"));
      env->DeleteLocalRef(source);
    }
    if (options.sources.empty()) throw JavaException(JavaError::kIllegalArgument, "nothing to follow");
    if (interval <= 0 || quiet <= 0 || wait < 0) {
      throw JavaException(JavaError::kIllegalArgument, "the interval and quiet durations must be positive, and the wait not negative");
    }
    options.interval = interval;
    options.quiet = quiet;
    options.wait = wait;
    if (match_horizon != 0) options.match_horizon = match_horizon;  // follow() refuses a negative one
    const std::shared_ptr<SessionSlot> slot = SessionRegistry::instance().find(handle);
    const std::string final_bytes = slot->with_session([&](session::Synchronization& s) {
      session::LiveLoopCallbacks callbacks;
      // After the listener threw, no more Java calls: only stopping.
      callbacks.keep_going = [&] { return !slot->closing() && !env->ExceptionCheck(); };
      callbacks.on_news = [](const session::LiveNews&) {};  // the results' problems say what failed
      callbacks.on_result = [&](const v1::Snapshot& result) {
        if (env->ExceptionCheck()) return;
        const jbyteArray bytes = to_byte_array(env, result.SerializeAsString());  // throws when it cannot
        env->CallVoidMethod(sink, java_classes().on_result(), bytes);
        env->DeleteLocalRef(bytes);
      };
      session::LiveLoopEnd end;
      if (const std::string problem = s.follow(options, callbacks, end); !problem.empty()) {
        throw JavaException(JavaError::kIllegalArgument, problem);
      }
      if (env->ExceptionCheck()) throw JavaExceptionPending{};  // the listener's, for follow()'s caller
      if (slot->closing()) {
        throw JavaException(JavaError::kIllegalState, "the tracesync session was closed while it was following");
      }
      return end.final_result.SerializeAsString();
    });
    return to_byte_array(env, final_bytes);
  });
}

// byte[] snapshot(long session)
jbyteArray take_snapshot(JNIEnv* env, jclass, jlong handle) {
  return at_boundary(env, [&] {
    // The session keeps its serialized snapshot until it changes; a copy
    // leaves the lock, and the Java array is filled outside it.
    const std::string bytes = SessionRegistry::instance().find(handle)->with_session(
        [](session::Synchronization& s) { return s.serialized_snapshot(); });
    return to_byte_array(env, bytes);
  });
}

// void close(long session)
void close_session(JNIEnv* env, jclass, jlong handle) {
  at_boundary(env, [&] { SessionRegistry::instance().remove(handle)->close(); });
}

template <typename Function>
JNINativeMethod method(const char* name, const char* signature, Function* function) {
  // JNINativeMethod predates const char*; the JVM does not write through them.
  return {const_cast<char*>(name), const_cast<char*>(signature), reinterpret_cast<void*>(function)};
}

bool register_natives(JNIEnv* env) {
  const JNINativeMethod methods[] = {
      method("open", "([B)J", &open_session),
      method("addTracePath", "(JLjava/lang/String;)V", &add_trace_path),
      method("addMatch", "(JLjava/lang/String;JLjava/lang/String;J)V", &add_match),
      method("run", "(JLorg/tracesync/ProgressListener;)V", &run_session),
      method("snapshot", "(J)[B", &take_snapshot),
      method("follow", "(J[Ljava/lang/String;JJJJLorg/tracesync/ResultSink;)[B", &follow_sources),
      method("close", "(J)V", &close_session),
  };
  const jclass bridge = env->FindClass("org/tracesync/NativeBridge");
  if (bridge == nullptr) return false;
  const jint status = env->RegisterNatives(bridge, methods, static_cast<jint>(std::size(methods)));
  env->DeleteLocalRef(bridge);
  return status == JNI_OK;
}

}  // namespace
}  // namespace tracesync::jni

// Called by System.load / System.loadLibrary. A failure here (a class or
// method missing: the jar and the library do not match) leaves the Java
// exception pending, and the JVM reports it as an UnsatisfiedLinkError.
extern "C" JNIEXPORT jint JNI_OnLoad(JavaVM* vm, void*) {
  JNIEnv* env = nullptr;
  if (vm->GetEnv(reinterpret_cast<void**>(&env), JNI_VERSION_10) != JNI_OK) return JNI_ERR;
  if (!tracesync::jni::load_java_classes(env) || !tracesync::jni::register_natives(env)) return JNI_ERR;
  return JNI_VERSION_10;
}
