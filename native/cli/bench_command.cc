// `tracesync bench`: measurements that print figures (never pass/fail).

#include <iostream>

#include "cli/command.h"
#include "cli/exit_codes.h"

namespace tracesync::cli {

int run_bench(const std::vector<std::string>& arguments) {
  (void)arguments;
  std::cerr << "tracesync bench: no benchmark in this build yet\n";
  return kBadInput;
}

}  // namespace tracesync::cli
