// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <string>

#include "snapshot/certificate.h"
#include "snapshot/tracesync.pb.h"

namespace tracesync::cli {

enum class ReportFormat { kText, kJson, kProtobuf, kHtml };

std::optional<ReportFormat> parse_report_format(const std::string& name);

// Writes the report to `path`, or to stdout when it is empty. Returns an
// error message, or an empty string on success. Binary protobuf is not
// written to a terminal.
// `one_line` writes JSON on a single line (after --history's JSON Lines).
std::string write_report(const v1::Snapshot& snapshot, ReportFormat format, const std::string& path,
                         bool one_line = false);

// Writes the snapshot's certificate (docs/verify.md) to `path`, each cited
// event's trace and stream file named by `cite` when given; an error
// message, or an empty string on success.
std::string write_certificate(const v1::Snapshot& snapshot, const std::string& path,
                              const snapshot::EventCitation& cite = {});

}  // namespace tracesync::cli
