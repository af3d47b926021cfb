// SPDX-License-Identifier: EPL-2.0
#include "bt/error.h"

#include <babeltrace2/babeltrace.h>

#include <cctype>

#include "bt/ref.h"

namespace tracesync::bt {

namespace {

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'; }
bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

}  // namespace

std::string tidy_bt_message(std::string_view message) {
  // "msg-it-addr=0x55d0c0ffee00, " and the like only help a debugger.
  std::string text(message);
  for (std::size_t at = text.find("addr=0x"); at != std::string::npos; at = text.find("addr=0x", at)) {
    std::size_t begin = at;
    while (begin > 0 && is_name_char(text[begin - 1])) --begin;
    std::size_t end = at + 7;
    while (end < text.size() && std::isxdigit(static_cast<unsigned char>(text[end]))) ++end;
    if (end < text.size() && text[end] == ',') ++end;
    while (end < text.size() && is_space(text[end])) ++end;
    text.erase(begin, end - begin);
    at = begin;
  }
  // One line, single spaces, no dangling separator.
  std::string out;
  for (char c : text) {
    if (is_space(c)) {
      if (!out.empty() && out.back() != ' ') out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == ',' || out.back() == ':')) out.pop_back();
  return out;
}

std::string take_bt_error(std::string_view fallback) {
  const ErrorRef error(bt_current_thread_take_error());
  if (!error) return std::string(fallback);
  // Cause 0 was appended first, where the problem was found; each later one
  // by a caller further out ("Component initialization method failed").
  const uint64_t count = bt_error_get_cause_count(error.get());
  for (uint64_t i = 0; i < count; ++i) {
    const char* message = bt_error_cause_get_message(bt_error_borrow_cause_by_index(error.get(), i));
    if (message != nullptr && *message != '\0') return tidy_bt_message(message);
  }
  return std::string(fallback);
}

std::string take_bt_error_causes() {
  const ErrorRef error(bt_current_thread_take_error());
  if (!error) return {};
  std::string text;
  const uint64_t count = bt_error_get_cause_count(error.get());
  for (uint64_t i = 0; i < count; ++i) {
    const bt_error_cause* cause = bt_error_borrow_cause_by_index(error.get(), i);
    if (!text.empty()) text += "; ";
    text += bt_error_cause_get_module_name(cause);
    text += ": ";
    text += bt_error_cause_get_message(cause);
  }
  return text;
}

}  // namespace tracesync::bt
