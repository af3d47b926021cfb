#include "ingest/bt_error.h"

#include <babeltrace2/babeltrace.h>

#include <regex>

#include "ingest/bt_ref.h"

namespace tracesync::ingest {

std::string tidy_bt_message(std::string_view message) {
  // "msg-it-addr=0x55d0c0ffee00, " and the like only help a debugger.
  static const std::regex kAddress(R"([A-Za-z-]*addr=0x[0-9A-Fa-f]+(,\s*)?)");
  static const std::regex kSpaces(R"(\s+)");
  std::string text = std::regex_replace(std::string(message), kAddress, "");
  text = std::regex_replace(text, kSpaces, " ");
  while (!text.empty() && (text.back() == ' ' || text.back() == ',' || text.back() == ':')) text.pop_back();
  while (!text.empty() && text.front() == ' ') text.erase(text.begin());
  return text;
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

}  // namespace tracesync::ingest
