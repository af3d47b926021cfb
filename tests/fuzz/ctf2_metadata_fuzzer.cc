// SPDX-License-Identifier: EPL-2.0
// libFuzzer target: trace metadata through our own parsers (issue 38): the
// input as a metadata text, CTF 2 (a JSON text sequence) or CTF 1.8 TSDL as
// its first byte says, parsed into a TraceClass; when it parses, its read
// plans compiled (every integer field asked for), and the class written as
// CTF 2 and read back, and as CTF 1.8 TSDL and read back.
//
// What must hold: every input ends in a TraceClass or an error in words
// (never a crash, a hang or a sanitizer report); what the translator writes
// the CTF 2 parser reads, and writing what it read gives the same text again;
// what the TSDL writer writes (or refuses in words) the TSDL parser reads.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ctf/ctf2_metadata.h"
#include "ctf/ctf2_writer.h"
#include "ctf/scan_plan.h"
#include "ctf/trace_metadata.h"
#include "ctf/tsdl_parser.h"
#include "ctf/tsdl_writer.h"
#include "fuzz_check.h"

namespace {

using tracesync::ctf::FieldClass;
using tracesync::ctf::FieldRequest;
using tracesync::ctf::Scope;

void integer_leaves(const FieldClass& fc, Scope scope, std::vector<std::string>& path, std::vector<FieldRequest>& out,
                    int depth) {
  if (depth > 16) return;
  if (fc.is_integer()) out.push_back({scope, path});
  for (const auto& m : fc.members) {
    path.push_back(m.name);
    integer_leaves(*m.type, scope, path, out, depth + 1);
    path.pop_back();
  }
}

std::string written(const tracesync::ctf::TraceClass& trace) {
  std::string error;
  const auto text = tracesync::ctf::write_ctf2(trace, &error);
  FUZZ_CHECK(text || !error.empty());
  return text ? *text : std::string();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string error;
  auto metadata = tracesync::ctf::parse_trace_metadata(text, &error);
  if (!metadata) {
    FUZZ_CHECK(!error.empty());
    return 0;
  }
  // Written as CTF 2 and read back: it parses, and settles after one round
  // (the first writing may order mappings as TSDL did).
  const std::string first = written(metadata->trace);
  if (!first.empty()) {
    auto again = tracesync::ctf::parse_ctf2(first, &error);
    FUZZ_CHECK(again.has_value());
    const std::string second = written(*again);
    FUZZ_CHECK(!second.empty());
    auto third = tracesync::ctf::parse_ctf2(second, &error);
    FUZZ_CHECK(third.has_value());
    FUZZ_CHECK(written(*third) == second);
  }
  // As CTF 1.8: TSDL the TSDL parser reads, or a refusal in words.
  if (const auto tsdl = tracesync::ctf::write_tsdl(metadata->trace, &error)) {
    FUZZ_CHECK(tracesync::ctf::parse_tsdl(*tsdl, &error).has_value());
  } else {
    FUZZ_CHECK(!error.empty());
  }
  // The plans: compiled, or refused in words.
  auto plan = tracesync::ctf::ScanPlan::compile(
      std::move(metadata->trace),
      [](const tracesync::ctf::EventClass& event) -> std::optional<std::vector<FieldRequest>> {
        std::vector<FieldRequest> requests;
        std::vector<std::string> path;
        if (event.context) integer_leaves(*event.context, Scope::kEventContext, path, requests, 0);
        if (event.payload) integer_leaves(*event.payload, Scope::kEventPayload, path, requests, 0);
        return requests;
      },
      &error);
  FUZZ_CHECK(plan.has_value() || !error.empty());
  return 0;
}
