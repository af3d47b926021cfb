// SPDX-License-Identifier: EPL-2.0
#pragma once

// Names come from the input as bytes: a host name in a match stream or in a
// trace's metadata, a trace's directory. They are nearly always UTF-8, but
// nothing makes them so (a Latin-1 host name, a directory made on an old
// system). JSON and proto3 strings must be UTF-8, and a terminal shows
// other bytes as garbage: these say whether bytes are UTF-8 and give the
// readable text every writer shows in their place (docs/json.md, "Names
// that are not UTF-8").

#include <cstddef>
#include <string>
#include <string_view>

namespace tracesync::snapshot {

// The length (1 to 4) of the well-formed UTF-8 sequence that starts at
// text[at], or 0 when the bytes there are not one (a stray continuation
// byte, a bad lead byte, an overlong form, a surrogate, a code point beyond
// U+10FFFF, a sequence cut short). Unicode's definition, which JSON,
// protobuf and Java's decoders share.
std::size_t utf8_sequence_length(std::string_view text, std::size_t at);

bool is_utf8(std::string_view bytes);

// `bytes` unchanged when they are UTF-8; otherwise every byte that is not
// part of a well-formed sequence is written as `\xNN` (two lower-case hex
// digits), the rest as it is. The same text as Python's
// bytes.decode("utf-8", "backslashreplace"). Always UTF-8, and printable
// wherever the name was.
std::string readable_text(std::string_view bytes);

}  // namespace tracesync::snapshot
