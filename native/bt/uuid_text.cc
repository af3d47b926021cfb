// SPDX-License-Identifier: EPL-2.0
#include "bt/uuid_text.h"

#include <cstdio>

namespace tracesync::bt {

std::string uuid_text(const uint8_t* uuid) {
  char text[37];
  std::snprintf(text, sizeof text, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", uuid[0],
                uuid[1], uuid[2], uuid[3], uuid[4], uuid[5], uuid[6], uuid[7], uuid[8], uuid[9], uuid[10], uuid[11],
                uuid[12], uuid[13], uuid[14], uuid[15]);
  return text;
}

}  // namespace tracesync::bt
