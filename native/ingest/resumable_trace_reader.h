// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <memory>
#include <string>

#include "ingest/event_sink.h"
#include "ingest/resume_point.h"
#include "ingest/trace_reader.h"
#include "ingest/trace_source.h"

namespace tracesync::ingest {

struct ReaderOptions;

// A reader of one trace in this process that can go on where a reader of
// the same kind that died stopped (a reading process's readers):
// CtfTraceReader and ScannerTraceReader.
class ResumableTraceReader : public TraceReader {
 public:
  // Before the first step: what `delivered` covers is read, not given again.
  virtual void resume_after(ResumePoint delivered) = 0;
  // What this reader and its predecessors gave the sink so far.
  virtual ResumePoint resume_point() const = 0;
  // Which reader this is and why it was chosen, for TraceInfo.
  virtual void say_reader(std::string reader, std::string why) = 0;
};

// The reader `options.reader` chooses for the trace. kAuto: the scanner when
// its plans cover the trace, else babeltrace2, and TraceInfo::reader_reason
// says why. The same trace and options always give the same choice (a
// resumed trace is read by the same reader).
std::unique_ptr<ResumableTraceReader> make_trace_reader(TraceSource source, match::TraceIndex index,
                                                        const ReaderOptions& options, EventSink& sink);

}  // namespace tracesync::ingest
