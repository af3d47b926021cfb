// SPDX-License-Identifier: EPL-2.0
// libFuzzer target: the match-stream parser (ingest/match_stream) on any
// bytes. Besides never crashing, what it accepts must be what it says: every
// message comes from a line that holds exactly its four fields, line numbers
// grow, and writing the messages back out reads back to the same messages.

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "ingest/match_stream.h"

namespace {

using tracesync::ingest::read_match_stream;
using tracesync::ingest::StreamError;
using tracesync::ingest::StreamMessage;

struct Message {
  std::string sender;
  int64_t send;
  std::string receiver;
  int64_t receive;
  bool operator==(const Message&) const = default;
};

bool is_token(const std::string& text) {
  return !text.empty() && text.find_first_of(" \t\r\n") == std::string::npos && text.front() != '#';
}

std::vector<Message> read_all(const std::string& text, std::optional<StreamError>& error) {
  std::istringstream in(text);
  std::vector<Message> messages;
  uint64_t last_line = 0;
  error = read_match_stream(in, [&](const StreamMessage& m) {
    FUZZ_CHECK(m.line > last_line);
    last_line = m.line;
    messages.push_back({std::string(m.sender), m.send, std::string(m.receiver), m.receive});
  });
  if (error) FUZZ_CHECK(error->line > last_line && !error->message.empty());
  return messages;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::optional<StreamError> error;
  const std::vector<Message> messages = read_all(text, error);

  std::string written;
  for (const Message& m : messages) {
    FUZZ_CHECK(!m.sender.empty() && !m.receiver.empty());
    FUZZ_CHECK(m.sender.find_first_of(" \t\r\n") == std::string::npos);
    FUZZ_CHECK(m.receiver.find_first_of(" \t\r\n") == std::string::npos);
    // A sender starting with '#' would make its line a comment.
    FUZZ_CHECK(is_token(m.sender));
    written += m.sender + ' ' + std::to_string(m.send) + ' ' + m.receiver + ' ' + std::to_string(m.receive) + '\n';
  }
  std::optional<StreamError> error_again;
  FUZZ_CHECK(read_all(written, error_again) == messages);
  FUZZ_CHECK(!error_again);
  return 0;
}
