#include "ingest/match_stream.h"

#include <charconv>
#include <vector>

namespace tracesync::ingest {
namespace {

constexpr std::string_view kSpaces = " \t\r";

std::vector<std::string_view> split(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t i = line.find_first_not_of(kSpaces);
  while (i != std::string_view::npos) {
    const std::size_t end = line.find_first_of(kSpaces, i);
    fields.push_back(line.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i));
    i = end == std::string_view::npos ? end : line.find_first_not_of(kSpaces, end);
  }
  return fields;
}

std::optional<std::string> parse_time(std::string_view text, const char* what, model::Nanoseconds& out) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (error == std::errc::result_out_of_range) {
    return std::string(what) + " '" + std::string(text) + "' is outside the signed 64-bit range";
  }
  if (error != std::errc() || end != text.data() + text.size()) {
    return std::string(what) + " '" + std::string(text) + "' is not a whole number of nanoseconds";
  }
  return std::nullopt;
}

}  // namespace

std::optional<StreamError> read_match_stream(std::istream& in,
                                             const std::function<void(const StreamMessage&)>& on_message) {
  std::string line;
  uint64_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::string_view text(line);
    const std::size_t first = text.find_first_not_of(kSpaces);
    if (first == std::string_view::npos || text[first] == '#') continue;
    const auto fields = split(text);
    if (fields.size() != 4) {
      return StreamError{number, "expected 4 fields 'SENDER SEND_NS RECEIVER RECV_NS', found " +
                                     std::to_string(fields.size())};
    }
    StreamMessage m{fields[0], 0, fields[2], 0, number};
    if (auto problem = parse_time(fields[1], "SEND_NS", m.send)) return StreamError{number, *problem};
    if (auto problem = parse_time(fields[3], "RECV_NS", m.receive)) return StreamError{number, *problem};
    on_message(m);
  }
  if (in.bad()) return StreamError{number + 1, "read error"};
  return std::nullopt;
}

}  // namespace tracesync::ingest
