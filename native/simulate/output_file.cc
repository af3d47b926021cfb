#include "simulate/output_file.h"

#include <cerrno>
#include <cstring>
#include <utility>

#include "simulate/simulation_error.h"

namespace tracesync::simulate {

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  file_ = std::fopen(path_.c_str(), "wb");
  if (file_ == nullptr) fail();
  buffer_.reserve(kFlushAt + 4096);
}

OutputFile::~OutputFile() {
  if (file_ != nullptr) std::fclose(file_);
}

void OutputFile::flush() {
  if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) fail();
  buffer_.clear();
}

void OutputFile::close() {
  flush();
  std::FILE* file = std::exchange(file_, nullptr);
  if (std::fclose(file) != 0) fail();
}

void OutputFile::fail() const {
  throw SimulationError("cannot write " + path_ + ": " + std::strerror(errno));
}

}  // namespace tracesync::simulate
