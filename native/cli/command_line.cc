#include "cli/command_line.h"

#include <iostream>

#include "cli/exit_codes.h"

namespace tracesync::cli {

namespace po = boost::program_options;

std::string parse_arguments(const std::vector<std::string>& arguments, const po::options_description& options,
                            std::vector<std::string>* positionals, po::variables_map& values) {
  po::options_description all;
  all.add(options);
  po::positional_options_description positional;
  if (positionals != nullptr) {
    // A hidden option takes them: --help does not list it.
    all.add_options()("positional-arguments", po::value(positionals)->composing());
    positional.add("positional-arguments", -1);
  }
  try {
    po::store(po::command_line_parser(arguments).options(all).positional(positional).run(), values);
    po::notify(values);
  } catch (const po::error& e) {
    return e.what();
  }
  return {};
}

int usage_error(std::string_view command, const std::string& message) {
  std::cerr << "tracesync " << command << ": " << message << "\nTry 'tracesync " << command << " --help'.\n";
  return kBadInput;
}

}  // namespace tracesync::cli
