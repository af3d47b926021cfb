// SPDX-License-Identifier: EPL-2.0
#include "apply/tsdl_of.h"

#include <optional>

#include "apply/trace_events.h"
#include "apply/tsdl_metadata.h"

namespace tracesync::apply::testing {

std::string tsdl_of(const std::string& trace_directory, std::string* unsupported) {
  std::optional<std::string> text;
  read_trace_events(trace_directory, [&](const bt_trace* ir) { text = tsdl_metadata(ir, unsupported); });
  return text.value_or("");
}

}  // namespace tracesync::apply::testing
