// SPDX-License-Identifier: EPL-2.0
#pragma once

// Runs a program as a user would and captures what it says, for
// end-to-end tests.

#include <chrono>
#include <string>
#include <vector>

namespace tracesync::testing {

struct CommandResult {
  int exit_code = -1;  // the exit status, or 128 + signal number
  std::string out;
  std::string err;
};

// Runs `program` with `arguments`, feeding `input` on stdin.
CommandResult run_command(const std::string& program, const std::vector<std::string>& arguments,
                          const std::string& input = "");

// A signal sent to a running program `after` its start, and not before the
// program catches it (or 30 s later, if it never does).
struct TimedSignal {
  std::chrono::milliseconds after;
  int signal;
};

// As run_command, sending each of `signals` (in order) unless the program
// has ended by then. SIGKILL and SIGSTOP, which no program catches, go at
// their time.
CommandResult run_command_with_signals(const std::string& program, const std::vector<std::string>& arguments,
                                       const std::vector<TimedSignal>& signals, const std::string& input = "");

// The tracesync command under test: the one built with these tests, or the
// one TRACESYNC_TEST_COMMAND names (the sanitized build's, in CI).
std::string tracesync_binary();

// A fresh directory under the system temp dir, removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& contents);

}  // namespace tracesync::testing
