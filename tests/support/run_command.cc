// SPDX-License-Identifier: EPL-2.0
#include "support/run_command.h"

#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace tracesync::testing {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void write_file(const std::string& path, const std::string& contents) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << contents;
}

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "tracesync-test-XXXXXX").string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string tracesync_binary() {
  // scripts/setup.sh --test runs these programs a second time against the
  // sanitized build's command (docs/testing.md).
  if (const char* command = std::getenv("TRACESYNC_TEST_COMMAND"); command && *command) return command;
  return std::string(TRACESYNC_BINARY_DIR) + "/bin/tracesync";
}

namespace {

// Whether process `pid` has a handler for `signal` (SigCgt in its status).
bool catches(pid_t pid, int signal) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("SigCgt:", 0) != 0) continue;
    const unsigned long long caught = std::strtoull(line.c_str() + 7, nullptr, 16);
    return signal > 0 && signal <= 64 && ((caught >> (signal - 1)) & 1u) != 0;
  }
  return false;
}

}  // namespace

CommandResult run_command(const std::string& program, const std::vector<std::string>& arguments,
                          const std::string& input) {
  return run_command_with_signals(program, arguments, {}, input);
}

CommandResult run_command_with_signals(const std::string& program, const std::vector<std::string>& arguments,
                                       const std::vector<TimedSignal>& signals, const std::string& input) {
  // Files rather than pipes: no deadlock however much the program writes.
  TempDir io;
  write_file(io.file("in"), input);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(program.c_str()));
    for (const auto& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    if (!freopen(io.file("in").c_str(), "rb", stdin) || !freopen(io.file("out").c_str(), "wb", stdout) ||
        !freopen(io.file("err").c_str(), "wb", stderr)) {
      _exit(127);
    }
    execv(program.c_str(), argv.data());
    _exit(127);
  }
  const auto start = std::chrono::steady_clock::now();
  int status = 0;
  bool ended = false;
  for (const TimedSignal& timed : signals) {
    // Wait for the signal's time and for the program to catch that signal
    // (a sanitized command under load can take seconds to get there, and a
    // signal before would kill it where the test means to interrupt it),
    // unless the program ends first. Sent anyway 30 s late: some programs
    // never catch it.
    const auto latest = timed.after + std::chrono::seconds(30);
    while (!ended) {
      const auto elapsed = std::chrono::steady_clock::now() - start;
      const bool catchable = timed.signal != SIGKILL && timed.signal != SIGSTOP;
      if (elapsed >= latest || (elapsed >= timed.after && (!catchable || catches(pid, timed.signal)))) break;
      ended = waitpid(pid, &status, WNOHANG) == pid;
      if (!ended) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (ended) break;
    kill(pid, timed.signal);
  }
  if (!ended) waitpid(pid, &status, 0);
  CommandResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = read_file(io.file("out"));
  result.err = read_file(io.file("err"));
  return result;
}

}  // namespace tracesync::testing
