// SPDX-License-Identifier: EPL-2.0
#include "ingest/process_trace_reader.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <new>

#include "ingest/descriptors.h"
#include "ingest/reader_protocol.h"
#include "ingest/reading_process.h"
#include "ingest/traces_being_opened.h"

extern char** environ;

namespace tracesync::ingest {

namespace protocol = reader_protocol;

namespace {

std::string describe_status(int status, const std::string& last_words) {
  if (says_out_of_memory(last_words)) {  // whatever way it then ended: not damage
    if (!WIFSIGNALED(status)) {
      return "the reading process ran out of memory (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
    }
    const char* name = sigabbrev_np(WTERMSIG(status));  // "ABRT"
    return std::string("the reading process ran out of memory (SIG") + (name ? name : "?") + ")";
  }
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    if (signal == SIGABRT) return "babeltrace2 aborted (SIGABRT) on damaged data";
    if (signal == SIGKILL) return "the reading process was killed (SIGKILL: out of memory?)";
    const char* name = sigdescr_np(signal);  // strsignal's thread-safe sibling
    return "the reading process died of signal " + std::to_string(signal) + " (" + (name ? name : "?") + ")";
  }
  std::string what = "the reading process exited";
  if (WIFEXITED(status)) what += " with status " + std::to_string(WEXITSTATUS(status));
  return what;
}

// How a reading process ended, in words for the user; `hint` goes before
// its last words.
std::string describe_end(int status, const std::string& hint, const std::string& last_words) {
  std::string what = describe_status(status, last_words) + hint;
  if (!last_words.empty()) what += ": " + last_words;
  return what;
}

// posix_spawn's attributes and file actions, destroyed on every path.
struct SpawnSetup {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  SpawnSetup() {
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attributes);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
};

}  // namespace

ProcessTraceReader::ProcessTraceReader(TraceSource source, match::TraceIndex index, ReaderOptions options,
                                       std::vector<std::string> command, EventSink& sink)
    : source_(std::move(source)), index_(index), options_(options), command_(std::move(command)), sink_(sink) {
  info_.path = source_.path;
  info_.name = source_.name;
  std::tie(info_.domain_id, info_.domain_source) = choose_domain(source_, std::nullopt, "");
}

ProcessTraceReader::~ProcessTraceReader() { end_child(); }

TraceReader::State ProcessTraceReader::step(std::size_t rounds) {
  try {
    if (state_ == State::kNew) {
      // Opening (babeltrace2 indexes every packet) is a step of its own, so
      // that a front end can name a trace that takes long to open, and a
      // scheduler can give up on one that never ends.
      const OpeningTrace opening(source_.path);
      set_opening(true);
      struct OpeningEnds {
        ProcessTraceReader& reader;
        ~OpeningEnds() { reader.set_opening(false); }
      } opening_ends{*this};
      if (!start() || !exchange(0)) return state_;
    }
    if (state_ == State::kReading) exchange(rounds);
  } catch (const std::bad_alloc&) {
    // Making words may fail too: problem() then answers kOutOfMemoryProblem.
    out_of_memory_ = true;
    fail({});
  } catch (const std::exception& e) {
    std::string problem;
    if (!compose_problem(problem, "internal error while reading: ", e.what())) out_of_memory_ = true;
    fail(std::move(problem));
  } catch (...) {
    std::string problem;
    if (!compose_problem(problem, "internal error while reading", "")) out_of_memory_ = true;
    fail(std::move(problem));
  }
  return state_;
}

void ProcessTraceReader::interrupt() {
  const std::lock_guard lock(child_mutex_);
  interrupted_ = true;
  if (child_ > 0) kill_group();
  // Ends a wait for the child's answer at once, even if something else
  // still holds the child's end of the socket.
  if (socket_ >= 0) shutdown(socket_, SHUT_RDWR);
}

std::optional<std::chrono::steady_clock::time_point> ProcessTraceReader::opening_since() const {
  const std::lock_guard lock(child_mutex_);
  return opening_since_;
}

void ProcessTraceReader::set_opening(bool opening) {
  const std::lock_guard lock(child_mutex_);
  opening_since_ = opening ? std::optional(std::chrono::steady_clock::now()) : std::nullopt;
}

void ProcessTraceReader::stop_opening(std::string problem) {
  const std::lock_guard lock(child_mutex_);
  if (!opening_since_ || !stopped_because_.empty()) return;
  stopped_because_ = std::move(problem);
  if (child_ > 0) kill_group();
  if (socket_ >= 0) shutdown(socket_, SHUT_RDWR);
}

bool ProcessTraceReader::start() {
  if (command_.empty()) {
    fail("internal error: no program to read it with");
    return false;
  }
  int ends[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
    const bool no_descriptor = errno == EMFILE || errno == ENFILE;
    fail(std::string("cannot start a reading process: ") + std::strerror(errno) +
         (no_descriptor ? " (each trace being read holds two; raise `ulimit -n`)" : ""));
    return false;
  }
  ends[1] = above_standard_streams(ends[1]);
  // What the child writes on its standard output and error (babeltrace2's
  // assertion messages; anything a library prints) goes into a pipe whose
  // tail we keep, to be quoted if it dies: never into the channel, nor into
  // our own output.
  const bool has_output_tail = output_.open();
  SpawnSetup setup;
  // In this order: a descriptor the child gets may be 3 before it is moved.
  if (has_output_tail) {
    posix_spawn_file_actions_adddup2(&setup.actions, output_.write_end(), STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&setup.actions, output_.write_end(), STDERR_FILENO);
  } else {
    posix_spawn_file_actions_addopen(&setup.actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&setup.actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  }
  // dup2 clears close-on-exec on the channel; every other descriptor of
  // ours stays shut.
  posix_spawn_file_actions_adddup2(&setup.actions, ends[1], kReadingChannelFd);
  posix_spawn_file_actions_addopen(&setup.actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  // A group of its own: a terminal's Ctrl-C reaches only the parent, which
  // decides what to keep. Signals the parent blocks or ignores (a JVM does
  // both) are back to normal in the child.
  posix_spawnattr_setpgroup(&setup.attributes, 0);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&setup.attributes, &none);
  sigset_t defaults;
  sigemptyset(&defaults);
  for (const int signal : {SIGINT, SIGTERM, SIGPIPE, SIGQUIT, SIGHUP}) sigaddset(&defaults, signal);
  posix_spawnattr_setsigdefault(&setup.attributes, &defaults);
  posix_spawnattr_setflags(&setup.attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  std::vector<char*> argv;
  for (std::string& argument : command_) argv.push_back(argument.data());
  argv.push_back(nullptr);
  pid_t child = -1;
  const int spawned = posix_spawn(&child, argv[0], &setup.actions, &setup.attributes, argv.data(), environ);
  close(ends[1]);
  output_.close_write_end();
  if (spawned != 0) {
    close(ends[0]);
    // Every trace being read has its process: thousands of traces may pass
    // the user's process limit.
    const char* hint = spawned == EAGAIN ? " (one process per trace being read: raise `ulimit -u`, or read in-process)"
                                         : "";
    fail("cannot start the reading process " + command_[0] + ": " + std::strerror(spawned) + hint);
    return false;
  }
  {
    const std::lock_guard lock(child_mutex_);
    child_ = child;
    socket_ = ends[0];
    if (interrupted_ || !stopped_because_.empty()) {
      kill_group();
      shutdown(socket_, SHUT_RDWR);
    }
  }
  channel_ = std::make_unique<FrameChannel>(socket_, socket_);
  if (has_output_tail) channel_->drain_while_waiting(output_.read_end(), [this] { return output_.drain(); });
  protocol::OpenRequest request;
  request.parent_pid = getpid();
  request.index = index_;
  request.source = source_;
  request.options = options_;
  if (!channel_->send(protocol::kOpen, protocol::encode(request))) {
    child_lost();
    return false;
  }
  return true;
}

// One step of the child's: forwards its frames to the sink until it reports
// the step done. False when the child is gone (the trace then failed, or was
// left unfinished by interrupt()).
bool ProcessTraceReader::exchange(uint64_t rounds) {
  if (!channel_->send(protocol::kStep, protocol::encode_rounds(rounds)) || !channel_->flush()) {
    child_lost();
    return false;
  }
  uint32_t type = 0;
  for (;;) {
    if (!channel_->receive(type, payload_)) {
      child_lost();
      return false;
    }
    answered_ = true;
    if (type != protocol::kStepDone) {
      if (handle(type)) continue;
      fail("internal error: the reading process sent a malformed frame (type " + std::to_string(type) + ")");
      return false;
    }
    std::optional<protocol::StepReport> report = protocol::decode_step_report(payload_);
    if (!report) {
      fail("internal error: the reading process sent a malformed step report");
      return false;
    }
    state_ = report->state;
    progress_ = report->progress;
    bytes_read_.store(report->bytes_read, std::memory_order_relaxed);
    info_ = std::move(report->info);
    problem_ = std::move(report->problem);
    // The reading process's own reader said memory ran out (kOutOfMemory).
    if (state_ == State::kFailed) out_of_memory_ = problem_.starts_with(kOutOfMemory);
    channel_->release_buffers();  // until its next turn, which may be long in coming
    if (state_ == State::kDone || state_ == State::kFailed) {
      end_child();
      if (!closed_) {  // the child's reader always closes; never leave the sink waiting
        closed_ = true;
        sink_.trace_closed(index_);
      }
    }
    return true;
  }
}

bool ProcessTraceReader::handle(uint32_t type) {
  switch (type) {
    case protocol::kOpened: {
      std::optional<TraceInfo> info = protocol::decode_trace_info(payload_);
      if (!info) return false;
      info_ = std::move(*info);
      sink_.trace_opened(index_, info_);
      return true;
    }
    case protocol::kEvents: {
      const std::optional<model::Nanoseconds> promise = protocol::decode_events(payload_, events_);
      if (!promise) return false;
      sink_.trace_events(index_, events_, *promise);
      return true;
    }
    case protocol::kClosed:
      if (!payload_.empty()) return false;
      closed_ = true;
      sink_.trace_closed(index_);
      return true;
    default:
      return false;
  }
}

// The channel broke: the child died (or was killed by interrupt()), or
// wrote what is not a frame.
void ProcessTraceReader::child_lost() {
  const std::string channel_error = channel_->error();
  const bool garbage = channel_->malformed();
  // A child whose end of the channel went away is exiting: wait for it a
  // little. One that writes garbage, or lingers, is killed.
  int status = 0;
  bool reaped = false;
  for (int tries = garbage ? 0 : 200; tries > 0 && !reaped; --tries) {
    {
      const std::lock_guard lock(child_mutex_);
      if (child_ <= 0) break;
      reaped = waitpid(child_, &status, WNOHANG) == child_;
      if (reaped) child_ = -1;
    }
    if (!reaped) usleep(5000);
  }
  bool interrupted = false;
  std::string stopped_because;
  {
    const std::lock_guard lock(child_mutex_);
    interrupted = interrupted_;
    stopped_because = stopped_because_;
  }
  output_.drain();  // what the child wrote last, after our last wait for it
  const std::string words = output_.last_line();
  end_child();
  if (!stopped_because.empty()) {
    fail(std::move(stopped_because));
    return;
  }
  if (interrupted) return;  // left unfinished: cancelled, not failed
  std::string how;
  if (reaped) {
    out_of_memory_ = says_out_of_memory(words);
    // A reading process answers before it ends, even on a trace it cannot
    // open; a program that exits without a word is likely not one (an older
    // tracesync without read-trace prints its usage and exits so).
    const bool silent_exit = WIFEXITED(status) && !answered_ && !says_out_of_memory(words);
    how = describe_end(status,
                       silent_exit ? " before answering (is " + command_.front() +
                                         " a tracesync of this version, with its read-trace command?)"
                                   : std::string(),
                       words);
  } else if (garbage) {
    how = "the reading process wrote what tracesync cannot read (" + channel_error + ")";
  } else {
    how = "the reading process stopped answering without exiting" +
          (channel_error.empty() ? std::string() : " (" + channel_error + ")");
  }
  if (state_ == State::kNew) {
    fail("cannot be opened: " + how);
  } else {
    fail("reading stopped after at least " + std::to_string(info_.events) + " events: " + how);
  }
}

void ProcessTraceReader::fail(std::string problem) {
  problem_ = std::move(problem);
  state_ = State::kFailed;
  end_child();
  if (closed_) return;
  closed_ = true;
  try {
    sink_.trace_closed(index_);
  } catch (...) {  // nothing more can be done for this trace
  }
}

// The child leads a process group of its own; until it is reaped, its pid
// names that group, and whatever it started goes with it. Called with the
// child lock held.
void ProcessTraceReader::kill_group() { kill(-child_, SIGKILL); }

// Closes the channel and reaps the child; a child still reading is killed
// first: nothing it has left is wanted.
void ProcessTraceReader::end_child() {
  channel_.reset();
  const std::lock_guard lock(child_mutex_);
  output_.close();
  if (socket_ >= 0) close(socket_);
  socket_ = -1;
  if (child_ <= 0) return;
  kill_group();
  while (waitpid(child_, nullptr, 0) < 0 && errno == EINTR) {
  }
  child_ = -1;
}

}  // namespace tracesync::ingest
