// SPDX-License-Identifier: EPL-2.0
#include "simulate/output_directory.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <vector>

#include "simulate/simulation_error.h"

namespace tracesync::simulate {
namespace {

namespace fs = std::filesystem;

bool is_previous_output(const fs::directory_entry& entry) {
  std::error_code error;
  const std::string name = entry.path().filename().string();
  // A run cut short may leave its temporary beside (NAME.partial-PID-N, or
  // NAME.partial from versions before base::WholeFile).
  const auto is_file_or_its_temporary = [&](std::string_view file) {
    return name == file || name.starts_with(std::string(file) + ".partial");
  };
  if (is_file_or_its_temporary("truth.json") || is_file_or_its_temporary("matches.txt")) {
    return entry.is_regular_file(error);
  }
  return entry.is_directory(error) && (fs::is_regular_file(entry.path() / "kernel" / "metadata", error) ||
                                       fs::is_regular_file(entry.path() / kUserSpaceTracePath / "metadata", error));
}

}  // namespace

void prepare_output_directory(const std::string& directory, bool overwrite) {
  const fs::path path(directory);
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (fs::exists(status) && !fs::is_directory(status)) {
    throw SimulationError("--output " + directory + ": exists and is not a directory");
  }
  if (!fs::exists(status)) {
    if (!fs::create_directories(path, error) && error) {
      throw SimulationError("--output " + directory + ": cannot create the directory: " + error.message());
    }
  }
  if (::access(path.c_str(), W_OK | X_OK) != 0) {
    throw SimulationError("--output " + directory + ": cannot write there: " + std::strerror(errno));
  }

  std::vector<fs::directory_entry> entries;
  for (fs::directory_iterator it(path, error), end; !error && it != end; it.increment(error)) entries.push_back(*it);
  if (error) throw SimulationError("--output " + directory + ": cannot list the directory: " + error.message());
  if (entries.empty()) return;
  if (!overwrite) {
    throw SimulationError("--output " + directory +
                          ": the directory is not empty; choose an empty one, or pass --overwrite to replace a "
                          "previous simulation there");
  }
  for (const auto& entry : entries) {
    if (!is_previous_output(entry)) continue;
    fs::remove_all(entry.path(), error);
    if (error) {
      throw SimulationError("--output " + directory + ": cannot remove the previous " +
                            entry.path().filename().string() + ": " + error.message());
    }
  }
}

}  // namespace tracesync::simulate
