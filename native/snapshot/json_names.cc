// SPDX-License-Identifier: EPL-2.0
#include "snapshot/json_names.h"

#include <algorithm>

#include "snapshot/base64.h"
#include "snapshot/utf8.h"

namespace tracesync::snapshot {

void put_name(nlohmann::ordered_json& object, const std::string& key, std::string_view exact) {
  object[key] = readable_text(exact);
  if (!is_utf8(exact)) object[key + "_raw"] = to_base64(exact);
}

void put_names(nlohmann::ordered_json& object, const std::string& key, const std::vector<std::string>& exact) {
  nlohmann::ordered_json readable = nlohmann::ordered_json::array();
  for (const std::string& name : exact) readable.push_back(readable_text(name));
  object[key] = std::move(readable);
  if (std::all_of(exact.begin(), exact.end(), [](const std::string& name) { return is_utf8(name); })) return;
  nlohmann::ordered_json bytes = nlohmann::ordered_json::array();
  for (const std::string& name : exact) bytes.push_back(to_base64(name));
  object[key + "_raw"] = std::move(bytes);
}

void put_names(nlohmann::ordered_json& object, const std::string& key,
               const google::protobuf::RepeatedPtrField<std::string>& texts,
               const google::protobuf::RepeatedPtrField<std::string>& raw) {
  const auto& exact = raw.empty() ? texts : raw;
  put_names(object, key, std::vector<std::string>(exact.begin(), exact.end()));
}

nlohmann::ordered_json readable_json(std::string_view text) { return readable_text(text); }

}  // namespace tracesync::snapshot
