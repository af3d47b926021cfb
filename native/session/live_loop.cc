// SPDX-License-Identifier: EPL-2.0
#include "session/live_loop.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>
#include <string>
#include <thread>

namespace tracesync::session {

namespace {

using Clock = std::chrono::steady_clock;

// The next result comes at least this many times the last one's computing
// time after it.
constexpr int kTimeForResults = 10;

// What must change for a result to be given again: each trace's transform
// and bound to the nanosecond, the links' qualities, the traces and
// problems.
std::string gist(const v1::Snapshot& s) {
  std::ostringstream out;
  out << s.traces_size() << ' ' << s.problems_size() << ' ' << s.links_size() << '\n';
  for (const v1::Trace& t : s.traces()) {
    out << t.domain() << ' ' << t.synchronized() << ' ' << t.reference() << ' ' << t.segments_size() << ' '
        << std::llround(t.shift_ns()) << ' ' << std::llround(t.uncertainty_ns()) << ' '
        << std::llround(t.drift_ppm() * 1000) << '\n';
  }
  for (const v1::Link& l : s.links()) out << l.a() << ' ' << l.b() << ' ' << l.quality() << ' ' << l.in_tree() << '\n';
  return out.str();
}

}  // namespace

LiveLoopEnd follow_live(LiveFollower& follower, model::Nanoseconds interval, const LiveLoopCallbacks& callbacks) {
  std::string last_gist;
  Clock::time_point next_result = Clock::now() + std::chrono::nanoseconds(interval);
  bool stopped = false;
  while (!follower.finished()) {
    if (!callbacks.keep_going()) {
      stopped = true;
      break;
    }
    bool read_any = false;
    for (const LiveNews& news : follower.read(&read_any)) callbacks.on_news(news);
    // The relay flushes at each host's live timer (100 ms by default), a
    // folder at its switch timer: a short nap when nothing came costs little
    // latency.
    if (!read_any) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (Clock::now() < next_result) continue;
    const Clock::time_point started = Clock::now();
    const v1::Snapshot snapshot = follower.snapshot();
    // At most a tenth of the time goes to results: with -o, a result's
    // latency proofs go through every message kept (millions, after hours),
    // and reading must keep up with the recording.
    const Clock::time_point done = Clock::now();
    next_result =
        done + std::max<Clock::duration>(std::chrono::nanoseconds(interval), kTimeForResults * (done - started));
    std::string now = gist(snapshot);
    if (now == last_gist || snapshot.traces_size() == 0) continue;
    last_gist = std::move(now);
    callbacks.on_result(snapshot);
  }
  if (stopped) {
    for (const LiveNews& news : follower.stop()) callbacks.on_news(news);
  }
  return {follower.finish(stopped), stopped};
}

}  // namespace tracesync::session
