// SPDX-License-Identifier: EPL-2.0
#include "ingest/resumable_trace_reader.h"

#include <filesystem>

#include "ctf/trace_metadata.h"
#include "ingest/ctf_trace_reader.h"
#include "ingest/scanner_trace_reader.h"

namespace tracesync::ingest {

std::unique_ptr<ResumableTraceReader> make_trace_reader(TraceSource source, match::TraceIndex index,
                                                        const ReaderOptions& options, EventSink& sink) {
  // babeltrace2 2.0 (Debian 12's) cannot read CTF 2, LTTng 2.15's default:
  // the scanner is its only reader, whatever `--reader` says (the reason
  // says so), and what the scanner cannot give ends the trace with a
  // problem saying why.
  if (ctf::metadata_file_format(std::filesystem::path(source.path) / "metadata") == ctf::MetadataFormat::kCtf2) {
    auto scanner = std::make_unique<ScannerTraceReader>(source, index, options, sink);
    scanner->say_reader("scanner", std::string("--reader ") + std::string(to_string(options.reader)) +
                                       ": the trace is CTF 2, which babeltrace2 2.0 cannot read");
    return scanner;
  }
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
  if (scanner->out_of_memory()) {
    // Memory ran out compiling its plans: that says nothing of the trace,
    // and the trace is reported out of memory, as babeltrace2's would be.
    scanner->say_reader("scanner", "--reader auto");
    return scanner;
  }
  const std::string why = "--reader auto: the scanner cannot read it (" + scanner->not_covered() + ")";
  scanner.reset();
  auto reader = std::make_unique<CtfTraceReader>(std::move(source), index, options, sink);
  reader->say_reader("babeltrace2", why);
  return reader;
}

}  // namespace tracesync::ingest
