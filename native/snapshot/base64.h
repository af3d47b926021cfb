// SPDX-License-Identifier: EPL-2.0
#pragma once

// Base64 (RFC 4648, section 4: the standard alphabet, padded with '='), as
// proto3's JSON mapping writes `bytes`: how the JSON report carries the
// exact bytes of a name that is not UTF-8 (docs/json.md).

#include <optional>
#include <string>
#include <string_view>

namespace tracesync::snapshot {

std::string to_base64(std::string_view bytes);

// The bytes `text` encodes; nullopt when it is not padded base64 of the
// standard alphabet (a stray character, a length not a multiple of 4,
// padding in the middle, bits set after the last byte).
std::optional<std::string> from_base64(std::string_view text);

}  // namespace tracesync::snapshot
