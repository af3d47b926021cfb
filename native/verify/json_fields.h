// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "verify/certificate_check.h"

namespace tracesync::verify {

// Fields of a report or certificate; a missing or mistyped one is bad input
// naming where it was looked for.
inline const nlohmann::json& field(const nlohmann::json& object, const char* name, const std::string& where) {
  if (!object.is_object() || !object.contains(name)) throw VerifyInputError(where + ": no field '" + name + "'");
  return object.at(name);
}

inline std::string text(const nlohmann::json& object, const char* name, const std::string& where) {
  const nlohmann::json& v = field(object, name, where);
  if (!v.is_string()) throw VerifyInputError(where + ": '" + name + "' is not a string");
  return v.get<std::string>();
}

inline int64_t integer(const nlohmann::json& object, const char* name, const std::string& where) {
  const nlohmann::json& v = field(object, name, where);
  if (!v.is_number_integer()) throw VerifyInputError(where + ": '" + name + "' is not an integer");
  return v.get<int64_t>();
}

}  // namespace tracesync::verify
