// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <boost/program_options.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace tracesync::cli {

// Parses a subcommand's arguments against `options` into `values`. Arguments
// that are not options go to `positionals`, or are an error when it is null.
// Returns the problem in words, or an empty string.
std::string parse_arguments(const std::vector<std::string>& arguments,
                            const boost::program_options::options_description& options,
                            std::vector<std::string>* positionals, boost::program_options::variables_map& values);

// Tells the user on stderr what was wrong with `tracesync <command> ...` and
// where to look; returns the exit code for bad usage.
int usage_error(std::string_view command, const std::string& message);

}  // namespace tracesync::cli
