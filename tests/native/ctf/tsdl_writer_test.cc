// SPDX-License-Identifier: EPL-2.0
// The CTF 2 to CTF 1.8 translator (ctf/tsdl_writer), apply's way to have
// babeltrace2 2.0 read a CTF 2 trace: each CTF 2 twin of tests/data/ctf2
// written as TSDL reads as its CTF 1.8 twin's own TSDL does, so does the TSDL
// of each twin written again, and what CTF 1.8 cannot say is refused naming
// the field.
#include <gtest/gtest.h>

#include <string>

#include "ctf/ctf2_metadata.h"
#include "ctf/metadata_text.h"
#include "ctf/tsdl_parser.h"
#include "ctf/tsdl_writer.h"
#include "ctf2_twins.h"

namespace tracesync::ctf {
namespace {

using namespace testing;  // NOLINT: the twins' helpers

TraceClass parsed(const std::string& text) {
  std::string error;
  auto trace = text.front() == '\x1e' ? parse_ctf2(text, &error) : parse_tsdl(text, &error);
  EXPECT_TRUE(trace) << error << "\n" << text.substr(0, 2000);
  return trace ? std::move(*trace) : TraceClass{};
}

std::string tsdl_of(const TraceClass& trace) {
  std::string error;
  const auto text = write_tsdl(trace, &error);
  EXPECT_TRUE(text) << error;
  return text ? *text : std::string();
}

std::string refusal(const std::string& ctf2) {
  std::string error;
  EXPECT_FALSE(write_tsdl(parsed(ctf2), &error));
  return error;
}

TEST(TsdlWriter, Ctf2TwinsWrittenAsTsdlReadAsTheirCtf18Twins) {
  for (const char* twin : {"trace-with-index", "lttng-crash", "lttng-event-after-packet", "smalltrace",
                           "meta-variant-no-underscore"}) {
    SCOPED_TRACE(twin);
    const TraceClass ctf2 = parsed(file_text(kCtf2Data / twin / "ctf2" / "metadata"));
    std::string error;
    const auto text = read_metadata_text(kCtf2Data / twin / "ctf18" / "metadata", &error);
    ASSERT_TRUE(text) << error;
    const TraceClass ctf18 = parsed(*text);
    const std::string written = tsdl_of(ctf2);
    ASSERT_EQ(written.rfind("/* CTF 1.8 */", 0), 0u);
    // Roles aside (TSDL has none; the names say them): the same layout.
    EXPECT_EQ(LayoutText::of(parsed(written), false), LayoutText::of(ctf18, false)) << written;
    // The CTF 1.8 twin written again: the same too.
    EXPECT_EQ(LayoutText::of(parsed(tsdl_of(ctf18)), false), LayoutText::of(ctf18, false));
  }
}

TEST(TsdlWriter, WhatCtf18CannotSayIsRefusedNamingTheField) {
  const std::string head = "\x1e{\"type\":\"preamble\",\"version\":2}\x1e{\"type\":\"data-stream-class\"}";
  auto event = [&](const std::string& members) {
    return head + "\x1e{\"type\":\"event-record-class\",\"name\":\"e\",\"payload-field-class\":{\"type\":\"structure\","
                  "\"member-classes\":[{\"name\":\"n\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\","
                  "\"length\":8,\"byte-order\":\"little-endian\"}}," +
           members + "]}}";
  };
  struct Case {
    std::string text, expected;
  };
  const std::vector<Case> cases = {
      {event(R"({"name":"v","field-class":{"type":"variable-length-unsigned-integer"}})"),
       "`event.fields.v`: a variable-length integer has no CTF 1.8 form"},
      {event(R"({"name":"o","field-class":{"type":"optional","selector-field-location":{"path":["n"]},)"
             R"("selector-field-ranges":[[1,1]],"field-class":{"type":"null-terminated-string"}}})"),
       "`event.fields.o`: an optional field has no CTF 1.8 form"},
      {event(R"({"name":"s","field-class":{"type":"null-terminated-string","encoding":"utf-16le"}})"),
       "`event.fields.s`: a UTF-16 string has no CTF 1.8 form"},
      {event(R"({"name":"s","field-class":{"type":"static-length-string","length":4,"encoding":"utf-32be"}})"),
       "`event.fields.s`: a UTF-32 string has no CTF 1.8 form"},
      {event(R"({"name":"a","field-class":{"type":"dynamic-length-array","length-field-location":{"path":[null,"n"]},)"
             R"("element-field-class":{"type":"null-terminated-string"}}})"),
       "`event.fields.a`: a location that climbs with `null` has no CTF 1.8 form"},
      {event(R"({"name":"w","field-class":{"type":"variant","selector-field-location":{"path":["n"]},"options":[)"
             R"({"name":"x","selector-field-ranges":[[0,0]],"field-class":{"type":"null-terminated-string"}}]}})"),
       "`event.fields.w`: its selector `n` is not an enumeration, which CTF 1.8 needs"},
      {event(R"({"name":"bad-name","field-class":{"type":"null-terminated-string"}})"),
       "the field name `bad-name` is not a TSDL identifier"},
      {head + "\x1e{\"type\":\"data-stream-class\",\"id\":1,\"packet-context-field-class\":{\"type\":\"structure\","
              "\"member-classes\":[{\"name\":\"total\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\","
              "\"length\":32,\"byte-order\":\"little-endian\",\"roles\":[\"packet-total-length\"]}}]}}",
       "`stream.packet.context.total` has the role `packet-total-length`, which CTF 1.8 readers know by the name "
       "`packet_size`"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(refusal(c.text), c.expected);
  }
  // A variant whose option its selector's mappings pick under another name.
  const std::string mismatched = event(
      R"({"name":"m","field-class":{"type":"fixed-length-unsigned-integer","length":8,"byte-order":"little-endian",)"
      R"("mappings":{"x":[[0,0]],"y":[[1,1]]}}},{"name":"w","field-class":{"type":"variant",)"
      R"("selector-field-location":{"path":["m"]},"options":[{"name":"x","selector-field-ranges":[[1,1]],)"
      R"("field-class":{"type":"null-terminated-string"}}]}})");
  EXPECT_EQ(refusal(mismatched),
            "`event.fields.w`: option 0 (`x`) is not picked by its selector's mapping of its name, as CTF 1.8 picks it");
}

}  // namespace
}  // namespace tracesync::ctf
