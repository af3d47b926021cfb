// SPDX-License-Identifier: EPL-2.0
#include "simulate/output_file.h"

#include <cerrno>
#include <cstring>
#include <utility>

#include "simulate/simulation_error.h"

namespace tracesync::simulate {

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  if (path_ == "-") {
    file_ = stdout;
  } else {
    whole_ = std::make_unique<base::WholeFile>(path_);
    if (const std::string why = whole_->open(); !why.empty()) fail(why);
    file_ = whole_->stream();
  }
  buffer_.reserve(kFlushAt + 4096);
}

// An uncommitted WholeFile removes its temporary; a stream keeps what it was
// given, and only what is still buffered is lost.
OutputFile::~OutputFile() = default;

void OutputFile::flush() {
  errno = 0;
  if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) {
    failed_errno_ = errno != 0 ? errno : EIO;
    fail(std::strerror(failed_errno_));
  }
  buffer_.clear();
}

void OutputFile::close() {
  flush();
  if (whole_ == nullptr) {
    errno = 0;
    if (std::fflush(file_) != 0) fail(std::strerror(errno != 0 ? errno : EIO));
    return;
  }
  file_ = nullptr;
  if (const std::string why = whole_->commit(failed_errno_); !why.empty()) fail(why);
  whole_.reset();
}

void OutputFile::fail(const std::string& why) const {
  throw SimulationError("cannot write " + (path_ == "-" ? std::string("to standard output") : path_) + ": " + why);
}

}  // namespace tracesync::simulate
