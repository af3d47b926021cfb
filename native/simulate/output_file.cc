#include "simulate/output_file.h"

#include <cerrno>
#include <cstring>

#include "simulate/simulation_error.h"

namespace tracesync::simulate {

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  file_ = std::fopen(path_.c_str(), "wb");
  if (file_ == nullptr) fail();
  std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
}

OutputFile::~OutputFile() {
  if (file_ != nullptr) std::fclose(file_);
}

void OutputFile::close() {
  std::FILE* file = file_;
  file_ = nullptr;
  if (std::fclose(file) != 0) {
    throw SimulationError("cannot write " + path_ + ": " + std::strerror(errno));
  }
}

void OutputFile::fail() const {
  throw SimulationError("cannot write " + path_ + ": " + std::strerror(errno));
}

}  // namespace tracesync::simulate
