// SPDX-License-Identifier: EPL-2.0
#include "ingest/resumable_trace_reader.h"

#include "ingest/ctf_trace_reader.h"
#include "ingest/scanner_trace_reader.h"

namespace tracesync::ingest {

std::unique_ptr<ResumableTraceReader> make_trace_reader(TraceSource source, match::TraceIndex index,
                                                        const ReaderOptions& options, EventSink& sink) {
  if (options.reader == ReaderChoice::kBabeltrace2) {
    auto reader = std::make_unique<CtfTraceReader>(std::move(source), index, options, sink);
    reader->say_reader("babeltrace2", "--reader babeltrace2");
    return reader;
  }
  auto scanner = std::make_unique<ScannerTraceReader>(source, index, options, sink);
  if (options.reader == ReaderChoice::kScanner) {
    scanner->say_reader("scanner", "--reader scanner");
    return scanner;
  }
  if (scanner->covered()) {
    scanner->say_reader("scanner", "--reader auto: the scanner's plans cover the trace");
    return scanner;
  }
  const std::string why = "--reader auto: the scanner cannot read it (" + scanner->not_covered() + ")";
  scanner.reset();
  auto reader = std::make_unique<CtfTraceReader>(std::move(source), index, options, sink);
  reader->say_reader("babeltrace2", why);
  return reader;
}

}  // namespace tracesync::ingest
