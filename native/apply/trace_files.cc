// SPDX-License-Identifier: EPL-2.0
#include "apply/trace_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>
#include <vector>

namespace tracesync::apply {
namespace fs = std::filesystem;
namespace {

std::string failure(const std::string& what, const fs::path& file, const std::error_code& ec) {
  return what + " " + file.string() + ": " + ec.message();
}

// A plain read/write copy: the kernel's own copy paths (sendfile) report a
// full tmpfs as an I/O error, and the user needs to read "No space left".
std::string copy_bytes(const fs::path& from, const fs::path& to) {
  const int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) return "cannot open " + from.string() + ": " + std::strerror(errno);
  const int out = ::open(to.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (out < 0) {
    const std::string why = std::strerror(errno);
    ::close(in);
    return "cannot create " + to.string() + ": " + why;
  }
  std::string problem;
  std::vector<char> buffer(1 << 20);
  while (problem.empty()) {
    const ssize_t n = ::read(in, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) problem = "cannot read " + from.string() + ": " + std::strerror(errno);
    if (n <= 0) break;
    for (ssize_t done = 0; done < n && problem.empty();) {
      const ssize_t w = ::write(out, buffer.data() + done, static_cast<std::size_t>(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) problem = "cannot write " + to.string() + ": " + (w < 0 ? std::strerror(errno) : "nothing written");
      if (w > 0) done += w;
    }
  }
  ::close(in);
  if (::close(out) != 0 && problem.empty()) problem = "cannot write " + to.string() + ": " + std::strerror(errno);
  return problem;
}

}  // namespace

std::string mirror_trace_files(const fs::path& from, const fs::path& to, FilePolicy policy, FileCounts* counts) {
  std::error_code ec;
  fs::create_directories(to, ec);
  if (ec) return failure("cannot create", to, ec);
  bool try_link = policy == FilePolicy::kLinkWhenPossible;
  for (fs::recursive_directory_iterator it(from, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path relative = it->path().lexically_relative(from);
    const fs::path target = to / relative;
    if (it->is_directory(ec)) {
      fs::create_directories(target, ec);
      if (ec) return failure("cannot create", target, ec);
      continue;
    }
    if (!it->is_regular_file(ec) || relative == "metadata") continue;
    const uint64_t size = it->file_size(ec);
    if (ec) return failure("cannot read", it->path(), ec);
    if (try_link) {
      fs::create_hard_link(it->path(), target, ec);
      if (!ec) {
        ++counts->linked;
        counts->bytes += size;
        continue;
      }
      // Another file system, or one without hard links: copy from now on.
      if (ec != std::errc::cross_device_link && ec != std::errc::operation_not_permitted &&
          ec != std::errc::function_not_supported) {
        return failure("cannot link", target, ec);
      }
      try_link = false;
      ec.clear();
    }
    if (std::string problem = copy_bytes(it->path(), target); !problem.empty()) return problem;
    ++counts->copied;
    counts->bytes += size;
  }
  if (ec) return failure("cannot list", from, ec);
  return {};
}

std::string write_file(const fs::path& file, const std::string& text) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return "cannot create " + file.string() + ": " + std::strerror(errno);
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = n < 0 ? std::strerror(errno) : "nothing written";
      ::close(fd);
      return "cannot write " + file.string() + ": " + why;
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) return "cannot write " + file.string() + ": " + std::strerror(errno);
  return {};
}

}  // namespace tracesync::apply
