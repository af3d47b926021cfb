#include "simulate/bt_error.h"

#include <babeltrace2/babeltrace.h>

namespace tracesync::simulate {

std::string take_babeltrace_error() {
  const bt_error* error = bt_current_thread_take_error();
  if (error == nullptr) return {};
  std::string text;
  const uint64_t causes = bt_error_get_cause_count(error);
  for (uint64_t i = 0; i < causes; ++i) {
    const bt_error_cause* cause = bt_error_borrow_cause_by_index(error, i);
    if (!text.empty()) text += "; ";
    text += bt_error_cause_get_module_name(cause);
    text += ": ";
    text += bt_error_cause_get_message(cause);
  }
  bt_error_release(error);
  return text;
}

}  // namespace tracesync::simulate
