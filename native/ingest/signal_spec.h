// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ingest/message_spec.h"
#include "match/app_key.h"
#include "model/point.h"

namespace tracesync::ingest {

// One simultaneous signal of `--simultaneous` (docs/signals.md): an event
// that every host records at the same true instant (a PPS interrupt, a
// hardware line wired to every machine, a broadcast frame):
//   [name=NAME,]event=EVENT[,filter=FIELD==VALUE],jitter=DURATION[,clocks-within=DURATION]
// `jitter`: every host records every occurrence within +-jitter of its true
// instant (true time). `clocks-within`: the hosts' own clocks agree within
// it (NTP, say): enough to pair occurrences when no message aligns them.
struct SignalSpec {
  std::string name;   // defaults to the event's name
  std::string event;
  std::optional<KeyField> filter_field;
  std::string filter_value;  // as written, when filter_field is set
  model::Nanoseconds jitter = 0;
  std::optional<model::Nanoseconds> clocks_within;
  std::string text;  // as given, for messages

  // The application kind the readers deliver its occurrences as: its event
  // as the "send" event, no receive event (MessageSpec::is_signal), and the
  // filter field (if any) as the key, preceded by a word naming the field's
  // type (AppEventDecoder), so that the filter compares exactly.
  MessageSpec reading_kind() const;
  // Whether an occurrence's key (as the decoder built it) passes the filter.
  // `type_mismatch` is set when the field's type cannot hold the value (a
  // word filter on a string field, say).
  bool passes(const match::AppKey& key, bool* type_mismatch = nullptr) const;
};

// The word a signal's key begins with: the filter field's type.
enum class SignalFieldType : uint64_t { kUnsigned = 0, kSigned = 1, kBool = 2, kString = 3 };

// "2us", "1.5ms", "100ns", "1s": a positive whole number of nanoseconds;
// nullopt otherwise.
std::optional<model::Nanoseconds> parse_signal_duration(std::string_view text);

std::variant<SignalSpec, std::string> parse_signal_spec(std::string_view text);
// One a line; blank lines and lines that begin with `#` are skipped.
std::variant<std::vector<SignalSpec>, std::string> read_signal_specs_file(const std::string& path);
// `--simultaneous` specs first, then each `--simultaneous-file`; checked
// together (two signals of one name, one event twice).
std::variant<std::vector<SignalSpec>, std::string> parse_signal_specs(const std::vector<std::string>& texts,
                                                                      const std::vector<std::string>& files);

// The kinds the readers deliver, in kind order (kind k at k - 1): the
// message kinds, then each signal's reading_kind(); checked together (an
// event cannot be a message's and a signal's). Kind messages.size() + 1 + i
// is signal i.
std::variant<std::vector<MessageSpec>, std::string> reading_kinds(const std::vector<MessageSpec>& messages,
                                                                  const std::vector<SignalSpec>& signals);

}  // namespace tracesync::ingest
