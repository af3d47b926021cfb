// SPDX-License-Identifier: EPL-2.0
#include "simulate/output_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "simulate/simulation_error.h"

namespace tracesync::simulate {

namespace {

bool is_stream(const std::string& path) {
  if (path == "-") return true;
  struct stat status {};
  return ::stat(path.c_str(), &status) == 0 && (S_ISFIFO(status.st_mode) || S_ISCHR(status.st_mode));
}

}  // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  if (path_ == "-") {
    file_ = stdout;
  } else if (is_stream(path_)) {
    file_ = std::fopen(path_.c_str(), "wb");
  } else {
    partial_path_ = path_ + ".partial";
    file_ = std::fopen(partial_path_.c_str(), "wb");
  }
  if (file_ == nullptr) fail();
  buffer_.reserve(kFlushAt + 4096);
}

OutputFile::~OutputFile() {
  if (file_ == nullptr) return;
  if (partial_path_.empty()) {
    // A stream keeps what it was given; only what is still buffered is lost.
    if (file_ != stdout) std::fclose(file_);
    return;
  }
  std::fclose(file_);
  std::remove(partial_path_.c_str());
}

void OutputFile::flush() {
  if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) fail();
  buffer_.clear();
}

void OutputFile::close() {
  flush();
  if (partial_path_.empty()) {
    // A pipe cannot be synced, and a stream has no final name to take.
    std::FILE* file = std::exchange(file_, nullptr);
    if (std::fflush(file) != 0) fail();
    if (file != stdout && std::fclose(file) != 0) fail();
    return;
  }
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
  throw SimulationError("cannot write " + (path_ == "-" ? std::string("to standard output") : path_) + ": " +
                        std::strerror(errno));
}

}  // namespace tracesync::simulate
