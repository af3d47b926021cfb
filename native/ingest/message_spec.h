// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tracesync::ingest {

// Where a key field is looked up in an event (docs/app-messages.md).
enum class FieldScope : uint8_t {
  kAny,      // `NAME`: the payload, else the event's own context, else its stream's event context
  kPayload,  // `payload.NAME`
  kContext,  // `context.NAME`: the event's own context, else its stream's event context
};

struct KeyField {
  std::string name;  // as written, without its scope prefix
  FieldScope scope = FieldScope::kAny;

  std::string text() const;  // as the user writes it: "msg_id", "context.vtid"
  friend bool operator==(const KeyField&, const KeyField&) = default;
};

// One application message kind of `--messages` (docs/app-messages.md):
//   [name=NAME,]send=EVENT,recv=EVENT,key=FIELD[+FIELD...]
// EVENT is an event class name as the trace has it (an lttng-ust event is
// PROVIDER:EVENT). Items may come in any order, separated by commas, spaces
// around them ignored; `receive=` is `recv=`. The name defaults to the send
// event's name.
struct MessageSpec {
  std::string name;
  std::string send_event;
  std::string receive_event;
  std::vector<KeyField> key;
  std::string text;  // as given, for messages

  // A simultaneous signal's occurrences (ingest/signal_spec.h) travel the
  // reading path as an application kind with no receive event: never matched.
  bool is_signal() const { return receive_event.empty(); }

  // The spec in its canonical form (what parse_message_spec reads back alike).
  std::string canonical() const;
  friend bool operator==(const MessageSpec&, const MessageSpec&) = default;
};

// The built-in kind of `tracesync probe`'s user-space events: the spec
// `probe` stands for kProbeSpec (docs/probe.md). Its events are those of
// native/probe/lttng/tracesync_probe_tp.h; (round, leg) names one message.
inline constexpr std::string_view kProbePreset = "probe";
inline constexpr std::string_view kProbeSpec =
    "name=probe,send=tracesync_probe:round_send,recv=tracesync_probe:round_recv,key=round+leg";

// A spec, or the reason it is not one (in a user's words, naming the text).
// The word `probe` alone is the built-in spec kProbeSpec.
std::variant<MessageSpec, std::string> parse_message_spec(std::string_view text);

// The specs of a `--messages-file`: one a line; blank lines and lines that
// begin with `#` are skipped. An error names the file and line.
std::variant<std::vector<MessageSpec>, std::string> read_message_specs_file(const std::string& path);

// The specs of a run, in kind order: those of `texts` (`--messages`) first,
// then those of each file of `files` (`--messages-file`), checked together
// (check_message_specs); or the first problem found.
std::variant<std::vector<MessageSpec>, std::string> parse_message_specs(const std::vector<std::string>& texts,
                                                                        const std::vector<std::string>& files);

// Problems between specs (two kinds of one name, an event in two roles, an
// event that is a kernel network event, too many kinds); empty when fine.
std::string check_message_specs(const std::vector<MessageSpec>& specs);

}  // namespace tracesync::ingest
