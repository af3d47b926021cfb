// SPDX-License-Identifier: EPL-2.0
#include "simulate/output_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "simulate/simulation_error.h"

namespace tracesync::simulate {

OutputFile::OutputFile(std::string path) : path_(std::move(path)), partial_path_(path_ + ".partial") {
  file_ = std::fopen(partial_path_.c_str(), "wb");
  if (file_ == nullptr) fail();
  buffer_.reserve(kFlushAt + 4096);
}

OutputFile::~OutputFile() {
  if (file_ != nullptr) {
    std::fclose(file_);
    std::remove(partial_path_.c_str());
  }
}

void OutputFile::flush() {
  if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) fail();
  buffer_.clear();
}

void OutputFile::close() {
  flush();
  // The data must be on disk before the name points at it, or a crash could
  // leave an empty file under the final name.
  if (std::fflush(file_) != 0 || ::fsync(::fileno(file_)) != 0) fail();
  std::FILE* file = std::exchange(file_, nullptr);
  if (std::fclose(file) != 0) {
    const int error = errno;
    std::remove(partial_path_.c_str());
    errno = error;
    fail();
  }
  if (std::rename(partial_path_.c_str(), path_.c_str()) != 0) {
    const int error = errno;
    std::remove(partial_path_.c_str());
    errno = error;
    fail();
  }
}

void OutputFile::fail() const {
  throw SimulationError("cannot write " + path_ + ": " + std::strerror(errno));
}

}  // namespace tracesync::simulate
