// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <csignal>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/point.h"
#include "probe/peer_address.h"
#include "probe/ust_events.h"

namespace tracesync::probe {

// What `tracesync probe` is asked to do (docs/probe.md).
struct ProbeOptions {
  std::optional<PeerAddress> listen;  // --listen [HOST:]PORT; host empty: every address; port "0": any free port
  std::vector<PeerAddress> peers;     // HOST:PORT... and --peers FILE: connected to, a start burst each
  int rounds = 50;                                      // round trips a burst
  model::Nanoseconds timeout = 1'000'000'000;           // to connect, and for each answer
  std::optional<model::Nanoseconds> every;              // a periodic burst on every connection
  std::optional<model::Nanoseconds> duration;           // stop by itself after this long
};

// Why a burst was started.
enum class BurstCause { kStart, kPeriodic, kStop };
const char* cause_name(BurstCause cause);

// One burst of round trips with one peer, as it ended.
struct BurstResult {
  BurstCause cause = BurstCause::kStart;
  std::string peer;                // as named, or the address of a peer that connected to us
  int asked = 0;                   // round trips the burst was to have
  std::vector<int64_t> rtt_ns;     // of those answered, in order
  std::string problem;             // why it ended early (the peer named), empty when whole
};

// How a run went.
struct ProbeSummary {
  int bursts = 0;
  int whole_bursts = 0;
  int64_t rounds = 0;           // round trips answered, ours
  int64_t answered = 0;         // requests of peers answered
  std::vector<std::string> silent_peers;  // named peers that never completed a whole burst
  int64_t waits = 0;            // times it waited for sockets or time (a few a round trip, a few a burst)
};

// `tracesync probe`'s engine: one thread, non-blocking sockets and ppoll(),
// so a peer that does not answer costs a timeout, never a hang. Either end of
// a connection may start a burst: requests one at a time, each answered
// before the next, each written as its own TCP segment, so that kernel
// traces pair them as TCP messages and lttng-ust traces (UstEvents) as
// messages of the kind `probe`.
//   - at start: a burst with each named peer (connected to now);
//   - every `every`: a burst on each connection (named peers reconnected);
//   - at stop (the stop flag, or `duration`): a last burst on each
//     connection, then `done`; the run ends once every peer said `done`,
//     closed, or sent no request for 1 s since we began to stop (so that
//     hosts stopped together answer each other's last bursts), or after
//     the timeout.
class Prober {
 public:
  using BurstReport = std::function<void(const BurstResult&)>;
  using Problem = std::function<void(const std::string&)>;

  Prober(ProbeOptions options, const UstEvents& events, BurstReport on_burst, Problem on_problem);
  ~Prober();
  Prober(const Prober&) = delete;
  Prober& operator=(const Prober&) = delete;

  // Resolves the peers and opens the listening socket; the problem in words
  // (naming the peer or the port), or empty.
  std::string open();
  // The port listened on (after open()), 0 when not listening.
  int listening_port() const;

  // Runs until stopped. `stop` is set by a signal handler; `wait_mask` is the
  // signal mask ppoll() waits with (the signals that set `stop` unblocked
  // there only, so that none is lost between a check and the wait).
  ProbeSummary run(const volatile std::sig_atomic_t* stop, const sigset_t* wait_mask);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace tracesync::probe
