// SPDX-License-Identifier: EPL-2.0
#include "cli/report_writer.h"

#include <unistd.h>

#include <functional>
#include <iostream>

#include "base/whole_file.h"
#include "cli/colour.h"
#include "snapshot/certificate.h"
#include "snapshot/html_report.h"
#include "snapshot/json_report.h"
#include "snapshot/text_report.h"

namespace tracesync::cli {
namespace {

// Writes the file `path` with `write`, whole or not at all (a failed write
// leaves the old file); an error message naming `what`, or "".
std::string write_file(const std::function<void(std::ostream&)>& write, const std::string& path,
                       const std::string& what) {
  const std::string why = base::write_whole_file(path, write);
  return why.empty() ? "" : "could not write the " + what + " to '" + path + "': " + why;
}

std::string write_file(const std::string& bytes, const std::string& path, const std::string& what) {
  return write_file([&](std::ostream& out) { out.write(bytes.data(), static_cast<std::streamsize>(bytes.size())); },
                    path, what);
}

}  // namespace

std::optional<ReportFormat> parse_report_format(const std::string& name) {
  if (name == "text") return ReportFormat::kText;
  if (name == "json") return ReportFormat::kJson;
  if (name == "protobuf") return ReportFormat::kProtobuf;
  if (name == "html") return ReportFormat::kHtml;
  return std::nullopt;
}

std::string write_report(const v1::Snapshot& snapshot, ReportFormat format, const std::string& path,
                         bool one_line) {
  if (format == ReportFormat::kJson) {
    // Written as it is made: a day's report is never held whole (docs/performance.md).
    const auto write = [&](std::ostream& out) { snapshot::write_json(snapshot, one_line ? -1 : 2, out); };
    if (!path.empty()) return write_file(write, path, "report");
    write(std::cout);
    std::cout.flush();
    return std::cout ? "" : "could not write the report to standard output";
  }
  std::string bytes;
  switch (format) {
    case ReportFormat::kText:
      bytes = snapshot::to_text(snapshot);
      if (path.empty() && colour_wanted(STDOUT_FILENO)) bytes = paint_report(std::move(bytes));
      break;
    case ReportFormat::kJson: break;  // above
    case ReportFormat::kHtml: bytes = snapshot::to_html(snapshot); break;
    case ReportFormat::kProtobuf:
      if (path.empty() && isatty(STDOUT_FILENO) == 1) {
        return "refusing to write binary protobuf to a terminal; use --output FILE or a pipe";
      }
      if (!snapshot.SerializeToString(&bytes)) return "could not serialize the snapshot";
      break;
  }
  if (path.empty()) {
    std::cout.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    std::cout.flush();
    return std::cout ? "" : "could not write the report to standard output";
  }
  return write_file(bytes, path, "report");
}

std::string write_certificate(const v1::Snapshot& snapshot, const std::string& path,
                              const snapshot::EventCitation& cite) {
  // Written as it is made, like the JSON report: a bending day's segments
  // are never held as one document (docs/performance.md).
  return write_file([&](std::ostream& out) { snapshot::write_certificate(snapshot, 2, out, cite); }, path,
                    "certificate");
}

}  // namespace tracesync::cli
