// SPDX-License-Identifier: EPL-2.0
#include "apply/ctf_metadata.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

namespace tracesync::apply {
namespace {

// The packetized metadata header (CTF 1.8, section 7.1): magic, uuid[16],
// checksum, content_size and packet_size in bits, then five one-byte fields.
constexpr uint32_t kMetadataMagic = 0x75D11D57;
constexpr std::size_t kPacketHeaderSize = 4 + 16 + 4 + 4 + 4 + 5;

uint32_t read_u32(const std::string& bytes, std::size_t at, bool swap) {
  uint32_t value = 0;
  std::memcpy(&value, bytes.data() + at, 4);
  return swap ? __builtin_bswap32(value) : value;
}

std::size_t line_of(const std::string& text, std::size_t at) {
  return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

// Skips blanks and comments from `at`; returns the next significant byte.
std::size_t skip_blanks(const std::string& text, std::size_t at) {
  while (at < text.size()) {
    if (std::isspace(static_cast<unsigned char>(text[at]))) {
      ++at;
    } else if (text.compare(at, 2, "/*") == 0) {
      const std::size_t end = text.find("*/", at + 2);
      at = end == std::string::npos ? text.size() : end + 2;
    } else if (text.compare(at, 2, "//") == 0) {
      const std::size_t end = text.find('\n', at);
      at = end == std::string::npos ? text.size() : end + 1;
    } else {
      break;
    }
  }
  return at;
}

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The end of a string literal starting at `at` (a '"'), just after its closing quote.
std::size_t skip_string(const std::string& text, std::size_t at) {
  for (++at; at < text.size(); ++at) {
    if (text[at] == '\\') {
      ++at;
    } else if (text[at] == '"') {
      return at + 1;
    }
  }
  return text.size();
}

// A TSDL integer literal: decimal, 0x hex or 0 octal, an optional sign and
// U/L suffixes.
std::optional<int64_t> parse_integer(std::string literal) {
  while (!literal.empty() && (literal.back() == 'u' || literal.back() == 'U' || literal.back() == 'l' ||
                              literal.back() == 'L')) {
    literal.pop_back();
  }
  if (literal.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const bool negative = literal[0] == '-';
  const unsigned long long magnitude = std::strtoull(literal.c_str() + (negative ? 1 : 0), &end, 0);
  if (errno != 0 || *end != '\0' || end == literal.c_str() + (negative ? 1 : 0)) return std::nullopt;
  if (magnitude > static_cast<unsigned long long>(INT64_MAX)) return std::nullopt;
  const auto value = static_cast<int64_t>(magnitude);
  return negative ? -value : value;
}

std::string unquoted(const std::string& value) {
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') return value.substr(1, value.size() - 2);
  return value;
}

// [begin, end) widened to whole lines when the statement has its lines to
// itself (but for blanks and a trailing /* comment */ about it), so that a
// rewrite leaves no orphaned "/* Frequency, in Hz */".
std::pair<std::size_t, std::size_t> whole_lines(const std::string& text, std::size_t begin, std::size_t end) {
  std::size_t line_begin = begin;
  while (line_begin > 0 && (text[line_begin - 1] == ' ' || text[line_begin - 1] == '\t')) --line_begin;
  if (line_begin > 0 && text[line_begin - 1] != '\n') return {begin, end};
  std::size_t after = end;
  while (after < text.size() && (text[after] == ' ' || text[after] == '\t')) ++after;
  if (text.compare(after, 2, "/*") == 0) {
    const std::size_t close = text.find("*/", after + 2);
    if (close == std::string::npos || text.find('\n', after) < close) return {begin, end};
    after = close + 2;
    while (after < text.size() && (text[after] == ' ' || text[after] == '\t')) ++after;
  }
  if (after < text.size() && text[after] != '\n') return {begin, end};
  return {line_begin, after < text.size() ? after + 1 : after};
}

}  // namespace

std::optional<MetadataText> read_metadata_text(const std::filesystem::path& file, std::string* error) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    *error = "cannot open " + file.string();
    return std::nullopt;
  }
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) {
    *error = "cannot read " + file.string();
    return std::nullopt;
  }
  if (bytes.size() < 4) return MetadataText{bytes, false};
  const uint32_t magic = read_u32(bytes, 0, false);
  if (magic != kMetadataMagic && magic != __builtin_bswap32(kMetadataMagic)) return MetadataText{bytes, false};  // TSDL text
  // Packetized: the text is the concatenation of every packet's content.
  const bool swap = magic != kMetadataMagic;
  std::string text;
  std::size_t at = 0;
  for (uint64_t packet = 0; at < bytes.size(); ++packet) {
    const std::string where = file.string() + ": metadata packet " + std::to_string(packet) + " at byte " + std::to_string(at);
    if (bytes.size() - at < kPacketHeaderSize || read_u32(bytes, at, swap) != kMetadataMagic) {
      *error = where + ": no packet header (file cut short or damaged)";
      return std::nullopt;
    }
    const uint32_t content_bits = read_u32(bytes, at + 24, swap);
    const uint32_t packet_bits = read_u32(bytes, at + 28, swap);
    const uint8_t compression = static_cast<uint8_t>(bytes[at + 32]);
    const uint8_t encryption = static_cast<uint8_t>(bytes[at + 33]);
    if (compression != 0 || encryption != 0) {
      *error = where + ": compressed or encrypted metadata is not supported";
      return std::nullopt;
    }
    const std::size_t content = content_bits / 8;
    const std::size_t size = packet_bits / 8;
    if (content_bits % 8 != 0 || packet_bits % 8 != 0 || content < kPacketHeaderSize || size < content ||
        size > bytes.size() - at) {
      *error = where + ": content size " + std::to_string(content_bits) + " bits and packet size " +
               std::to_string(packet_bits) + " bits do not fit the file";
      return std::nullopt;
    }
    text.append(bytes, at + kPacketHeaderSize, content - kPacketHeaderSize);
    at += size;
  }
  // Padding after the content of the last packet may be NULs.
  while (!text.empty() && text.back() == '\0') text.pop_back();
  // A plain text metadata file opens with its version (babeltrace2 insists);
  // packets carry it in their headers instead.
  if (!text.starts_with("/* CTF ")) text.insert(0, "/* CTF 1.8 */\n");
  return MetadataText{text, true};
}

std::optional<std::vector<ClockBlock>> find_clock_blocks(const std::string& text, std::string* error) {
  std::vector<ClockBlock> blocks;
  int depth = 0;
  std::size_t at = 0;
  while ((at = skip_blanks(text, at)) < text.size()) {
    const char c = text[at];
    if (c == '"') {
      at = skip_string(text, at);
    } else if (c == '{') {
      ++depth;
      ++at;
    } else if (c == '}') {
      --depth;
      ++at;
    } else if (is_identifier_char(c)) {
      std::size_t end = at;
      while (end < text.size() && is_identifier_char(text[end])) ++end;
      const bool is_clock = depth == 0 && text.compare(at, end - at, "clock") == 0 &&
                            (at == 0 || !is_identifier_char(text[at - 1]));
      const std::size_t brace = skip_blanks(text, end);
      if (!is_clock || brace >= text.size() || text[brace] != '{') {
        at = end;
        continue;
      }
      ClockBlock block;
      block.body_begin = brace + 1;
      // Statements `name = value;` up to the block's closing brace.
      std::size_t s = block.body_begin;
      while (true) {
        s = skip_blanks(text, s);
        if (s >= text.size()) {
          *error = "line " + std::to_string(line_of(text, brace)) + ": clock block never closed";
          return std::nullopt;
        }
        if (text[s] == '}') break;
        const std::size_t statement = s;
        std::size_t name_end = s;
        while (name_end < text.size() && is_identifier_char(text[name_end])) ++name_end;
        const std::string name = text.substr(s, name_end - s);
        std::size_t eq = skip_blanks(text, name_end);
        if (name.empty() || eq >= text.size() || text[eq] != '=') {
          *error = "line " + std::to_string(line_of(text, s)) + ": expected 'name = value;' in a clock block";
          return std::nullopt;
        }
        std::size_t v = skip_blanks(text, eq + 1);
        std::size_t v_end = v;
        while (v_end < text.size() && text[v_end] != ';') {
          v_end = text[v_end] == '"' ? skip_string(text, v_end) : v_end + 1;
        }
        if (v_end >= text.size()) {
          *error = "line " + std::to_string(line_of(text, s)) + ": clock attribute '" + name + "' has no ';'";
          return std::nullopt;
        }
        std::string value = text.substr(v, v_end - v);
        while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back()))) value.pop_back();
        if (name == "name") block.name = unquoted(value);
        if (name == "uuid") block.uuid = unquoted(value);
        if (name == "freq" || name == "offset_s" || name == "offset") {
          const auto number = parse_integer(value);
          if (!number || (name == "freq" && *number <= 0)) {
            *error = "line " + std::to_string(line_of(text, s)) + ": clock " + name + " '" + value +
                     "' is not a usable integer";
            return std::nullopt;
          }
          if (name == "freq") block.mapping.freq = static_cast<uint64_t>(*number);
          if (name == "offset_s") block.mapping.offset_s = *number;
          if (name == "offset") block.mapping.offset = *number;
          block.mapping_statements.push_back(whole_lines(text, statement, v_end + 1));
        }
        s = v_end + 1;
      }
      block.body_end = s;
      blocks.push_back(std::move(block));
      at = s + 1;
    } else {
      ++at;
    }
  }
  return blocks;
}

std::string with_clock_mappings(const std::string& text, const std::vector<ClockBlock>& blocks,
                                const std::vector<ClockMapping>& mappings, const std::string& note) {
  std::string out;
  out.reserve(text.size() + 256 * blocks.size());
  std::size_t copied = 0;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    for (const auto& [begin, end] : blocks[b].mapping_statements) {
      out.append(text, copied, begin - copied);
      copied = end;
    }
    out.append(text, copied, blocks[b].body_end - copied);
    const ClockMapping& m = mappings[b];
    std::ostringstream set;
    if (!out.empty() && out.back() != '\n') set << "\n";
    set << "\t/* " << note << " */\n\tfreq = " << m.freq << ";\n\toffset_s = " << m.offset_s
        << ";\n\toffset = " << m.offset << ";\n";
    out += set.str();
    copied = blocks[b].body_end;
  }
  out.append(text, copied, std::string::npos);
  return out;
}

}  // namespace tracesync::apply
