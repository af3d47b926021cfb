// SPDX-License-Identifier: EPL-2.0
#include "ingest/directory_listing.h"

#include <dirent.h>

#include <cerrno>
#include <new>
#include <string_view>

namespace tracesync::ingest {

std::optional<std::vector<std::string>> list_directory(const std::string& directory, std::error_code& error) {
  error.clear();
  DIR* listing = ::opendir(directory.c_str());
  if (listing == nullptr) {
    if (errno == ENOMEM) throw std::bad_alloc();
    error = std::error_code(errno, std::generic_category());
    return std::nullopt;
  }
  struct Closer {
    DIR* listing;
    ~Closer() { ::closedir(listing); }
  } closer{listing};
  std::vector<std::string> names;
  for (;;) {
    errno = 0;
    const dirent* entry = ::readdir(listing);
    if (entry == nullptr) break;
    const std::string_view name = entry->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
  }
  if (errno != 0) {
    if (errno == ENOMEM) throw std::bad_alloc();
    error = std::error_code(errno, std::generic_category());
    return std::nullopt;
  }
  return names;
}

}  // namespace tracesync::ingest
