// SPDX-License-Identifier: EPL-2.0
#pragma once

// Names in the JSON files tracesync writes (the report, `--history`, apply's
// manifest). JSON strings must be UTF-8; a name may not be. Every name goes
// through these, so that all files say it the same way (docs/json.md, "Names
// that are not UTF-8"): `"key"` holds readable text (readable_text()), and,
// only when the name is not UTF-8, `"key_raw"` holds its exact bytes in
// base64. A name that is UTF-8 comes out exactly as it is.

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "snapshot/tracesync.pb.h"

namespace tracesync::snapshot {

// Sets `key` (and `key_raw` when needed) in `object` from the exact bytes of a name.
void put_name(nlohmann::ordered_json& object, const std::string& key, std::string_view exact);

// A list of names: `key` holds the readable texts; when one is not UTF-8,
// `key_raw` holds every name's bytes in base64, in the same order.
void put_names(nlohmann::ordered_json& object, const std::string& key, const std::vector<std::string>& exact);
// The same from a repeated name field and its `*_raw` sibling.
void put_names(nlohmann::ordered_json& object, const std::string& key,
               const google::protobuf::RepeatedPtrField<std::string>& texts,
               const google::protobuf::RepeatedPtrField<std::string>& raw);

// Prose that may quote names (a problem's message, a reason): readable text.
nlohmann::ordered_json readable_json(std::string_view text);

}  // namespace tracesync::snapshot
