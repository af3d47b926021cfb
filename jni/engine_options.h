// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string_view>

#include "session/synchronization.h"

namespace tracesync::jni {

// What a session is opened with, in the engine's own terms.
struct EngineSettings {
  session::SessionOptions session;
  session::IngestOptions ingest;
};

// The engine's settings from a serialized tracesync.v1.EngineOptions (the
// only options contract between Java and native), zero or empty fields
// meaning "the default". Throws JavaException(kIllegalArgument) with the
// problem in words when the bytes are not such a message or the options are
// not valid (Synchronization::validate's message).
EngineSettings parse_engine_options(std::string_view serialized);

}  // namespace tracesync::jni
