// SPDX-License-Identifier: EPL-2.0
#include "cli/command_line.h"

#include <iostream>

#include "cli/exit_codes.h"
#include "cli/suggestion.h"
#include "snapshot/utf8.h"

namespace tracesync::cli {

namespace po = boost::program_options;

namespace {

bool takes_unsigned(const po::value_semantic* semantic) {
  return dynamic_cast<const po::typed_value<unsigned short>*>(semantic) != nullptr ||
         dynamic_cast<const po::typed_value<unsigned>*>(semantic) != nullptr ||
         dynamic_cast<const po::typed_value<unsigned long>*>(semantic) != nullptr ||
         dynamic_cast<const po::typed_value<unsigned long long>*>(semantic) != nullptr;
}

// program_options reads "-1" into an unsigned option as its wrapped-around
// value (4294967295 jobs, 18446744073709551611 messages): no option of ours
// means that, so a negative number there is refused by name.
std::string negative_unsigned(const po::parsed_options& parsed, const po::options_description& options) {
  for (const po::option& given : parsed.options) {
    const po::option_description* described = options.find_nothrow(given.string_key, false);
    if (described == nullptr || !takes_unsigned(described->semantic().get())) continue;
    for (const std::string& text : given.value) {
      const std::size_t first = text.find_first_not_of(" \t");
      if (first != std::string::npos && text[first] == '-') {
        return "--" + given.string_key + " takes a whole number of 0 or more, not '" + text + "'";
      }
    }
  }
  return {};
}

// "; did you mean '--format'?" for a mistyped option, or nothing.
std::string did_you_mean(const std::string& typed, const po::options_description& options) {
  std::vector<std::string> names;
  for (const auto& option : options.options()) {
    if (!option->long_name().empty()) names.push_back("--" + option->long_name());
  }
  const std::string word = typed.substr(0, typed.find('='));
  const auto suggestion = closest_word(word, names);
  return suggestion ? "; did you mean '" + *suggestion + "'?" : "";
}

}  // namespace

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
    const po::parsed_options parsed = po::command_line_parser(arguments).options(all).positional(positional).run();
    if (std::string problem = negative_unsigned(parsed, all); !problem.empty()) return problem;
    po::store(parsed, values);
    po::notify(values);
  } catch (const po::unknown_option& e) {
    return std::string(e.what()) + did_you_mean(e.get_option_name(), options);
  } catch (const po::error& e) {
    return e.what();
  }
  return {};
}

int usage_error(std::string_view command, const std::string& message) {
  std::cerr << "tracesync " << command << ": " << snapshot::readable_text(message) << "\nTry 'tracesync " << command << " --help'.\n";
  return kBadInput;
}

}  // namespace tracesync::cli
