// SPDX-License-Identifier: EPL-2.0
#include "simulate/ctf2_metadata_file.h"

#include <filesystem>
#include <fstream>

#include "ctf/ctf2_writer.h"
#include "ctf/trace_metadata.h"
#include "simulate/simulation_error.h"

namespace tracesync::simulate {

void rewrite_metadata_as_ctf2(const std::string& trace_directory) {
  const std::filesystem::path file = std::filesystem::path(trace_directory) / "metadata";
  std::string error;
  const auto metadata = ctf::read_trace_metadata(file, &error);
  if (!metadata) throw SimulationError(file.string() + ": cannot be translated to CTF 2: " + error);
  const auto text = ctf::write_ctf2(metadata->trace, &error);
  if (!text) throw SimulationError(file.string() + ": cannot be translated to CTF 2: " + error);
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << *text;
  out.close();
  if (!out) throw SimulationError(file.string() + ": cannot be written");
}

}  // namespace tracesync::simulate
