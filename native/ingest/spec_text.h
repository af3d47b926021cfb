// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <fstream>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace tracesync::ingest {

// What the spec languages of `--messages` (message_spec) and
// `--simultaneous` (signal_spec) share: their words, and how specs given on
// the command line and in files (one a line) are gathered.

// `text` without its leading and trailing blanks (and a line's '\r').
inline std::string_view trim_spec_text(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

// Event and field names: printable, no separator of the spec syntax.
inline bool is_spec_name(std::string_view text) {
  if (text.empty()) return false;
  for (const char c : text) {
    if (c <= ' ' || c == ',' || c == '=' || c == '+' || c == 0x7f) return false;
  }
  return true;
}

// The specs of a file, one a line (blank lines and lines that begin with
// `#` skipped), each read by `parse` (text -> variant<Spec, reason>); a
// reason names the file and line. `noun` says what the file holds in
// messages: "message specs", "signal specs".
template <class Spec, class Parse>
std::variant<std::vector<Spec>, std::string> read_spec_file(const std::string& path, std::string_view noun,
                                                            Parse&& parse) {
  const std::string cannot = "cannot read the " + std::string(noun) + " file '" + path + "'";
  std::ifstream in(path);
  if (!in) return cannot;
  std::vector<Spec> specs;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    const std::string_view text = trim_spec_text(line);
    if (text.empty() || text.front() == '#') continue;
    auto spec = parse(text);
    if (auto* why = std::get_if<std::string>(&spec)) return path + ":" + std::to_string(number) + ": " + *why;
    specs.push_back(std::get<Spec>(std::move(spec)));
  }
  if (in.bad()) return cannot;
  if (specs.empty()) return "the " + std::string(noun) + " file '" + path + "' holds no spec";
  return specs;
}

// The specs given as `texts` (an option's values), then those of each file
// of `files`, in that order; the first reason stops it.
template <class Spec, class Parse>
std::variant<std::vector<Spec>, std::string> gather_specs(const std::vector<std::string>& texts,
                                                          const std::vector<std::string>& files,
                                                          std::string_view noun, Parse&& parse) {
  std::vector<Spec> specs;
  for (const std::string& text : texts) {
    auto spec = parse(text);
    if (auto* why = std::get_if<std::string>(&spec)) return *why;
    specs.push_back(std::get<Spec>(std::move(spec)));
  }
  for (const std::string& file : files) {
    auto more = read_spec_file<Spec>(file, noun, parse);
    if (auto* why = std::get_if<std::string>(&more)) return *why;
    for (Spec& spec : std::get<std::vector<Spec>>(more)) specs.push_back(std::move(spec));
  }
  return specs;
}

}  // namespace tracesync::ingest
