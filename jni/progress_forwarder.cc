// SPDX-License-Identifier: EPL-2.0
#include "jni/progress_forwarder.h"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "jni/java_classes.h"

namespace tracesync::jni {
namespace {

// Java has no unsigned types: counts beyond the signed range are clamped.
template <typename Java, typename Native>
Java clamp_to(Native value) {
  return static_cast<Java>(std::min<Native>(value, static_cast<Native>(std::numeric_limits<Java>::max())));
}

}  // namespace

bool ProgressForwarder::operator()(const session::RunProgress& progress) const {
  if (slot_->closing()) return false;
  // After the listener threw, no more Java calls: only cancelling.
  if (env_->ExceptionCheck()) return false;
  if (listener_ == nullptr) return true;
  // A JNIEnv belongs to one thread. The engine reports from the thread that
  // runs run(); a report from elsewhere is not forwarded rather than risked.
  if (std::this_thread::get_id() != thread_) return true;
  const jboolean go_on = env_->CallBooleanMethod(listener_, java_classes().on_progress(),
                                                 clamp_to<jlong>(progress.bytes_done),
                                                 clamp_to<jlong>(progress.bytes_total),
                                                 clamp_to<jint>(progress.traces_done),
                                                 clamp_to<jint>(progress.traces_total));
  if (env_->ExceptionCheck()) return false;
  return go_on == JNI_TRUE;
}

}  // namespace tracesync::jni
