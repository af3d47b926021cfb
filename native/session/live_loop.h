// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <functional>

#include "model/point.h"
#include "session/live_follower.h"

namespace tracesync::session {

// What a front end of `tracesync live` hears (the CLI prints, the JNI layer
// calls a Java listener), on the thread that follows.
struct LiveLoopCallbacks {
  // Asked at every turn (every 20 ms at most): false stops following.
  std::function<bool()> keep_going;
  // A session or folder opened, ended, failed or is waited for.
  std::function<void(const LiveNews&)> on_news;
  // A result that changed materially since the last one given (a trace's
  // transform or bound moved by a nanosecond or more, its clock drift by
  // 0.001 ppm, a link's quality or place in the tree, traces or problems).
  std::function<void(const v1::Snapshot&)> on_result;
};

struct LiveLoopEnd {
  v1::Snapshot final_result;  // LiveFollower::finish's
  bool stopped = false;       // keep_going said no before every source ended
};

// Follows until every source has ended or failed, or keep_going() says no,
// giving a result at most once per `interval` when it changed materially;
// then the final result.
LiveLoopEnd follow_live(LiveFollower& follower, model::Nanoseconds interval, const LiveLoopCallbacks& callbacks);

}  // namespace tracesync::session
