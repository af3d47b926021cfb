// SPDX-License-Identifier: EPL-2.0
#include "ingest/reading_lane.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include "ingest/descriptors.h"
#include "ingest/reading_process.h"
#include "ingest/trace_reader.h"

extern char** environ;

namespace tracesync::ingest {

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

ReadingLane::ReadingLane(std::vector<std::string> command) : command_(std::move(command)) {}

ReadingLane::~ReadingLane() { end_process(); }

bool ReadingLane::ready(std::string& problem) {
  {
    const std::lock_guard lock(mutex_);
    if (interrupted_) return false;
    // Ended between steps (killed from outside, say): no trace is to blame;
    // a new process takes over.
    int status = 0;
    if (child_ > 0 && waitpid(child_, &status, WNOHANG) == child_) {
      child_ = -1;
      ended_between_steps_ = status;
    }
    if (child_ > 0) return true;
  }
  if (ended_between_steps_) {
    output_.drain();
    const std::string words = output_.last_line();
    ended_how_ = describe_status(*ended_between_steps_, words) + (words.empty() ? "" : ": " + words);
    ended_between_steps_.reset();
  }
  end_process();
  return start(problem);
}

bool ReadingLane::start(std::string& problem) {
  if (command_.empty()) {
    problem = "internal error: no program to read it with";
    return false;
  }
  int ends[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
    const bool no_descriptor = errno == EMFILE || errno == ENFILE;
    problem = std::string("cannot start a reading process: ") + std::strerror(errno) +
              (no_descriptor ? " (each reading process holds three; raise `ulimit -n`)" : "");
    return false;
  }
  ends[1] = above_standard_streams(ends[1]);
  // What the process writes on its standard output and error (babeltrace2's
  // assertion messages; anything a library prints) goes into a pipe whose
  // tail we keep, to be quoted if it dies: never into the channel, nor into
  // our own output.
  const bool has_output_tail = output_.open();
  SpawnSetup setup;
  // In this order: a descriptor the process gets may be 3 before it is moved.
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
  // both) are back to normal in the process.
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
    output_.close();
    // `--jobs` processes, and the threads of every program of the user's.
    const char* hint = spawned == EAGAIN ? " (tracesync runs one per `--jobs`: raise `ulimit -u`, lower `--jobs`, or "
                                           "read in-process)"
                                         : "";
    problem = "cannot start the reading process " + command_[0] + ": " + std::strerror(spawned) + hint;
    return false;
  }
  {
    const std::lock_guard lock(mutex_);
    child_ = child;
    socket_ = ends[0];
    if (interrupted_) {
      kill_group();
      shutdown(socket_, SHUT_RDWR);
    }
  }
  ++generation_;
  answered_ = false;
  channel_ = std::make_unique<FrameChannel>(socket_, socket_);
  if (has_output_tail) channel_->drain_while_waiting(output_.read_end(), [this] { return output_.drain(); });
  return true;
}

ReadingLane::Loss ReadingLane::lost() {
  const std::string channel_error = channel_ ? channel_->error() : std::string();
  const bool garbage = channel_ && channel_->malformed();
  // A process whose end of the channel went away is exiting: wait for it a
  // little. One that writes garbage, or lingers, is killed.
  int status = 0;
  bool reaped = false;
  for (int tries = garbage ? 0 : 200; tries > 0 && !reaped; --tries) {
    {
      const std::lock_guard lock(mutex_);
      if (child_ <= 0) break;
      reaped = waitpid(child_, &status, WNOHANG) == child_;
      if (reaped) child_ = -1;
    }
    if (!reaped) usleep(5000);
  }
  output_.drain();  // what the process wrote last, after our last wait for it
  const std::string words = output_.last_line();
  end_process();
  Loss loss;
  if (reaped) {
    loss.out_of_memory = says_out_of_memory(words);
    // A reading process answers before it ends, even on a trace it cannot
    // open; a program that exits without a word is likely not one (an older
    // tracesync without read-trace prints its usage and exits so).
    const bool silent_exit = WIFEXITED(status) && !answered_ && !loss.out_of_memory;
    loss.how = describe_status(status, words);
    if (silent_exit) {
      loss.how += " before answering (is " + command_.front() + " a tracesync of this version, with its read-trace command?)";
    }
    if (!words.empty()) loss.how += ": " + words;
  } else if (garbage) {
    loss.how = "the reading process wrote what tracesync cannot read (" + channel_error + ")";
  } else {
    loss.how = "the reading process stopped answering without exiting" +
               (channel_error.empty() ? std::string() : " (" + channel_error + ")");
  }
  return loss;
}

void ReadingLane::interrupt() {
  const std::lock_guard lock(mutex_);
  interrupted_ = true;
  if (child_ > 0) kill_group();
  // Ends a wait for the process's answer at once, even if something else
  // still holds its end of the socket.
  if (socket_ >= 0) shutdown(socket_, SHUT_RDWR);
}

bool ReadingLane::interrupted() const {
  const std::lock_guard lock(mutex_);
  return interrupted_;
}

void ReadingLane::kill() {
  const std::lock_guard lock(mutex_);
  if (child_ > 0) kill_group();
  if (socket_ >= 0) shutdown(socket_, SHUT_RDWR);
}

// The process leads a process group of its own; until it is reaped, its pid
// names that group, and whatever it started goes with it. Called with the
// lock held.
void ReadingLane::kill_group() { ::kill(-child_, SIGKILL); }

// Closes the channel and reaps the process; one still reading is killed
// first: nothing it has left is wanted.
void ReadingLane::end_process() {
  channel_.reset();
  const std::lock_guard lock(mutex_);
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
