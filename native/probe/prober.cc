// SPDX-License-Identifier: EPL-2.0
#include "probe/prober.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <limits>
#include <random>

#include "probe/probe_wire.h"

namespace tracesync::probe {

const char* cause_name(BurstCause cause) {
  switch (cause) {
    case BurstCause::kStart: return "start";
    case BurstCause::kPeriodic: return "periodic";
    case BurstCause::kStop: return "stop";
  }
  return "?";
}

namespace {

using model::Nanoseconds;
constexpr Nanoseconds kNever = std::numeric_limits<Nanoseconds>::max();
// After we begin to stop, we keep answering a peer that has not said it is
// done until it has sent no request for this long: hosts stopped "at once"
// (one signal each, --duration on each) get their own last bursts answered.
constexpr Nanoseconds kQuiet = 1'000'000'000;

Nanoseconds now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::string seconds_text(Nanoseconds ns) {
  if (ns % 1'000'000'000 == 0) return std::to_string(ns / 1'000'000'000) + " s";
  if (ns % 1'000'000 == 0) return std::to_string(ns / 1'000'000) + " ms";
  return std::to_string(ns / 1000) + " us";
}

std::string errno_text(int error) { return std::strerror(error); }

std::string address_text(const sockaddr_storage& address) {
  char host[INET6_ADDRSTRLEN] = "?";
  int port = 0;
  if (address.ss_family == AF_INET) {
    const auto& a = reinterpret_cast<const sockaddr_in&>(address);
    inet_ntop(AF_INET, &a.sin_addr, host, sizeof host);
    port = ntohs(a.sin_port);
    return std::string(host) + ":" + std::to_string(port);
  }
  const auto& a = reinterpret_cast<const sockaddr_in6&>(address);
  if (IN6_IS_ADDR_V4MAPPED(&a.sin6_addr)) {
    inet_ntop(AF_INET, reinterpret_cast<const unsigned char*>(&a.sin6_addr) + 12, host, sizeof host);
    return std::string(host) + ":" + std::to_string(ntohs(a.sin6_port));
  }
  inet_ntop(AF_INET6, &a.sin6_addr, host, sizeof host);
  return "[" + std::string(host) + "]:" + std::to_string(ntohs(a.sin6_port));
}

void set_socket_options(int fd) {
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);  // one segment a message
}

struct Resolved {
  std::vector<sockaddr_storage> addresses;
  std::vector<socklen_t> lengths;
};

std::string resolve(const std::string& host, const std::string& port, bool passive, Resolved& out) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = passive ? AI_PASSIVE : AI_ADDRCONFIG;
  addrinfo* found = nullptr;
  const int status = getaddrinfo(host.empty() ? nullptr : host.c_str(), port.c_str(), &hints, &found);
  if (status != 0) return gai_strerror(status);
  for (const addrinfo* a = found; a != nullptr; a = a->ai_next) {
    sockaddr_storage address{};
    std::memcpy(&address, a->ai_addr, a->ai_addrlen);
    out.addresses.push_back(address);
    out.lengths.push_back(a->ai_addrlen);
  }
  freeaddrinfo(found);
  if (out.addresses.empty()) return "no address";
  return {};
}

}  // namespace

// One TCP connection to a peer, whoever opened it.
struct Connection {
  int fd = -1;
  std::string peer;
  int slot = -1;             // the named peer it belongs to, -1 when it connected to us
  bool connecting = false;   // a non-blocking connect in progress
  std::size_t next_address = 0;
  Nanoseconds deadline = kNever;  // of the connect, or of the outstanding answer
  unsigned char input[kWireSize] = {};
  std::size_t input_size = 0;
  // Our burst on it: waiting to start (`pending`) or running.
  std::optional<BurstCause> pending;
  bool bursting = false;
  BurstResult burst;
  uint64_t outstanding = 0;
  Nanoseconds sent_at = 0;
  // Stopping.
  bool stop_burst_done = false;
  bool peer_done = false;
  Nanoseconds last_request = 0;
  bool closed = false;
};

struct NamedPeer {
  PeerAddress address;
  Resolved resolved;
  int connection = -1;  // index into connections, -1 when not connected
  bool whole_burst = false;
};

struct Prober::State {
  ProbeOptions options;
  const UstEvents& events;
  BurstReport on_burst;
  Problem on_problem;
  int listen_fd = -1;
  int port = 0;
  std::vector<NamedPeer> named;
  std::vector<Connection> connections;
  uint64_t next_round = 0;
  ProbeSummary summary;
  bool stopping = false;
  Nanoseconds stop_began = 0;

  State(ProbeOptions o, const UstEvents& e, BurstReport b, Problem p)
      : options(std::move(o)), events(e), on_burst(std::move(b)), on_problem(std::move(p)) {
    // Round ids are unique across the hosts of an experiment with high
    // probability: each run starts at a random 64-bit value.
    std::random_device random;
    next_round = (uint64_t{random()} << 32) ^ random();
  }

  ~State() {
    if (listen_fd >= 0) close(listen_fd);
    for (Connection& c : connections) {
      if (c.fd >= 0) close(c.fd);
    }
  }

  std::string open_listener() {
    const PeerAddress& where = *options.listen;
    Resolved resolved;
    if (std::string why = resolve(where.host, where.port, true, resolved); !why.empty()) {
      return "cannot listen on " + where.text + ": " + why;
    }
    // Prefer one IPv6 socket that takes IPv4 too, when the host is not given.
    std::vector<std::size_t> order(resolved.addresses.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return resolved.addresses[a].ss_family == AF_INET6 && resolved.addresses[b].ss_family != AF_INET6;
    });
    std::string last = "no address";
    for (const std::size_t i : order) {
      const int fd = socket(resolved.addresses[i].ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
      if (fd < 0) {
        last = errno_text(errno);
        continue;
      }
      const int one = 1;
      const int zero = 0;
      setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
      if (resolved.addresses[i].ss_family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);
      if (bind(fd, reinterpret_cast<const sockaddr*>(&resolved.addresses[i]), resolved.lengths[i]) != 0 ||
          listen(fd, 64) != 0) {
        last = errno_text(errno);
        close(fd);
        continue;
      }
      sockaddr_storage bound{};
      socklen_t length = sizeof bound;
      getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &length);
      port = bound.ss_family == AF_INET ? ntohs(reinterpret_cast<sockaddr_in&>(bound).sin_port)
                                        : ntohs(reinterpret_cast<sockaddr_in6&>(bound).sin6_port);
      listen_fd = fd;
      return {};
    }
    return "cannot listen on " + where.text + ": " + last;
  }

  // --- connections -------------------------------------------------------

  void close_connection(Connection& c) {
    if (c.fd >= 0) close(c.fd);
    c.fd = -1;
    c.closed = true;
    c.connecting = false;
    if (c.slot >= 0) named[c.slot].connection = -1;
  }

  // Ends our burst on `c` (whole, or cut short by `problem`) and reports it.
  void end_burst(Connection& c, const std::string& problem) {
    if (!c.bursting) return;
    c.bursting = false;
    c.deadline = kNever;
    c.burst.problem = problem;
    ++summary.bursts;
    summary.rounds += static_cast<int64_t>(c.burst.rtt_ns.size());
    if (problem.empty()) {
      ++summary.whole_bursts;
      if (c.slot >= 0) named[c.slot].whole_burst = true;
    }
    if (c.burst.cause == BurstCause::kStop || (stopping && !problem.empty())) c.stop_burst_done = true;
    on_burst(c.burst);
  }

  // The connection failed: its burst (pending or running) ends, named.
  void fail(Connection& c, const std::string& why) {
    const std::string problem = "peer " + c.peer + " " + why;
    if (c.bursting) {
      end_burst(c, problem);
    } else if (c.pending) {
      c.burst = BurstResult{*c.pending, c.peer, options.rounds, {}, problem};
      c.bursting = true;
      end_burst(c, problem);
    }
    c.pending.reset();
    if (stopping) c.stop_burst_done = true;
    on_problem(problem + (c.slot >= 0 ? ": skipped" : ""));
    close_connection(c);
  }

  bool send_message(Connection& c, WireKind kind, uint64_t round) {
    const auto bytes = encode({kind, round});
    if (kind != WireKind::kDone) events.round_send(round, kind == WireKind::kAnswer ? 1 : 0, c.peer.c_str());
    const ssize_t n = send(c.fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n == static_cast<ssize_t>(bytes.size())) return true;
    fail(c, n < 0 ? "cannot be written to: " + errno_text(errno) : "cannot be written to (its buffer is full)");
    return false;
  }

  void start_connect(int slot, BurstCause cause) {
    NamedPeer& p = named[slot];
    Connection c;
    c.peer = p.address.text;
    c.slot = slot;
    c.pending = cause;
    connections.push_back(std::move(c));
    p.connection = static_cast<int>(connections.size()) - 1;
    try_next_address(connections.back());
  }

  // Connects `c` to its peer's next address; fails it when none is left.
  void try_next_address(Connection& c) {
    const NamedPeer& p = named[c.slot];
    std::string last = "refused";
    while (c.next_address < p.resolved.addresses.size()) {
      const std::size_t i = c.next_address++;
      const int fd = socket(p.resolved.addresses[i].ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
      if (fd < 0) {
        last = errno_text(errno);
        continue;
      }
      set_socket_options(fd);
      if (connect(fd, reinterpret_cast<const sockaddr*>(&p.resolved.addresses[i]), p.resolved.lengths[i]) == 0) {
        c.fd = fd;
        c.connecting = false;
        return;
      }
      if (errno == EINPROGRESS) {
        c.fd = fd;
        c.connecting = true;
        c.deadline = now_ns() + options.timeout;
        return;
      }
      last = errno_text(errno);
      close(fd);
    }
    fail(c, "cannot be connected to: " + last);
  }

  void accept_peers() {
    while (true) {
      sockaddr_storage address{};
      socklen_t length = sizeof address;
      const int fd = accept4(listen_fd, reinterpret_cast<sockaddr*>(&address), &length, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) return;  // EAGAIN, or a connection that went away
      set_socket_options(fd);
      Connection c;
      c.fd = fd;
      c.peer = address_text(address);
      c.last_request = now_ns();
      if (stopping) c.pending = BurstCause::kStop;  // a peer that comes while we stop still gets our last burst
      connections.push_back(std::move(c));
    }
  }

  // --- bursts ------------------------------------------------------------

  void send_request(Connection& c) {
    c.outstanding = next_round++;
    c.sent_at = now_ns();
    c.deadline = c.sent_at + options.timeout;
    send_message(c, WireKind::kRequest, c.outstanding);
  }

  void start_pending_burst(Connection& c) {
    if (c.fd < 0 || c.connecting || c.bursting || !c.pending) return;
    c.burst = BurstResult{*c.pending, c.peer, options.rounds, {}, {}};
    c.pending.reset();
    c.bursting = true;
    send_request(c);
  }

  void on_answer(Connection& c, uint64_t round, Nanoseconds at) {
    if (!c.bursting || round != c.outstanding) {
      fail(c, "answered a round it was not asked (" + std::to_string(round) + ")");
      return;
    }
    c.burst.rtt_ns.push_back(at - c.sent_at);
    if (static_cast<int>(c.burst.rtt_ns.size()) >= c.burst.asked) {
      end_burst(c, {});
      if (stopping && c.stop_burst_done) send_message(c, WireKind::kDone, 0);
    } else {
      send_request(c);
    }
  }

  void read_from(Connection& c) {
    unsigned char buffer[256];
    const ssize_t n = recv(c.fd, buffer, sizeof buffer, 0);
    const Nanoseconds at = now_ns();
    if (n == 0) {
      if (c.bursting || c.pending) {
        fail(c, "closed the connection");
      } else {
        close_connection(c);
      }
      return;
    }
    if (n < 0) {
      if (errno != EAGAIN && errno != EINTR) fail(c, "cannot be read from: " + errno_text(errno));
      return;
    }
    for (ssize_t i = 0; i < n && c.fd >= 0; ++i) {
      c.input[c.input_size++] = buffer[i];
      if (c.input_size < kWireSize) continue;
      c.input_size = 0;
      const auto message = decode(c.input);
      if (!message) {
        fail(c, "does not speak tracesync probe's protocol (version " + std::to_string(kWireVersion) + ")");
        return;
      }
      switch (message->kind) {
        case WireKind::kRequest:
          events.round_recv(message->round, 0, c.peer.c_str());
          c.last_request = at;
          ++summary.answered;
          send_message(c, WireKind::kAnswer, message->round);
          break;
        case WireKind::kAnswer:
          events.round_recv(message->round, 1, c.peer.c_str());
          on_answer(c, message->round, at);
          break;
        case WireKind::kDone:
          c.peer_done = true;
          break;
      }
    }
  }

  void finish_connecting(Connection& c) {
    int error = 0;
    socklen_t length = sizeof error;
    getsockopt(c.fd, SOL_SOCKET, SO_ERROR, &error, &length);
    if (error == 0) {
      c.connecting = false;
      c.deadline = kNever;
      return;
    }
    close(c.fd);
    c.fd = -1;
    if (c.next_address < named[c.slot].resolved.addresses.size()) {
      try_next_address(c);
    } else {
      fail(c, "cannot be connected to: " + errno_text(error));
    }
  }

  // --- the schedule --------------------------------------------------------

  void burst_everywhere(BurstCause cause) {
    for (std::size_t i = 0; i < connections.size(); ++i) {
      Connection& c = connections[i];
      if (c.closed || c.slot >= 0) continue;  // named peers below
      if (!c.bursting) c.pending = cause;
    }
    for (std::size_t slot = 0; slot < named.size(); ++slot) {
      if (named[slot].connection < 0) {
        start_connect(static_cast<int>(slot), cause);
      } else if (Connection& c = connections[named[slot].connection]; !c.bursting) {
        c.pending = cause;
      }
    }
  }

  void begin_stop() {
    stopping = true;
    stop_began = now_ns();
    for (Connection& c : connections) {
      if (c.closed) continue;
      c.pending = BurstCause::kStop;  // after the one running, if any
    }
    for (std::size_t slot = 0; slot < named.size(); ++slot) {
      if (named[slot].connection < 0) start_connect(static_cast<int>(slot), BurstCause::kStop);
    }
  }

  // Stopping: every connection had its last burst and its peer is done,
  // gone, or quiet.
  bool finished(Nanoseconds now, Nanoseconds stop_deadline) {
    if (now >= stop_deadline) return true;
    for (const Connection& c : connections) {
      if (c.closed) continue;
      if (c.pending || c.bursting || c.connecting) return false;
      if (!c.peer_done && now - std::max(c.last_request, stop_began) < kQuiet) return false;
    }
    return true;
  }

  void drop_closed() {
    // Indices of named peers point into `connections`: rebuild them.
    std::vector<Connection> kept;
    for (Connection& c : connections) {
      if (!c.closed) kept.push_back(std::move(c));
    }
    connections = std::move(kept);
    for (NamedPeer& p : named) p.connection = -1;
    for (std::size_t i = 0; i < connections.size(); ++i) {
      if (connections[i].slot >= 0) named[connections[i].slot].connection = static_cast<int>(i);
    }
  }

  ProbeSummary run(const volatile std::sig_atomic_t* stop, const sigset_t* wait_mask) {
    const Nanoseconds started = now_ns();
    const Nanoseconds end_at = options.duration ? started + *options.duration : kNever;
    Nanoseconds next_periodic = options.every ? started + *options.every : kNever;
    Nanoseconds stop_deadline = kNever;
    for (std::size_t slot = 0; slot < named.size(); ++slot) start_connect(static_cast<int>(slot), BurstCause::kStart);
    while (true) {
      Nanoseconds now = now_ns();
      if (!stopping && (*stop != 0 || now >= end_at)) {
        begin_stop();
        // Our last bursts, then the peers' answers to theirs: each may take
        // up to the timeout a round; a run never outlives this.
        stop_deadline = now + options.timeout * (options.rounds + 2) + kQuiet;
      }
      if (!stopping && now >= next_periodic) {
        burst_everywhere(BurstCause::kPeriodic);
        while (next_periodic <= now) next_periodic += *options.every;
      }
      for (Connection& c : connections) {
        if (c.closed) continue;
        if (c.deadline != kNever && now >= c.deadline) {
          fail(c, c.connecting ? "did not accept a connection within " + seconds_text(options.timeout)
                               : "did not answer within " + seconds_text(options.timeout));
          continue;
        }
        start_pending_burst(c);
      }
      drop_closed();
      if (stopping && finished(now, stop_deadline)) break;
      if (!stopping && named.empty() && listen_fd < 0) break;

      // Wait for the sockets or the next deadline.
      // (No periodic burst once stopping: its time would be past.)
      Nanoseconds wake = stopping ? std::min(stop_deadline, now + kQuiet / 4) : std::min(end_at, next_periodic);
      std::vector<pollfd> fds;
      if (listen_fd >= 0) fds.push_back({listen_fd, POLLIN, 0});
      for (const Connection& c : connections) {
        wake = std::min(wake, c.deadline);
        fds.push_back({c.fd, static_cast<short>(c.connecting ? POLLOUT : POLLIN), 0});
      }
      const Nanoseconds wait = std::max<Nanoseconds>(0, wake == kNever ? 3'600'000'000'000 : wake - now);
      const timespec timeout{static_cast<time_t>(wait / 1'000'000'000), static_cast<long>(wait % 1'000'000'000)};
      ++summary.waits;
      const int ready = ppoll(fds.data(), fds.size(), &timeout, wait_mask);
      if (ready <= 0) continue;  // a deadline, or a signal (EINTR)
      std::size_t f = 0;
      if (listen_fd >= 0) {
        if (fds[f++].revents != 0) accept_peers();
      }
      // accept_peers() appended after the ones polled: those come next time.
      for (std::size_t i = 0; f < fds.size(); ++i, ++f) {
        Connection& c = connections[i];
        if (fds[f].revents == 0 || c.closed) continue;
        if (c.connecting) {
          finish_connecting(c);
        } else {
          read_from(c);
        }
      }
    }
    for (const NamedPeer& p : named) {
      if (!p.whole_burst) summary.silent_peers.push_back(p.address.text);
    }
    return summary;
  }
};

Prober::Prober(ProbeOptions options, const UstEvents& events, BurstReport on_burst, Problem on_problem)
    : state_(std::make_unique<State>(std::move(options), events, std::move(on_burst), std::move(on_problem))) {}

Prober::~Prober() = default;

std::string Prober::open() {
  State& s = *state_;
  for (const PeerAddress& address : s.options.peers) {
    NamedPeer peer;
    peer.address = address;
    if (std::string why = resolve(address.host, address.port, false, peer.resolved); !why.empty()) {
      return "cannot resolve the peer " + address.text + ": " + why;
    }
    s.named.push_back(std::move(peer));
  }
  if (s.options.listen) return s.open_listener();
  return {};
}

int Prober::listening_port() const { return state_->port; }

ProbeSummary Prober::run(const volatile std::sig_atomic_t* stop, const sigset_t* wait_mask) {
  return state_->run(stop, wait_mask);
}

}  // namespace tracesync::probe
