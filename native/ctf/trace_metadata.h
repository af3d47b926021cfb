// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "ctf/trace_class.h"

namespace tracesync::ctf {

// The two metadata formats a CTF trace may have: CTF 1.8's TSDL text and
// CTF 2's JSON text sequence (LTTng 2.15's default).
enum class MetadataFormat : uint8_t { kCtf18, kCtf2 };
const char* to_string(MetadataFormat format);  // "CTF 1.8", "CTF 2"

// Which one a metadata text is (the contents of its packets when
// packetized): CTF 2 begins with a record separator (0x1E), TSDL never does.
MetadataFormat metadata_format(std::string_view text);

// The format of a trace's `metadata` file from its first bytes (those of
// its first packet's text when packetized), without parsing it: nullopt
// when the file cannot be read.
std::optional<MetadataFormat> metadata_file_format(const std::filesystem::path& file);

struct TraceMetadata {
  MetadataFormat format = MetadataFormat::kCtf18;
  TraceClass trace;
};

// A metadata text, whichever its format, parsed by its parser. nullopt with
// `error` set (the CTF 2 parser's "fragment 3 (data-stream-class): ...", or
// the TSDL parser's "line N: ...") when it cannot be.
std::optional<TraceMetadata> parse_trace_metadata(std::string_view text, std::string* error);

// The same of a trace's `metadata` file (plain or packetized). `format`, when
// given, is set as soon as it is known (even when the parse then fails).
std::optional<TraceMetadata> read_trace_metadata(const std::filesystem::path& file, std::string* error,
                                                 std::optional<MetadataFormat>* format = nullptr);

}  // namespace tracesync::ctf
