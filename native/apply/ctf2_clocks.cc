// SPDX-License-Identifier: EPL-2.0
#include "apply/ctf2_clocks.h"

#include <nlohmann/json.hpp>

namespace tracesync::apply {

namespace {

using json = nlohmann::ordered_json;  // a copy keeps the writer's key order

constexpr char kRecordSeparator = '\x1e';

// The fragments' texts, each without its separator.
std::vector<std::string> fragments_of(const std::string& text) {
  std::vector<std::string> fragments;
  std::size_t at = text.find(kRecordSeparator);
  while (at != std::string::npos) {
    const std::size_t next = text.find(kRecordSeparator, at + 1);
    fragments.push_back(text.substr(at + 1, (next == std::string::npos ? text.size() : next) - at - 1));
    at = next;
  }
  return fragments;
}

std::optional<json> clock_class(const std::string& fragment, std::size_t index, std::string* error) {
  json j = json::parse(fragment, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    *error = "fragment " + std::to_string(index) + ": not a JSON object";
    return std::nullopt;
  }
  const auto type = j.find("type");
  if (type == j.end() || *type != "clock-class") return json();  // not a clock: null
  return j;
}

// ns from origin = offset_s * 1e9 + (offset + cycles) * 1e9 / freq, as in
// CTF 1.8: CTF 2's offset-from-origin {seconds, cycles} is the same pair.
std::optional<ClockMapping> mapping_of(const json& clock, std::size_t index, std::string* error) {
  ClockMapping mapping;
  const std::string where = "fragment " + std::to_string(index) + " (clock-class)";
  const auto frequency = clock.find("frequency");
  if (frequency == clock.end() || !frequency->is_number_unsigned() || frequency->get<uint64_t>() == 0) {
    *error = where + ": no frequency";
    return std::nullopt;
  }
  mapping.freq = frequency->get<uint64_t>();
  auto offset = clock.find("offset-from-origin");
  if (offset == clock.end()) offset = clock.find("offset");
  if (offset != clock.end() && offset->is_object()) {
    if (const auto s = offset->find("seconds"); s != offset->end() && s->is_number_integer()) mapping.offset_s = s->get<int64_t>();
    if (const auto c = offset->find("cycles"); c != offset->end() && c->is_number_integer()) mapping.offset = c->get<int64_t>();
  }
  return mapping;
}

}  // namespace

bool is_ctf2_text(const std::string& text) { return !text.empty() && text.front() == kRecordSeparator; }

std::optional<std::vector<ClockBlock>> find_ctf2_clocks(const std::string& text, std::string* error) {
  std::vector<ClockBlock> blocks;
  const std::vector<std::string> fragments = fragments_of(text);
  for (std::size_t i = 0; i < fragments.size(); ++i) {
    const auto clock = clock_class(fragments[i], i + 1, error);
    if (!clock) return std::nullopt;
    if (clock->is_null()) continue;
    const auto mapping = mapping_of(*clock, i + 1, error);
    if (!mapping) return std::nullopt;
    ClockBlock block;
    for (const char* key : {"id", "name"}) {
      if (const auto name = clock->find(key); block.name.empty() && name != clock->end() && name->is_string()) {
        block.name = name->get<std::string>();
      }
    }
    if (const auto uid = clock->find("uid"); uid != clock->end() && uid->is_string()) block.uuid = uid->get<std::string>();
    block.mapping = *mapping;
    blocks.push_back(std::move(block));
  }
  return blocks;
}

std::optional<std::string> with_ctf2_clock_mappings(const std::string& text, const std::vector<ClockMapping>& mappings,
                                                    const std::string& note, std::string* error) {
  std::string out;
  std::size_t next = 0;
  const std::vector<std::string> fragments = fragments_of(text);
  for (std::size_t i = 0; i < fragments.size(); ++i) {
    const auto clock = clock_class(fragments[i], i + 1, error);
    if (!clock) return std::nullopt;
    out += kRecordSeparator;
    if (clock->is_null()) {
      out += fragments[i];
      continue;
    }
    if (next == mappings.size()) {
      *error = "more clock classes than mappings";
      return std::nullopt;
    }
    // CTF 2 wants 0 <= cycles < frequency: whole seconds move to the
    // seconds (exactly: freq cycles are one second).
    const ClockMapping& m = mappings[next++];
    const auto freq = static_cast<int64_t>(m.freq);
    int64_t seconds = m.offset_s + m.offset / freq;
    int64_t cycles = m.offset % freq;
    if (cycles < 0) {
      cycles += freq;
      --seconds;
    }
    json changed = *clock;
    changed["frequency"] = m.freq;
    changed.erase("offset");  // the draft's name: one offset only
    changed["offset-from-origin"] = {{"seconds", seconds}, {"cycles", cycles}};
    changed["attributes"]["tracesync"]["apply"] = note;
    out += changed.dump(2);
    out += '\n';
  }
  if (next != mappings.size()) {
    *error = "fewer clock classes than mappings";
    return std::nullopt;
  }
  return out;
}

}  // namespace tracesync::apply
