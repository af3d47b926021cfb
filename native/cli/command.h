// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tracesync::cli {

// A subcommand: `tracesync <name> ...`. run() gets the arguments after the
// name and returns an exit code (exit_codes.h); it writes results to stdout
// and diagnostics to stderr.
struct Command {
  std::string_view name;
  std::string_view summary;
  int (*run)(const std::vector<std::string>& arguments);
};

int run_sync(const std::vector<std::string>& arguments);
int run_apply(const std::vector<std::string>& arguments);
int run_live(const std::vector<std::string>& arguments);
int run_check(const std::vector<std::string>& arguments);
int run_extract(const std::vector<std::string>& arguments);
int run_simulate(const std::vector<std::string>& arguments);
int run_bench(const std::vector<std::string>& arguments);
int run_check_truth(const std::vector<std::string>& arguments);
int run_verify(const std::vector<std::string>& arguments);
int run_to_ctf2(const std::vector<std::string>& arguments);
int run_probe(const std::vector<std::string>& arguments);

}  // namespace tracesync::cli
