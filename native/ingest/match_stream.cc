// SPDX-License-Identifier: EPL-2.0
#include "ingest/match_stream.h"

#include <charconv>
#include <cstring>
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
    return std::string(what) + " " + quoted_excerpt(text) + " is outside the signed 64-bit range";
  }
  if (error != std::errc() || end != text.data() + text.size()) {
    return std::string(what) + " " + quoted_excerpt(text) + " is not a whole number of nanoseconds";
  }
  return std::nullopt;
}

// Whether `text` reads as a time does (an optional sign, digits): a
// message's second field, never a signal's name.
bool is_whole_number(std::string_view text) {
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) text.remove_prefix(1);
  return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

// Lines of an input stream of any kind (file, pipe, terminal), none longer
// than kMaxMatchLineBytes: input without newlines must not grow without bound.
class LineReader {
 public:
  explicit LineReader(std::istream& in) : in_(in) {}

  enum class Status { kLine, kEnd, kTooLong, kReadError };

  // The next line, without its '\n'.
  Status next(std::string& line) {
    line.clear();
    for (;;) {
      if (at_ == size_ && !refill()) {
        if (in_.bad()) return Status::kReadError;
        if (!partial_) return Status::kEnd;
        partial_ = false;
        return Status::kLine;
      }
      const char* begin = buffer_.data() + at_;
      const auto* newline = static_cast<const char*>(std::memchr(begin, '\n', size_ - at_));
      const std::size_t take = newline == nullptr ? size_ - at_ : static_cast<std::size_t>(newline - begin);
      if (line.size() + take > kMaxMatchLineBytes) return Status::kTooLong;
      line.append(begin, take);
      at_ += take;
      if (newline != nullptr) {
        ++at_;
        partial_ = false;
        return Status::kLine;
      }
      partial_ = true;  // a last line without '\n' is still a line
    }
  }

 private:
  bool refill() {
    if (!in_) return false;
    in_.read(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    size_ = static_cast<std::size_t>(in_.gcount());
    at_ = 0;
    return size_ > 0;
  }

  std::istream& in_;
  std::vector<char> buffer_ = std::vector<char>(std::size_t{1} << 16);
  std::size_t size_ = 0;
  std::size_t at_ = 0;
  bool partial_ = false;
};

}  // namespace

std::string quoted_excerpt(std::string_view text) {
  constexpr std::size_t kShown = 40;
  if (text.size() <= kShown) return "'" + std::string(text) + "'";
  return "'" + std::string(text.substr(0, kShown)) + "...' (" + std::to_string(text.size()) + " bytes)";
}

std::optional<StreamError> read_match_stream(std::istream& in,
                                             const std::function<void(const StreamMessage&)>& on_message,
                                             const std::function<void(const StreamSignal&)>& on_signal) {
  LineReader lines(in);
  std::string line;
  uint64_t number = 0;
  for (;;) {
    const LineReader::Status status = lines.next(line);
    if (status == LineReader::Status::kEnd) return std::nullopt;
    ++number;
    if (status == LineReader::Status::kReadError) return StreamError{number, "read error"};
    if (status == LineReader::Status::kTooLong) {
      return StreamError{number, "the line is longer than " + std::to_string(kMaxMatchLineBytes) +
                                     " bytes, the limit (is this a match stream?)"};
    }
    const std::string_view text(line);
    const std::size_t first = text.find_first_not_of(kSpaces);
    if (first == std::string_view::npos || text[first] == '#') continue;
    const auto fields = split(text);
    if (fields.size() == 4 && fields[0] == "signal" && !is_whole_number(fields[1])) {
      if (!on_signal) {
        return StreamError{number, "a signal line ('signal NAME HOST TIME_NS'), where only messages are read"};
      }
      StreamSignal signal{fields[1], fields[2], 0, number};
      if (auto problem = parse_time(fields[3], "TIME_NS", signal.time)) return StreamError{number, *problem};
      on_signal(signal);
      continue;
    }
    if (fields.size() != 4) {
      return StreamError{number, "expected 4 fields 'SENDER SEND_NS RECEIVER RECV_NS', found " +
                                     std::to_string(fields.size())};
    }
    StreamMessage m{fields[0], 0, fields[2], 0, number};
    if (auto problem = parse_time(fields[1], "SEND_NS", m.send)) return StreamError{number, *problem};
    if (auto problem = parse_time(fields[3], "RECV_NS", m.receive)) return StreamError{number, *problem};
    on_message(m);
  }
}

}  // namespace tracesync::ingest
