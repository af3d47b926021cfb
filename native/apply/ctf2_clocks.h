// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "apply/ctf_metadata.h"

namespace tracesync::apply {

// apply's clock-only method on CTF 2 metadata (a JSON text sequence, LTTng
// 2.15's default): its clock class fragments are what a copy changes, as the
// `clock` blocks of CTF 1.8's TSDL are (ctf_metadata.h).

// Whether a metadata text (packets' contents when packetized) is CTF 2.
bool is_ctf2_text(const std::string& text);

// Every clock class fragment of CTF 2 metadata, in order, as ClockBlocks
// (name, uuid, mapping; no text ranges); nullopt with an error naming the
// fragment when one cannot be read.
std::optional<std::vector<ClockBlock>> find_ctf2_clocks(const std::string& text, std::string* error);

// `text` with each clock class's frequency and offset replaced by `mappings`
// (one per clock, in find_ctf2_clocks' order) and `note` among its
// attributes; every other fragment is kept byte for byte.
std::optional<std::string> with_ctf2_clock_mappings(const std::string& text, const std::vector<ClockMapping>& mappings,
                                                    const std::string& note, std::string* error);

}  // namespace tracesync::apply
