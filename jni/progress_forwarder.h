// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <jni.h>

#include <thread>

#include "jni/session_slot.h"
#include "session/synchronization.h"

namespace tracesync::jni {

// The engine's progress callback for one run(): forwards each report to the
// Java ProgressListener (which may be null) on the thread that called run().
// The run is cancelled when the listener returns false or throws (its
// exception stays pending for run()'s caller), or when the session is being
// closed.
class ProgressForwarder {
 public:
  ProgressForwarder(JNIEnv* env, jobject listener, const SessionSlot& slot)
      : env_(env), listener_(listener), slot_(&slot), thread_(std::this_thread::get_id()) {}

  bool operator()(const session::RunProgress& progress) const;

 private:
  JNIEnv* env_;
  jobject listener_;
  const SessionSlot* slot_;
  std::thread::id thread_;
};

}  // namespace tracesync::jni
