// SPDX-License-Identifier: EPL-2.0
#include "cli/trace_reading.h"

#include "cli/reading_process_command.h"
#include "snapshot/utf8.h"

namespace tracesync::cli {

std::variant<TraceReading, std::string> choose_trace_reading(std::string_view reader_option, bool in_process) {
  TraceReading reading;
  const auto reader = ingest::parse_reader_choice(reader_option);
  if (!reader) {
    return "--reader must be auto, scanner or babeltrace2, not '" + snapshot::readable_text(reader_option) + "'";
  }
  reading.reader = *reader;
  if (!in_process) {
    auto command = reading_process_command();
    if (!command) {
      return std::string("cannot find this program's own file (/proc/self/exe) to read traces with; try --in-process");
    }
    reading.reading_command = std::move(*command);
  }
  return reading;
}

}  // namespace tracesync::cli
