// SPDX-License-Identifier: EPL-2.0
// The TSDL parser on the real fixtures' metadata (LTTng 2.1 and 2.4, packetized),
// on what `tracesync simulate` writes (babeltrace2's sink.ctf.fs), and on bad text.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "ctf/metadata_text.h"
#include "ctf/tsdl_parser.h"

namespace tracesync::ctf {
namespace {

namespace fs = std::filesystem;
using FC = FieldClass;

const fs::path kShared = fs::path(TRACESYNC_SHARED_DIR) / "fixtures";

TraceClass parsed(const fs::path& metadata) {
  std::string error;
  const auto text = read_metadata_text(metadata, &error);
  EXPECT_TRUE(text) << error;
  if (!text) return {};
  const auto trace = parse_tsdl(*text, &error);
  EXPECT_TRUE(trace) << metadata << ": " << error;
  return trace ? *trace : TraceClass{};
}

std::string parse_error(const std::string& text) {
  std::string error;
  EXPECT_FALSE(parse_tsdl(text, &error)) << text;
  return error;
}

TEST(TsdlParser, ReadsTheLttng21ScpMetadata) {
  const fs::path metadata = kShared / "lttng-modules-2.1-addons" / "scp_src" / "metadata";
  if (!fs::exists(metadata)) GTEST_SKIP() << "shared fixtures not found at " << metadata;
  const TraceClass trace = parsed(metadata);
  EXPECT_EQ(trace.major, 1u);
  EXPECT_EQ(trace.minor, 8u);
  ASSERT_TRUE(trace.uuid);
  EXPECT_EQ(uuid_text(*trace.uuid), "2a1bda29-ffc3-e248-8053-81ccaf830d2f");
  EXPECT_EQ(trace.byte_order, ByteOrder::kLittle);
  EXPECT_EQ(trace.environment_strings.at("hostname"), "VM1");
  EXPECT_EQ(trace.environment_integers.at("tracer_minor"), 1);
  ASSERT_EQ(trace.clocks.size(), 1u);
  EXPECT_EQ(trace.clocks[0].name, "monotonic");
  EXPECT_EQ(trace.clocks[0].uuid, "74715693-28c1-4d0d-bee9-24790a4942b0");
  EXPECT_EQ(trace.clocks[0].frequency, 1'000'000'000u);
  EXPECT_EQ(trace.clocks[0].offset_cycles, 1361203559332331489);

  ASSERT_TRUE(trace.packet_header);
  ASSERT_EQ(trace.packet_header->members.size(), 3u);
  EXPECT_EQ(trace.packet_header->members[1].name, "uuid");
  EXPECT_EQ(trace.packet_header->members[1].type->kind, FC::Kind::kArray);
  EXPECT_EQ(trace.packet_header->members[1].type->length, 16u);

  ASSERT_EQ(trace.stream_classes.size(), 1u);
  const StreamClass& stream = trace.stream_classes.at(0);
  ASSERT_TRUE(stream.event_header);
  // event_header_large: a 16-bit enumeration, then a variant on it.
  const FieldClass& header = *stream.event_header;
  ASSERT_EQ(header.members.size(), 2u);
  EXPECT_EQ(header.members[0].type->kind, FC::Kind::kEnumeration);
  EXPECT_EQ(header.members[0].type->size, 16u);
  ASSERT_EQ(header.members[0].type->mappings.size(), 2u);
  EXPECT_EQ(header.members[0].type->mappings[0].upper, 65534);
  EXPECT_EQ(header.members[0].type->mappings[1].lower, 65535);
  EXPECT_EQ(header.members[1].type->kind, FC::Kind::kVariant);
  EXPECT_EQ(header.members[1].type->selector.text(), "id");
  const FieldClass& compact = *header.members[1].type->members[0].type;
  EXPECT_EQ(compact.members[0].type->size, 32u);
  EXPECT_EQ(compact.members[0].type->mapped_clock, "monotonic");
  EXPECT_EQ(header.alignment, 8u);

  // The addons' network events: big-endian TCP fields.
  const EventClass* out = nullptr;
  for (const auto& [id, event] : stream.event_classes) {
    if (event.name == "inet_sock_local_out") out = &event;
  }
  ASSERT_NE(out, nullptr);
  ASSERT_TRUE(out->payload);
  const Member* seq = out->payload->member("seq");
  ASSERT_NE(seq, nullptr);
  EXPECT_EQ(seq->name, "_seq");
  EXPECT_EQ(seq->type->byte_order, ByteOrder::kBig);
  EXPECT_EQ(seq->type->size, 32u);
}

TEST(TsdlParser, ReadsEveryDjangoVoteMetadata) {
  const fs::path root = kShared / "lttng-modules-2.4-addons";
  if (!fs::exists(root)) GTEST_SKIP() << "shared fixtures not found at " << root;
  int read = 0;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.path().filename() != "metadata") continue;
    const TraceClass trace = parsed(entry.path());
    ++read;
    EXPECT_EQ(trace.environment_integers.at("tracer_minor"), 4) << entry.path();
    ASSERT_EQ(trace.stream_classes.size(), 1u);
    const StreamClass& stream = trace.stream_classes.begin()->second;
    // event_header_large, and an event context of a tid and a 16-byte name.
    EXPECT_EQ(stream.event_header->members[0].type->size, 16u);
    ASSERT_TRUE(stream.event_context);
    ASSERT_EQ(stream.event_context->members.size(), 2u);
    EXPECT_TRUE(stream.event_context->members[1].type->is_text_array());
    EXPECT_GT(stream.event_classes.size(), 200u) << entry.path();
    // Strings: the variable-length fields of these traces.
    bool string = false;
    for (const auto& [id, event] : stream.event_classes) {
      if (!event.payload) continue;
      for (const Member& m : event.payload->members) string = string || m.type->kind == FC::Kind::kString;
    }
    EXPECT_TRUE(string) << entry.path();
  }
  EXPECT_EQ(read, 6);
}

TEST(TsdlParser, ReadsWhatSimulateWrites) {
  // Babeltrace2's own TSDL, as `tracesync simulate` writes it (abridged to
  // the network event's nested variants).
  const std::string text = R"(/* CTF 1.8 */
trace { major = 1; minor = 8; uuid = "e7b17367-65dc-4730-9dd7-b4e8d7b6e716"; byte_order = be;
  packet.header := struct { integer { size = 32; align = 8; base = x; } magic; integer { size = 8; align = 8; } uuid[16];
    integer { size = 64; align = 8; } stream_id; } align(8); };
clock { name = monotonic; freq = 1000000000; precision = 0; offset_s = 1766779854; offset = 558824985; absolute = true;
  uuid = "acd826b7-c0f3-4128-bfac-1b03c5731f7c"; };
stream { id = 0;
  event.header := struct { integer { size = 64; align = 8; } id;
    integer { size = 64; align = 8; map = clock.monotonic.value; } timestamp; } align(8); };
event { name = "net_dev_queue"; stream_id = 0; id = 0;
  fields := struct {
    string { encoding = UTF8; } _name;
    enum : integer { size = 8; align = 8; } { "_unknown" = 0, "_ipv4" = 1, } _network_header_type;
    variant <_network_header_type> {
      struct { } align(1) _unknown;
      struct {
        integer { size = 8; align = 8; } _saddr[4];
        enum : integer { size = 8; align = 8; } { "_unknown" = 0 ... 5, "_unknown" = 7 ... 255, "_tcp" = 6 } _protocol;
        variant <_protocol> { struct { } align(1) _unknown; struct { integer { size = 9; align = 1; base = x; } _flags; } align(8) _tcp; } _transport_header;
      } align(8) _ipv4;
    } _network_header;
  } align(8);
};
)";
  std::string error;
  const auto trace = parse_tsdl(text, &error);
  ASSERT_TRUE(trace) << error;
  EXPECT_EQ(trace->byte_order, ByteOrder::kBig);
  EXPECT_TRUE(trace->clocks[0].absolute);
  EXPECT_EQ(trace->clocks[0].offset_seconds, 1766779854);
  const FieldClass& payload = *trace->stream_classes.at(0).event_classes.at(0).payload;
  const FieldClass& network = *payload.member("network_header")->type;
  ASSERT_EQ(network.kind, FC::Kind::kVariant);
  EXPECT_EQ(network.selector.text(), "_network_header_type");
  const FieldClass& ipv4 = *network.member("ipv4")->type;
  EXPECT_EQ(ipv4.alignment, 8u);
  const FieldClass& protocol = *ipv4.member("protocol")->type;
  ASSERT_EQ(protocol.mappings.size(), 3u);
  EXPECT_EQ(protocol.mappings[1].lower, 7);
  EXPECT_EQ(protocol.mappings[1].upper, 255);
  EXPECT_EQ(protocol.byte_order, ByteOrder::kBig);  // the trace's, declared inline
  const FieldClass& tcp = *ipv4.member("transport_header")->type->member("tcp")->type;
  EXPECT_EQ(tcp.member("flags")->type->size, 9u);
  EXPECT_EQ(tcp.member("flags")->type->alignment, 1u);
}

TEST(TsdlParser, NamesTheLineAndTheProblem) {
  EXPECT_EQ(parse_error("trace {\n major = 1;\n byte_order = sideways;\n};"),
            "line 3: byte_order must be le, be, network or native");
  EXPECT_EQ(parse_error("typealias integer { size = 8; } := u8;\n\nstruct { u8 a; u7 b; } x;"),
            "line 3: unknown type `u7`");
  EXPECT_EQ(parse_error("typealias integer { size = 8; } := u8;\nu8 x;"),
            "line 2: expected a block (trace, env, clock, stream, event) or a type declaration, found `u8`");
  EXPECT_EQ(parse_error("event {\n name = a;\n fields := struct {\n  uint32_t x;\n };\n};"),
            "line 4: unknown type `uint32_t`");
  EXPECT_EQ(parse_error("typealias integer { size = 0; } := u0;"), "line 1: an integer of 0 bits (1 to 64 can be read)");
  EXPECT_EQ(parse_error("typealias integer { size = 8; align = 3; } := u8;"),
            "line 1: an alignment of 3 bits (a power of two is needed)");
  EXPECT_EQ(parse_error("stream { id = 0; };\nevent {\n name = a; stream_id = 4; };"),
            "line 2: event `a` belongs to stream 4, which is not declared");
  EXPECT_EQ(parse_error("clock { name = c; uuid = \"nope\"; };"), "line 1: the clock's uuid is not a UUID");
  EXPECT_EQ(parse_error("trace { major = 2; };"), "line 1: CTF 2 metadata (this reader reads CTF 1.8)");
  EXPECT_EQ(parse_error("env { hostname = \"a\n\"; };"), "line 1: a string literal runs past the end of its line");
  EXPECT_EQ(parse_error("env {\n/* open"), "line 2: a comment is not closed");
}

// Tokens are views into the text; a string literal with escapes is decoded
// into the lexer's own storage, which must outlive its token as the text does.
TEST(TsdlParser, StringLiteralsWithAndWithoutEscapesKeepTheirValues) {
  std::string error;
  const auto trace = parse_tsdl(
      "env {\n hostname = \"a\\\"b\\\\c\\td\\n, longer than a short string's buffer\";\n domain = \"kernel\";\n"
      " tracer_name = \"x\\0y\";\n procname = \"\";\n};",
      &error);
  ASSERT_TRUE(trace) << error;
  EXPECT_EQ(trace->environment_strings.at("hostname"), "a\"b\\c\td\n, longer than a short string's buffer");
  EXPECT_EQ(trace->environment_strings.at("domain"), "kernel");
  EXPECT_EQ(trace->environment_strings.at("tracer_name"), std::string("x\0y", 3));
  EXPECT_EQ(trace->environment_strings.at("procname"), "");
  EXPECT_EQ(parse_error("env {\n hostname = \"a\\\"b;\n"), "line 2: a string literal runs past the end of its line");
  EXPECT_EQ(parse_error("env {\n hostname = \"ab\\\""), "line 2: a string literal is not closed");
  EXPECT_EQ(parse_error("env {\n\n hostname = \"ab"), "line 3: a string literal is not closed");
  EXPECT_EQ(parse_error("env { hostname = 0x; };"), "line 1: `0x` without hexadecimal digits");
  EXPECT_EQ(parse_error("env { hostname = 12ab; };"), "line 1: a malformed integer literal");
  EXPECT_EQ(parse_error("env { hostname = 99999999999999999999; };"), "line 1: an integer literal too large for 64 bits");
  EXPECT_EQ(parse_error("env { hostname = @; };"), "line 1: unexpected character `@`");
}

TEST(TsdlParser, ReadsSequencesAndTheirLengths) {
  const std::string text = R"(typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
event { name = e; fields := struct { uint8_t _n; uint8_t _v[_n]; uint8_t _m[2][3]; uint8_t _w[event.fields._n]; }; };)";
  std::string error;
  const auto trace = parse_tsdl(text, &error);
  ASSERT_TRUE(trace) << error;
  const FieldClass& payload = *trace->stream_classes.at(0).event_classes.at(0).payload;
  EXPECT_EQ(payload.members[1].type->kind, FC::Kind::kSequence);
  EXPECT_EQ(payload.members[1].type->length_field.text(), "_n");
  EXPECT_EQ(payload.members[2].type->length, 2u);
  EXPECT_EQ(payload.members[2].type->element->length, 3u);
  EXPECT_TRUE(payload.members[3].type->length_field.absolute);
  EXPECT_EQ(payload.members[3].type->length_field.text(), "event.fields._n");
}

TEST(TsdlParser, RefusesNestingWithoutEnd) {
  std::string text = "event { name = a; fields := ";
  for (int i = 0; i < 10000; ++i) text += "struct { ";
  const std::string error = parse_error(text);
  EXPECT_NE(error.find("nested over"), std::string::npos) << error;
}

}  // namespace
}  // namespace tracesync::ctf
