// SPDX-License-Identifier: EPL-2.0
// The CTF 2 metadata reader (ctf/ctf2_metadata) and translator
// (ctf/ctf2_writer) on real CTF 2 traces and their CTF 1.8 twins
// (tests/data/ctf2), on the final specification's form as LTTng 2.15 writes
// it, and on bad and unsupported metadata.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "ctf/ctf2_metadata.h"
#include "ctf/ctf2_writer.h"
#include "ctf/metadata_text.h"
#include "ctf/trace_metadata.h"
#include "ctf/tsdl_parser.h"
#include "ctf2_twins.h"

namespace tracesync::ctf {
namespace {

using namespace testing;  // NOLINT: the twins' helpers
using FC = FieldClass;

TraceClass ctf2_of(const std::string& text) {
  std::string error;
  const auto trace = parse_ctf2(text, &error);
  EXPECT_TRUE(trace) << error;
  return trace ? *trace : TraceClass{};
}

TraceClass tsdl_of(const fs::path& metadata) {
  std::string error;
  const auto text = read_metadata_text(metadata, &error);
  EXPECT_TRUE(text) << error;
  const auto trace = text ? parse_tsdl(*text, &error) : std::nullopt;
  EXPECT_TRUE(trace) << metadata << ": " << error;
  return trace ? *trace : TraceClass{};
}

std::string ctf2_error(const std::string& text) {
  std::string error;
  EXPECT_FALSE(parse_ctf2(text, &error)) << text;
  return error;
}

std::vector<std::string> all_twins() {
  std::vector<std::string> twins = kReadTwins;
  twins.insert(twins.end(), kMetadataTwins.begin(), kMetadataTwins.end());
  return twins;
}

TEST(Ctf2Metadata, ReadsEachTwinAsItsTsdlSays) {
  for (const std::string& twin : all_twins()) {
    SCOPED_TRACE(twin);
    const TraceClass ctf2 = ctf2_of(file_text(kCtf2Data / twin / "ctf2" / "metadata"));
    const TraceClass tsdl = tsdl_of(kCtf2Data / twin / "ctf18" / "metadata");
    EXPECT_EQ(ctf2.major, 2u);
    ASSERT_FALSE(ctf2.stream_classes.empty());
    // Roles aside (CTF 1.8 has none): the same layout, clocks and classes.
    EXPECT_EQ(LayoutText::of(ctf2, false), LayoutText::of(tsdl, false));
  }
}

TEST(Ctf2Metadata, GivesRolesWhatTheScannerNeeds) {
  const TraceClass trace = ctf2_of(file_text(kCtf2Data / "lttng-crash" / "ctf2" / "metadata"));
  ASSERT_TRUE(trace.packet_header);
  EXPECT_EQ(trace.packet_header->member("magic")->type->role, "packet-magic-number");
  EXPECT_EQ(trace.packet_header->member("uuid")->type->role, "metadata-stream-uuid");
  EXPECT_EQ(trace.packet_header->member("uuid")->type->kind, FC::Kind::kArray);
  const StreamClass& stream = trace.stream_classes.at(0);
  EXPECT_EQ(stream.packet_context->member("packet_size")->type->role, "packet-total-length");
  EXPECT_EQ(stream.packet_context->member("timestamp_begin")->type->mapped_clock, "monotonic");
  // The end time names the default clock but does not move the stream's clock.
  EXPECT_EQ(stream.packet_context->member("timestamp_end")->type->mapped_clock, "");
  const FC& variant = *stream.event_header->member("v")->type;
  ASSERT_EQ(variant.kind, FC::Kind::kVariant);
  ASSERT_EQ(variant.option_ranges.size(), 2u);
  EXPECT_EQ(variant.option_ranges[1].option, 1u);
  EXPECT_EQ(variant.option_ranges[1].lower, 65535);
  EXPECT_EQ(stream.event_classes.at(0).name, "my_app:current_temp");
  EXPECT_EQ(stream.event_classes.at(0).log_level, 13);  // debug:line
  ASSERT_EQ(trace.clocks.size(), 1u);
  EXPECT_EQ(trace.clocks[0].uuid, "4d76db72-e40f-409e-ba30-532d309d5048");
  EXPECT_EQ(trace.clocks[0].offset_seconds, 1565056443);
}

TEST(Ctf2Metadata, TranslatedTsdlReadsAsItsCtf2Twin) {
  for (const std::string& twin : all_twins()) {
    SCOPED_TRACE(twin);
    std::string error;
    const auto translated = write_ctf2(tsdl_of(kCtf2Data / twin / "ctf18" / "metadata"), &error);
    ASSERT_TRUE(translated) << error;
    const TraceClass ours = ctf2_of(*translated);
    const TraceClass theirs = ctf2_of(file_text(kCtf2Data / twin / "ctf2" / "metadata"));
    // Roles included: ours come from CTF 1.8's names, theirs were written.
    EXPECT_EQ(LayoutText::of(ours), LayoutText::of(theirs));
    // And writing a CTF 2 class again gives the same text.
    const auto again = write_ctf2(ours, &error);
    ASSERT_TRUE(again) << error;
    EXPECT_EQ(*again, *translated);
  }
}

// The final CTF 2 specification's form, as LTTng 2.15 writes it: locations
// as {origin, path}, integers with mappings, clock ids, attributes.
constexpr const char* kFinalForm =
    "\x1e{\"type\":\"preamble\",\"version\":2,\"uuid\":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16]}\n"
    "\x1e{\"type\":\"trace-class\",\"namespace\":\"lttng.org,2009\",\"name\":\"\",\"uid\":\"x\","
    "\"environment\":{\"hostname\":\"h\",\"tracer_major\":2},"
    "\"packet-header-field-class\":{\"type\":\"structure\",\"member-classes\":["
    "{\"name\":\"magic\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":32,"
    "\"byte-order\":\"little-endian\",\"alignment\":32,\"roles\":[\"packet-magic-number\"]}},"
    "{\"name\":\"stream_id\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,"
    "\"byte-order\":\"little-endian\",\"alignment\":8,\"roles\":[\"data-stream-class-id\"]}}]}}\n"
    "\x1e{\"type\":\"clock-class\",\"id\":\"monotonic\",\"name\":\"monotonic\",\"frequency\":1000000000,"
    "\"origin\":\"unix-epoch\",\"offset-from-origin\":{\"seconds\":1700000000,\"cycles\":5},"
    "\"uid\":\"d668b0f5-a0fb-42dc-9bcc-5ba24e696e9d\"}\n"
    "\x1e{\"type\":\"field-class-alias\",\"name\":\"u8\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\","
    "\"length\":8,\"byte-order\":\"little-endian\",\"alignment\":8}}\n"
    "\x1e{\"type\":\"data-stream-class\",\"id\":3,\"default-clock-class-id\":\"monotonic\","
    "\"event-record-header-field-class\":{\"type\":\"structure\",\"member-classes\":["
    "{\"name\":\"id\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":16,"
    "\"byte-order\":\"little-endian\",\"alignment\":8,\"roles\":[\"event-record-class-id\"],"
    "\"mappings\":{\"compact\":[[0,65534]],\"extended\":[[65535,65535]]}}},"
    "{\"name\":\"timestamp\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":64,"
    "\"byte-order\":\"little-endian\",\"alignment\":8,\"roles\":[\"default-clock-timestamp\"]}}]}}\n"
    "\x1e{\"type\":\"event-record-class\",\"id\":7,\"data-stream-class-id\":3,\"name\":\"net:x\","
    "\"attributes\":{\"lttng.org,2009\":{\"log-level\":\"info\"}},"
    "\"payload-field-class\":{\"type\":\"structure\",\"member-classes\":["
    "{\"name\":\"kind\",\"field-class\":\"u8\"},"
    "{\"name\":\"n\",\"field-class\":\"u8\"},"
    "{\"name\":\"data\",\"field-class\":{\"type\":\"dynamic-length-array\","
    "\"length-field-location\":{\"origin\":\"event-record-payload\",\"path\":[\"n\"]},\"element-field-class\":\"u8\"}},"
    "{\"name\":\"text\",\"field-class\":{\"type\":\"dynamic-length-string\","
    "\"length-field-location\":{\"path\":[\"n\"]}}},"
    "{\"name\":\"v\",\"field-class\":{\"type\":\"variant\","
    "\"selector-field-location\":{\"origin\":\"event-record-payload\",\"path\":[\"kind\"]},\"options\":["
    "{\"name\":\"a\",\"selector-field-ranges\":[[0,0],[2,3]],\"field-class\":{\"type\":\"null-terminated-string\"}},"
    "{\"name\":\"b\",\"selector-field-ranges\":[[1,1]],\"field-class\":{\"type\":\"fixed-length-floating-point-number\","
    "\"length\":64,\"byte-order\":\"big-endian\",\"alignment\":64}}]}}]}}\n";

TEST(Ctf2Metadata, ReadsTheFinalSpecificationsForm) {
  const TraceClass trace = ctf2_of(kFinalForm);
  ASSERT_EQ(trace.clocks.size(), 1u);
  EXPECT_EQ(trace.clocks[0].name, "monotonic");
  EXPECT_TRUE(trace.clocks[0].absolute);
  EXPECT_EQ(trace.clocks[0].uuid, "d668b0f5-a0fb-42dc-9bcc-5ba24e696e9d");
  EXPECT_EQ(trace.clocks[0].offset_cycles, 5);
  EXPECT_EQ(trace.environment_strings.at("hostname"), "h");
  EXPECT_EQ(trace.environment_integers.at("tracer_major"), 2);
  const StreamClass& stream = trace.stream_classes.at(3);
  EXPECT_EQ(stream.event_header->member("id")->type->kind, FC::Kind::kEnumeration);
  EXPECT_EQ(stream.event_header->member("timestamp")->type->mapped_clock, "monotonic");
  const EventClass& event = stream.event_classes.at(7);
  EXPECT_EQ(event.log_level, 6);
  const FC& payload = *event.payload;
  const FC& data = *payload.member("data")->type;
  ASSERT_EQ(data.kind, FC::Kind::kSequence);
  EXPECT_TRUE(data.length_field.absolute);
  EXPECT_EQ(data.length_field.scope, Scope::kEventPayload);
  const FC& text = *payload.member("text")->type;
  EXPECT_TRUE(text.is_text_array());
  EXPECT_FALSE(text.length_field.absolute);
  const FC& v = *payload.member("v")->type;
  ASSERT_EQ(v.option_ranges.size(), 3u);
  EXPECT_EQ(v.option_ranges[1].lower, 2);
  EXPECT_EQ(v.option_ranges[2].option, 1u);
  EXPECT_EQ(v.members[1].type->kind, FC::Kind::kFloat);
  // Written again and read back: the same.
  std::string error;
  const auto written = write_ctf2(trace, &error);
  ASSERT_TRUE(written) << error;
  EXPECT_EQ(LayoutText::of(ctf2_of(*written)), LayoutText::of(trace));
}

TEST(Ctf2Metadata, UnsupportedConstructsAreNamedNeverGuessed) {
  const std::string head = "\x1e{\"type\":\"preamble\",\"version\":2}\x1e{\"type\":\"data-stream-class\"}";
  auto event = [&](const std::string& payload_member) {
    return head + "\x1e{\"type\":\"event-record-class\",\"name\":\"e\",\"payload-field-class\":{\"type\":\"structure\","
                  "\"member-classes\":[{\"name\":\"n\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\","
                  "\"length\":8,\"byte-order\":\"little-endian\"}}," +
           payload_member + "]}}";
  };
  struct Case {
    std::string text, expected;
  };
  const std::vector<Case> cases = {
      {event("{\"name\":\"o\",\"field-class\":{\"type\":\"optional\",\"field-class\":{\"type\":\"null-terminated-string\"}}}"),
       "fragment 3 (event-record-class) `e`: event-record-payload `o` (optional): no `selector-field-location`"},
      {event("{\"name\":\"s\",\"field-class\":{\"type\":\"null-terminated-string\",\"encoding\":\"utf-7\"}}"),
       "`s` (null-terminated-string): the unknown encoding `utf-7`"},
      {event("{\"name\":\"v\",\"field-class\":{\"type\":\"variable-length-bit-array\"}}"),
       "`v` (variable-length-bit-array): an unknown field class type"},
      {event("{\"name\":\"b\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,"
             "\"byte-order\":\"little-endian\",\"bit-order\":\"last-to-first\"}}"),
       "the bit order `last-to-first` with a little-endian byte order is not supported"},
      {event("{\"name\":\"r\",\"field-class\":{\"type\":\"dynamic-length-array\",\"length-field-location\":"
             "{\"path\":[\"n\",null]},\"element-field-class\":{\"type\":\"null-terminated-string\"}}}"),
       "`r` (dynamic-length-array): `length-field-location`: `path` ends with `null` (it must name a field)"},
      {event("{\"name\":\"r\",\"field-class\":{\"type\":\"dynamic-length-array\",\"length-field-location\":"
             "{\"origin\":\"event-record-payload\",\"path\":[null,\"n\"]},\"element-field-class\":{\"type\":\"null-terminated-string\"}}}"),
       "`length-field-location`: a `null` climbs above its origin's structure"},
      {event("{\"name\":\"a\",\"field-class\":{\"type\":\"static-length-array\",\"length\":2,\"minimum-alignment\":48,"
             "\"element-field-class\":{\"type\":\"null-terminated-string\"}}}"),
       "`minimum-alignment` 48 is not a power of two"},
      {event("{\"name\":\"i\",\"field-class\":{\"type\":\"variable-length-signed-integer\",\"roles\":[\"packet-total-length\"]}}"),
       "`i` (variable-length-signed-integer): the role `packet-total-length` on a field class that is not an unsigned integer"},
      {event("{\"name\":\"w\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":65,"
             "\"byte-order\":\"little-endian\"}}"),
       "`w` (fixed-length-unsigned-integer): a length of 65 bits (at most 64)"},
      {event("{\"name\":\"k\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,"
             "\"byte-order\":\"little-endian\",\"roles\":[\"packet-total-length\"]}}"),
       "the role `packet-total-length` outside the packet-context"},
      {event("{\"name\":\"t\",\"field-class\":{\"type\":\"quantum-integer\"}}"), "`t` (quantum-integer): an unknown field class type"},
      {event("{\"name\":\"u\",\"field-class\":\"nope\"}"), "`u`: no field class alias `nope` before it"},
      {event("{\"name\":\"n\",\"field-class\":{\"type\":\"null-terminated-string\"}}"), "two members named `n`"},
      {"\x1e{\"type\":\"preamble\",\"version\":2,\"extensions\":{\"x.org\":{\"zip\":true}}}",
       "fragment 1 (preamble): the extension `x.org/zip` is not supported"},
      {"\x1e{\"type\":\"preamble\",\"version\":3}", "fragment 1 (preamble): CTF version 3 (2 is read)"},
      {"\x1e{\"type\":\"trace-class\"}", "fragment 1 (trace-class): the first fragment is not a preamble"},
      {head + "\x1e{\"type\":\"event-record-class\",\"data-stream-class-id\":4}",
       "fragment 3 (event-record-class) 0: data stream class 4 is not defined before it"},
      {head + "\x1e{\"type\":\"data-stream-class\",\"default-clock-class-id\":\"c\",\"id\":1}",
       "fragment 3 (data-stream-class): the default clock class `c` is not defined before it"},
      {head + "\x1e{\"type\":\"data-stream-class\"}", "fragment 3 (data-stream-class): data stream class 0 is defined twice"},
      {head + "\x1e{\"type\":\"nonsense\"}", "fragment 3 (nonsense): an unknown fragment type"},
      {head + "\x1e{\"type\":\"event-record-class\",", "fragment 3: not JSON: parse error"},
      {head + "\x1e[1,2]", "fragment 3: not a JSON object"},
      {head + "\x1e{\"type\":\"data-stream-class\",\"id\":-1}", "fragment 3 (data-stream-class): `id` is not a non-negative integer"},
      {"{\"type\":\"preamble\",\"version\":2}", "does not begin with a record separator"},
  };
  for (const Case& c : cases) {
    const std::string error = ctf2_error(c.text);
    EXPECT_NE(error.find(c.expected), std::string::npos) << "error: " << error << "\nexpected: " << c.expected;
  }
}

TEST(Ctf2Metadata, DeepNestingAndAliasBombsEndInAnError) {
  std::string deep = "{\"type\":\"null-terminated-string\"}";
  for (int i = 0; i < 100; ++i) deep = "{\"type\":\"static-length-array\",\"length\":1,\"element-field-class\":" + deep + "}";
  const std::string nested = ctf2_error("\x1e{\"type\":\"preamble\",\"version\":2}\x1e{\"type\":\"field-class-alias\","
                                        "\"name\":\"a\",\"field-class\":" + deep + "}");
  EXPECT_NE(nested.find("nested over 64 deep"), std::string::npos) << nested;

  std::string bomb = "\x1e{\"type\":\"preamble\",\"version\":2}\x1e{\"type\":\"field-class-alias\",\"name\":\"a0\","
                     "\"field-class\":{\"type\":\"null-terminated-string\"}}";
  for (int i = 1; i < 30; ++i) {
    const std::string previous = "\"a" + std::to_string(i - 1) + "\"";
    bomb += "\x1e{\"type\":\"field-class-alias\",\"name\":\"a" + std::to_string(i) +
            "\",\"field-class\":{\"type\":\"structure\",\"member-classes\":[{\"name\":\"x\",\"field-class\":" + previous +
            "},{\"name\":\"y\",\"field-class\":" + previous + "}]}}";
  }
  const std::string error = ctf2_error(bomb);
  EXPECT_NE(error.find("field classes (aliases within aliases?)"), std::string::npos) << error;
}

TEST(MetadataFormat, TellsCtf2FromCtf18PlainOrPacketized) {
  EXPECT_EQ(metadata_format("\x1e{}"), MetadataFormat::kCtf2);
  EXPECT_EQ(metadata_format("/* CTF 1.8 */ trace {}"), MetadataFormat::kCtf18);
  EXPECT_STREQ(to_string(MetadataFormat::kCtf2), "CTF 2");
  for (const std::string& twin : kReadTwins) {
    EXPECT_EQ(metadata_file_format(kCtf2Data / twin / "ctf2" / "metadata"), MetadataFormat::kCtf2);
    EXPECT_EQ(metadata_file_format(kCtf2Data / twin / "ctf18" / "metadata"), MetadataFormat::kCtf18);
  }
  // trace-with-index's TSDL is packetized: so may CTF 2 be. One packet
  // around the CTF 2 text: magic, uuid, checksum, content and packet sizes
  // in bits, schemes, major 2, minor 0.
  const std::string text = file_text(kCtf2Data / "lttng-crash" / "ctf2" / "metadata");
  std::string packet(37, '\0');
  const uint32_t magic = 0x75D11D57;
  const auto bits = static_cast<uint32_t>((37 + text.size()) * 8);
  std::memcpy(packet.data(), &magic, 4);
  std::memcpy(packet.data() + 24, &bits, 4);
  std::memcpy(packet.data() + 28, &bits, 4);
  packet[35] = 2;
  TempDir dir;
  std::ofstream(dir.path() / "metadata", std::ios::binary) << packet + text;
  EXPECT_EQ(metadata_file_format(dir.path() / "metadata"), MetadataFormat::kCtf2);
  std::string error;
  const auto metadata = read_trace_metadata(dir.path() / "metadata", &error);
  ASSERT_TRUE(metadata) << error;
  EXPECT_EQ(metadata->format, MetadataFormat::kCtf2);
  EXPECT_EQ(LayoutText::of(metadata->trace), LayoutText::of(ctf2_of(text)));
  EXPECT_FALSE(metadata_file_format(dir.path() / "absent"));
}

}  // namespace
}  // namespace tracesync::ctf
