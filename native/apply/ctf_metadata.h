// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tracesync::apply {

// A CTF trace's metadata as TSDL text. LTTng writes it packetized (each
// packet a binary header, then a slice of the text); other writers plainly.
// Returns the text, ready to be written as a plain metadata file (it opens
// with "/* CTF 1.8 */"), or nullopt with an error naming the file and the packet.
struct MetadataText {
  std::string text;
  bool packetized = false;
};
std::optional<MetadataText> read_metadata_text(const std::filesystem::path& file, std::string* error);

// A clock's mapping of cycle values to time: ns from origin =
// offset_s * 1e9 + (offset + cycles) * 1e9 / freq (TSDL 1.8, section 8).
struct ClockMapping {
  uint64_t freq = 1'000'000'000;  // TSDL's defaults
  int64_t offset_s = 0;
  int64_t offset = 0;  // cycles
};

// One `clock { ... };` block of the metadata text.
struct ClockBlock {
  std::string name;
  std::string uuid;  // empty when the block has none
  ClockMapping mapping;
  std::size_t body_begin = 0;  // just after '{'
  std::size_t body_end = 0;    // at the closing '}'
  // Text ranges [begin, end) of the freq, offset_s and offset assignments.
  std::vector<std::pair<std::size_t, std::size_t>> mapping_statements;
};

// Every clock block of `text`, in order; nullopt with an error (the line and
// what is wrong) when a block cannot be read.
std::optional<std::vector<ClockBlock>> find_clock_blocks(const std::string& text, std::string* error);

// `text` with each clock's freq, offset_s and offset replaced by `mappings`
// (one per block, in find_clock_blocks' order) and a note saying so; every
// other byte (the environment, the event classes, comments) is kept.
std::string with_clock_mappings(const std::string& text, const std::vector<ClockBlock>& blocks,
                                const std::vector<ClockMapping>& mappings, const std::string& note);

}  // namespace tracesync::apply
