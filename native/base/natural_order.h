// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstddef>
#include <string_view>

namespace tracesync::base {

// Whether `a` comes before `b` in the order people expect of names: runs of
// digits compare by their value ("host2" < "host10"), everything else byte
// by byte. Names equal that way ("host01", "host1") fall back to byte order,
// so this is a strict total order and sorting by it is deterministic.
inline bool natural_less(std::string_view a, std::string_view b) {
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      const std::size_t a_begin = i;
      const std::size_t b_begin = j;
      while (i < a.size() && digit(a[i])) ++i;
      while (j < b.size() && digit(b[j])) ++j;
      std::string_view x = a.substr(a_begin, i - a_begin);
      std::string_view y = b.substr(b_begin, j - b_begin);
      while (x.size() > 1 && x.front() == '0') x.remove_prefix(1);  // the value, however long
      while (y.size() > 1 && y.front() == '0') y.remove_prefix(1);
      if (x.size() != y.size()) return x.size() < y.size();
      if (x != y) return x < y;
      continue;
    }
    if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
    ++i;
    ++j;
  }
  if (a.size() - i != b.size() - j) return a.size() - i < b.size() - j;
  return a < b;
}

}  // namespace tracesync::base
