// SPDX-License-Identifier: EPL-2.0
#pragma once

// The reading processes a test started (`tracesync read-trace`, or the
// tests' reading program), found in /proc: the live children of this
// process. A test that starts no other child (none does) sees only them.

#include <dirent.h>
#include <sys/types.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace tracesync::testing {

// Whether `pid` is a live child of this process: not gone, not a zombie.
inline bool is_reading_process(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  // pid (comm) state ppid ...: comm may hold spaces, so start after its ')'.
  const std::size_t after_name = line.rfind(')');
  if (after_name == std::string::npos) return false;
  std::istringstream rest(line.substr(after_name + 1));
  char state = 0;
  pid_t parent = 0;
  rest >> state >> parent;
  return parent == getpid() && state != 'Z';
}

// Every live child of this process, by pid.
inline std::vector<pid_t> reading_processes() {
  std::vector<pid_t> found;
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return found;
  while (const dirent* entry = readdir(proc)) {
    const pid_t pid = static_cast<pid_t>(std::atoi(entry->d_name));
    if (pid > 0 && is_reading_process(pid)) found.push_back(pid);
  }
  closedir(proc);
  return found;
}

}  // namespace tracesync::testing
