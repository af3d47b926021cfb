// SPDX-License-Identifier: EPL-2.0
#include "apply/tsdl_metadata.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "apply/every_kind_trace.h"
#include "apply/trace_events.h"
#include "apply/tsdl_of.h"
#include "support/run_command.h"

namespace tracesync::apply {
namespace {

namespace fs = std::filesystem;
using testing::tsdl_of;

class TsdlMetadata : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::write_every_kind_trace(dir_.file("every"));
    text_ = tsdl_of(dir_.file("every"), &unsupported_);
    ASSERT_EQ(unsupported_, "");
  }
  void expect_has(const std::string& piece) { EXPECT_NE(text_.find(piece), std::string::npos) << piece << "\n" << text_; }

  tracesync::testing::TempDir dir_;
  std::string text_;
  std::string unsupported_;
};

TEST_F(TsdlMetadata, TheTraceItsEnvironmentAndItsClock) {
  EXPECT_TRUE(text_.starts_with("/* CTF 1.8 */\n"));
  expect_has("\tuuid = \"0a1b2c3d-4e5f-4061-8273-8495a6b7c8d9\";\n\tbyte_order = le;");
  expect_has("\t\tinteger { size = 8; align = 8; signed = false; base = 16; } uuid[16];");
  expect_has("env {\n\thostname = \"every-kind\";\n\tdomain = \"kernel\";\n\ttracer_name = \"handmade\";\n"
             "\ttracer_major = 1;\n\tquote = \"a \\\"quoted\\\" word\";\n};");
  expect_has("clock {\n\tname = monotonic;\n\tuuid = \"11111111-2222-4333-8444-555555555555\";\n"
             "\tdescription = \"The test's clock\";\n\tfreq = 1000000000;\n\tprecision = 7;\n"
             "\toffset_s = 1600000000;\n\toffset = 250;\n\tabsolute = true;\n};");
}

TEST_F(TsdlMetadata, TheStreamClassHeadersAndContexts) {
  expect_has("stream {\n\tid = 0;\n\tevent.header := struct {\n"
             "\t\tinteger { size = 32; align = 8; signed = false; } id;\n"
             "\t\tinteger { size = 64; align = 8; signed = false; map = clock.monotonic.value; } timestamp;\n\t};");
  // Our packet fields, then the stream class's own (cpu_id, without an
  // underscore as LTTng writes it and Trace Compass looks it up).
  expect_has("map = clock.monotonic.value; } timestamp_end;\n"
             "\t\tinteger { size = 64; align = 8; signed = false; } content_size;\n"
             "\t\tinteger { size = 64; align = 8; signed = false; } packet_size;\n"
             "\t\tinteger { size = 64; align = 8; signed = false; } events_discarded;\n"
             "\t\tinteger { size = 32; align = 8; signed = false; base = 10; } cpu_id;\n\t};");
  expect_has("\tevent.context := struct {\n\t\tinteger { size = 32; align = 8; signed = true; base = 10; } _tid;\n\t} align(8);");
}

TEST_F(TsdlMetadata, EventClassesWithTheirLogLevelAndUri) {
  expect_has("event {\n\tname = \"every:kind\";\n\tid = 0;\n\tstream_id = 0;\n\tloglevel = 13;\n"
             "\tmodel.emf.uri = \"http://example.com/every\";\n\tcontext := struct {");
  expect_has("event {\n\tname = \"empty\";\n\tid = 1;\n\tstream_id = 0;\n\tfields := struct {\n\t} align(8);\n};");
}

TEST_F(TsdlMetadata, IntegersRealsAndStrings) {
  expect_has("\t\tinteger { size = 5; align = 8; signed = false; base = 2; } _small;\n");
  expect_has("\t\tinteger { size = 64; align = 8; signed = true; base = 10; } _negative;\n");
  expect_has("\t\tinteger { size = 32; align = 8; signed = false; base = 16; } _hex;\n");
  expect_has("\t\tinteger { size = 16; align = 8; signed = false; base = 8; } _octal;\n");
  expect_has("\t\tfloating_point { exp_dig = 8; mant_dig = 24; align = 8; } _single;\n");
  expect_has("\t\tfloating_point { exp_dig = 11; mant_dig = 53; align = 8; } _double;\n");
  expect_has("\t\tstring { encoding = UTF8; } _name;\n");
  // A text array is a string to babeltrace2, and so in the copy.
  expect_has("\t\tstring { encoding = UTF8; } _comm;\n");
}

TEST_F(TsdlMetadata, ArraysSequencesAndStructures) {
  expect_has("\t\tinteger { size = 16; align = 8; signed = false; base = 10; } _words[3];\n");
  expect_has("\t\tinteger { size = 32; align = 8; signed = false; base = 10; } _values[_count];\n");
  expect_has("\t\tstruct {\n\t\t\tinteger { size = 8; align = 8; signed = false; base = 10; } _a;\n"
             "\t\t\tinteger { size = 32; align = 8; signed = true; base = 10; } _b;\n\t\t} align(8) _pair;\n");
}

TEST_F(TsdlMetadata, EnumerationsKeepTheirLabelsAndRanges) {
  expect_has("\t\tenum : integer { size = 8; align = 8; signed = true; base = 10; } {\n"
             "\t\t\t\"minus\" = -2 ... -1,\n\t\t\t\"zero\" = 0 ... 0,\n\t\t\t\"many\" = 1 ... 100,\n"
             "\t\t\t\"_odd\" = 101 ... 101,\n\t\t\t\"_odd\" = 103 ... 103,\n\t\t} _signed_enum;\n");
}

// Options are named by their selector's labels; selectors and lengths are
// named relatively, from the deepest structure holding both.
TEST_F(TsdlMetadata, VariantsNameTheirSelectorsFromTheScope) {
  expect_has("\t\tvariant <_network_header_type> {\n\t\t\tstruct {\n\t\t\t} align(8) _unknown;\n");
  expect_has("\t\t\t\tvariant <_transport_type> {\n"
             "\t\t\t\t\tstruct {\n\t\t\t\t\t\tinteger { size = 16; align = 8; signed = false; base = 10; } _port;\n"
             "\t\t\t\t\t} align(8) _udp;\n");
  expect_has("\t\t\t} align(8) _ipv6;\n\t\t} _network_header;\n");
}

}  // namespace
}  // namespace tracesync::apply
