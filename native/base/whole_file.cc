// SPDX-License-Identifier: EPL-2.0
#include "base/whole_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <streambuf>
#include <vector>

namespace tracesync::base {
namespace {

namespace fs = std::filesystem;

// Makes a new, empty file beside `target` for the temporary copy: its
// descriptor and name, or -1 with errno set. Made with O_EXCL: never
// another's file, nor a file a link there points to.
int make_temporary_beside(const std::string& target, std::string& name) {
  const std::string stem = target + ".partial-" + std::to_string(getpid()) + "-";
  for (int attempt = 0; attempt < 100; ++attempt) {
    name = stem + std::to_string(attempt);
    const int fd = open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);  // the umask applies
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1;
}

// Makes a rename in the directory holding `file` last through a crash; 0
// or errno.
int sync_directory_of(const std::string& file) {
  fs::path directory = fs::path(file).parent_path();
  if (directory.empty()) directory = ".";
  const int fd = open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return errno;
  const int error = fsync(fd) == 0 ? 0 : errno;
  close(fd);
  return error;
}

// An ostream's way into a stdio stream, in blocks of 64 KiB; the errno of
// the first write that failed is kept (the stream says only that it failed).
class StdioBuffer final : public std::streambuf {
 public:
  explicit StdioBuffer(std::FILE* file) : file_(file), buffer_(64 << 10) { restart(); }
  int failed_errno() const { return failed_errno_; }

 protected:
  int_type overflow(int_type c) override {
    if (!write_out()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return write_out() ? 0 : -1; }

 private:
  void restart() { setp(buffer_.data(), buffer_.data() + buffer_.size()); }
  bool write_out() {
    const auto size = static_cast<std::size_t>(pptr() - pbase());
    errno = 0;
    const bool whole = size == 0 || std::fwrite(pbase(), 1, size, file_) == size;
    if (!whole && failed_errno_ == 0) failed_errno_ = errno != 0 ? errno : EIO;
    restart();
    return whole;
  }

  std::FILE* file_;
  std::vector<char> buffer_;
  int failed_errno_ = 0;
};

}  // namespace

WholeFile::WholeFile(std::string path) : path_(std::move(path)), target_(path_) {}

WholeFile::~WholeFile() {
  if (stream_ != nullptr) std::fclose(stream_);
  if (!temporary_.empty()) std::remove(temporary_.c_str());
}

std::string WholeFile::open() {
  // Through a link, to the file it names: the link stays.
  if (std::error_code error; fs::is_symlink(path_, error)) {
    fs::path named = fs::weakly_canonical(path_, error);
    if (!error && !named.empty()) target_ = named.string();
  }
  struct stat existing {};
  existed_ = stat(target_.c_str(), &existing) == 0;
  mode_ = existing.st_mode & 07777;
  if (!existed_ || S_ISREG(existing.st_mode)) {
    const int fd = make_temporary_beside(target_, temporary_);
    if (fd >= 0) {
      stream_ = fdopen(fd, "wb");
      if (stream_ != nullptr) return {};
      const int error = errno;
      close(fd);
      return std::strerror(error);  // the destructor removes the temporary
    }
    // No file can be made there: `path` itself may still be writable (an
    // existing file in a directory we may not write), or else says why not
    // (no such directory, no permission) as it did before.
    temporary_.clear();
  }
  errno = 0;
  stream_ = std::fopen(path_.c_str(), "wb");
  return stream_ != nullptr ? "" : std::strerror(errno != 0 ? errno : EIO);
}

std::string WholeFile::commit(int failed_errno) {
  if (stream_ == nullptr) return std::strerror(EBADF);
  int error = failed_errno;
  errno = 0;
  if (std::fflush(stream_) != 0 && error == 0) error = errno != 0 ? errno : EIO;
  if (std::ferror(stream_) != 0 && error == 0) error = EIO;
  // On the disk before it takes the old file's place: a crash after the
  // rename must not leave an empty or partial file there.
  if (!temporary_.empty() && error == 0 && fsync(fileno(stream_)) != 0) error = errno;
  if (std::fclose(stream_) != 0 && error == 0) error = errno;
  stream_ = nullptr;
  if (error != 0) return std::strerror(error);  // the destructor removes the temporary
  if (temporary_.empty()) return {};
  // The old file's permissions, as writing it in place kept them.
  if (existed_) chmod(temporary_.c_str(), mode_);
  if (std::rename(temporary_.c_str(), target_.c_str()) != 0) return std::strerror(errno);
  temporary_.clear();
  if (const int directory_error = sync_directory_of(target_); directory_error != 0) {
    return std::strerror(directory_error);
  }
  return {};
}

std::string write_whole_file(const std::string& path, const std::function<void(std::ostream&)>& write) {
  WholeFile file(path);
  if (std::string why = file.open(); !why.empty()) return why;
  StdioBuffer buffer(file.stream());
  std::ostream out(&buffer);
  write(out);
  out.flush();
  return file.commit(buffer.failed_errno());
}

}  // namespace tracesync::base
