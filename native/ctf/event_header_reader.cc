// SPDX-License-Identifier: EPL-2.0
#include "ctf/event_header_reader.h"

#include <bit>
#include <cstring>

namespace tracesync::ctf {

namespace {

using FC = FieldClass;

// An unsigned little-endian integer (or enumeration) of this size and
// alignment, mapped to `clock` (or to no clock when it is empty).
bool is_unsigned(const FC& fc, unsigned size, unsigned alignment, const std::string& clock) {
  return fc.is_integer() && !fc.is_signed && !fc.variable_length && fc.size == size && fc.alignment == alignment &&
         fc.byte_order == ByteOrder::kLittle && fc.mapped_clock == clock;
}

bool named(const Member& member, const char* name) { return member.name == name; }

// The enumeration maps exactly `compact` to 0 ... last - 1 and `extended`
// to `last`, and nothing else.
bool maps_compact_and_extended(const FC& id, int64_t last) {
  if (id.kind != FC::Kind::kEnumeration || id.mappings.size() != 2) return false;
  bool compact = false, extended = false;
  for (const Mapping& m : id.mappings) {
    if (m.label == "compact" && m.lower == 0 && m.upper == last - 1) compact = true;
    if (m.label == "extended" && m.lower == last && m.upper == last) extended = true;
  }
  return compact && extended;
}

bool selects_by_the_id(const FieldPath& selector) {
  if (selector.names.size() != 1 || selector.names[0] != "id" || selector.climb != 0) return false;
  return !selector.absolute || selector.scope == Scope::kEventHeader;
}

}  // namespace

std::optional<EventHeaderReader> EventHeaderReader::recognise(const FieldClass& header, const std::string& clock,
                                                            int id_register, bool other_registers) {
  // The loads below read a little-endian host's integers.
  if constexpr (std::endian::native != std::endian::little) return std::nullopt;
  if (other_registers || clock.empty()) return std::nullopt;
  if (header.kind != FC::Kind::kStructure || header.members.size() != 2 || header.alignment < 8 ||
      header.alignment > 64 || (header.alignment & (header.alignment - 1)) != 0) {
    return std::nullopt;
  }
  const Member& id = header.members[0];
  const Member& v = header.members[1];
  if (named(id, "id") && named(v, "timestamp") && is_unsigned(*id.type, 64, 8, "") &&
      is_unsigned(*v.type, 64, 8, clock)) {
    return EventHeaderReader(Layout::kIdAndTime, header.alignment, id_register);
  }
  if (!named(id, "id") || !named(v, "v") || v.type->kind != FC::Kind::kVariant || !v.type->option_ranges.empty() ||
      !selects_by_the_id(v.type->selector) || v.type->members.size() != 2) {
    return std::nullopt;
  }
  std::optional<Layout> layout;
  if (is_unsigned(*id.type, 5, 1, "") && maps_compact_and_extended(*id.type, 31)) layout = Layout::kCompact;
  if (is_unsigned(*id.type, 16, 8, "") && maps_compact_and_extended(*id.type, 65535)) layout = Layout::kLarge;
  if (!layout) return std::nullopt;
  const Member& compact = v.type->members[0];
  const Member& extended = v.type->members[1];
  if (!named(compact, "compact") || !named(extended, "extended") || compact.type->kind != FC::Kind::kStructure ||
      extended.type->kind != FC::Kind::kStructure || compact.type->members.size() != 1 ||
      extended.type->members.size() != 2) {
    return std::nullopt;
  }
  // The compact option's structure: its timestamp alone, packed after the
  // id (compact) or on the next byte (large).
  const Member& short_time = compact.type->members[0];
  const bool short_fits = *layout == Layout::kCompact
                              ? compact.type->alignment == 1 && is_unsigned(*short_time.type, 27, 1, clock)
                              : compact.type->alignment == 8 && is_unsigned(*short_time.type, 32, 8, clock);
  const Member& long_id = extended.type->members[0];
  const Member& long_time = extended.type->members[1];
  if (!short_fits || !named(short_time, "timestamp") || extended.type->alignment != 8 || !named(long_id, "id") ||
      !is_unsigned(*long_id.type, 32, 8, "") || !named(long_time, "timestamp") ||
      !is_unsigned(*long_time.type, 64, 8, clock)) {
    return std::nullopt;
  }
  return EventHeaderReader(*layout, header.alignment, id_register);
}

bool EventHeaderReader::read_near_end(const uint8_t* data, uint64_t& at, uint64_t limit, uint64_t& id,
                                     uint64_t& clock, uint64_t* registers) const {
  const uint64_t start = (at + alignment_ - 1) & ~uint64_t{alignment_ - 1};
  if (layout_ == Layout::kIdAndTime) return false;  // one length: read() saw it does not fit
  const uint64_t shortest = layout_ == Layout::kCompact ? 32 : 48;
  if (start > limit || limit - start < shortest) return false;
  const uint8_t* p = data + start / 8;
  const bool extended = layout_ == Layout::kCompact ? (p[0] & 0x1f) == 31 : (p[0] == 0xff && p[1] == 0xff);
  if (extended && limit - start < kLongest[static_cast<int>(layout_)]) return false;
  if (layout_ == Layout::kCompact) {
    read_at_as<Layout::kCompact>(data, start, at, id, clock, registers);
  } else {
    read_at_as<Layout::kLarge>(data, start, at, id, clock, registers);
  }
  return true;
}

}  // namespace tracesync::ctf
