// SPDX-License-Identifier: EPL-2.0
// `tracesync to-ctf2 TRACE`: a trace's metadata (CTF 1.8 TSDL or
// CTF 2) written as CTF 2 metadata, by our own translator (TSDL ->
// TraceClass -> CTF 2 JSON). To give an existing trace CTF 2 metadata over
// its unchanged stream files, and to check what the reader makes of a
// trace's metadata.

#include <boost/program_options.hpp>

#include <filesystem>
#include <iostream>

#include "base/whole_file.h"
#include "cli/command.h"
#include "cli/command_line.h"
#include "cli/exit_codes.h"
#include "ctf/ctf2_writer.h"
#include "ctf/trace_metadata.h"

namespace tracesync::cli {
namespace {

constexpr std::string_view kCommand = "to-ctf2";

namespace po = boost::program_options;
namespace fs = std::filesystem;

}  // namespace

int run_to_ctf2(const std::vector<std::string>& arguments) {
  std::string output;
  po::options_description options("options");
  options.add_options()
      ("help,h", "print this help and exit")
      ("output,o", po::value(&output)->value_name("FILE"), "write the CTF 2 metadata to FILE (default: stdout)");
  std::vector<std::string> inputs;
  po::variables_map vm;
  if (const std::string problem = parse_arguments(arguments, options, &inputs, vm); !problem.empty()) {
    return usage_error(kCommand, problem);
  }
  if (vm.count("help")) {
    std::cout << "usage: tracesync to-ctf2 [options] TRACE\n\n"
                 "Writes the metadata of TRACE (a trace directory or its metadata file; CTF 1.8 TSDL, plain or\n"
                 "packetized, or CTF 2) as CTF 2 metadata, the format LTTng 2.15 records by default: a JSON\n"
                 "text sequence of a preamble, the trace class, the clock classes, the data stream classes\n"
                 "and their event record classes. Placed beside the trace's unchanged stream files, it makes\n"
                 "a CTF 2 trace that tracesync reads as it reads the original. Roles (packet sizes, clock,\n"
                 "event record class id) are given as CTF 1.8's member names say.\n"
                 "exit codes: 0 written, 2 bad usage, unreadable metadata or metadata CTF 2 cannot say,\n"
                 "1 the output could not be written\n\n"
              << options;
    return kSuccess;
  }
  if (inputs.size() != 1) return usage_error(kCommand, "expected one TRACE (a directory or a metadata file)");
  fs::path file = inputs[0];
  std::error_code ec;
  if (fs::is_directory(file, ec)) file /= "metadata";
  std::string error;
  const auto metadata = ctf::read_trace_metadata(file, &error);
  if (!metadata) {
    // Errors reading the file name it; the parsers' name a line or fragment.
    std::cerr << "tracesync to-ctf2: " << (error.rfind(file.string(), 0) == 0 ? "" : file.string() + ": ") << error
              << "\n";
    return kBadInput;
  }
  const auto text = ctf::write_ctf2(metadata->trace, &error);
  if (!text) {
    std::cerr << "tracesync to-ctf2: " << file.string() << ": cannot be said in CTF 2: " << error << "\n";
    return kBadInput;
  }
  if (output.empty()) {
    std::cout << *text;
    std::cout.flush();
    if (!std::cout) {
      std::cerr << "tracesync to-ctf2: cannot write to stdout\n";
      return kInternalError;
    }
    return kSuccess;
  }
  // Whole or not at all: a metadata file cut short would describe a trace wrongly.
  const std::string why = base::write_whole_file(output, [&](std::ostream& out) { out << *text; });
  if (!why.empty()) {
    std::cerr << "tracesync to-ctf2: " << output << ": cannot be written: " << why << "\n";
    return kInternalError;
  }
  return kSuccess;
}

}  // namespace tracesync::cli
