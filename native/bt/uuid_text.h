// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <string>

namespace tracesync::bt {

// babeltrace2's 16 UUID bytes (a trace's, a clock class's) in the canonical
// lower-case 8-4-4-4-12 form, as CTF metadata writes a UUID and as
// tracesync keys a clock domain by it.
std::string uuid_text(const uint8_t* uuid);

}  // namespace tracesync::bt
