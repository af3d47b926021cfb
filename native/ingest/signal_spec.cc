// SPDX-License-Identifier: EPL-2.0
#include "ingest/signal_spec.h"

#include <charconv>
#include <map>

#include "ingest/network_event_names.h"
#include "ingest/spec_text.h"
#include "match/packet_event.h"

namespace tracesync::ingest {

namespace {


constexpr std::string_view kItems = "(items are event=, filter=, jitter=, clocks-within= and name=)";

std::optional<uint64_t> parse_unsigned(std::string_view text) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<int64_t> parse_signed(std::string_view text) {
  const bool negative = !text.empty() && text.front() == '-';
  const auto magnitude = parse_unsigned(negative ? text.substr(1) : text);
  if (!magnitude) return std::nullopt;
  if (!negative) {
    if (*magnitude > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
    return static_cast<int64_t>(*magnitude);
  }
  if (*magnitude > static_cast<uint64_t>(INT64_MAX) + 1) return std::nullopt;
  return static_cast<int64_t>(0 - *magnitude);
}

}  // namespace

std::optional<model::Nanoseconds> parse_signal_duration(std::string_view text) {
  text = trim_spec_text(text);
  std::size_t digits = 0;
  while (digits < text.size() && ((text[digits] >= '0' && text[digits] <= '9') || text[digits] == '.')) ++digits;
  const std::string_view number = text.substr(0, digits);
  const std::string_view unit = text.substr(digits);
  int64_t scale = 0;
  if (unit == "ns") scale = 1;
  else if (unit == "us") scale = 1'000;
  else if (unit == "ms") scale = 1'000'000;
  else if (unit == "s") scale = 1'000'000'000;
  else return std::nullopt;
  const std::size_t point = number.find('.');
  const std::string_view whole = number.substr(0, point);
  const std::string_view fraction = point == std::string_view::npos ? std::string_view() : number.substr(point + 1);
  if (whole.empty() || fraction.find('.') != std::string_view::npos) return std::nullopt;
  if (point != std::string_view::npos && fraction.empty()) return std::nullopt;
  const auto units = parse_unsigned(whole);
  if (!units || *units > static_cast<uint64_t>(INT64_MAX / scale)) return std::nullopt;
  int64_t ns = static_cast<int64_t>(*units) * scale;
  int64_t place = scale;
  for (const char c : fraction) {
    if (c < '0' || c > '9') return std::nullopt;
    place /= 10;
    if (place == 0) {
      if (c != '0') return std::nullopt;  // finer than a nanosecond
      continue;
    }
    ns += (c - '0') * place;
  }
  if (ns <= 0) return std::nullopt;
  return ns;
}

MessageSpec SignalSpec::reading_kind() const {
  MessageSpec kind;
  kind.name = name;
  kind.send_event = event;
  if (filter_field) kind.key.push_back(*filter_field);
  kind.text = text;
  return kind;
}

bool SignalSpec::passes(const match::AppKey& key, bool* type_mismatch) const {
  if (!filter_field) return true;
  if (key.size == 0) return false;
  match::AppKey expected;
  match::AppKeyBuilder build(expected);
  build.add_integer(key.words[0]);
  bool fits = true;
  switch (static_cast<SignalFieldType>(key.words[0])) {
    case SignalFieldType::kUnsigned: {
      const auto value = parse_unsigned(filter_value);
      fits = value.has_value();
      if (fits) build.add_integer(*value);
      break;
    }
    case SignalFieldType::kSigned: {
      const auto value = parse_signed(filter_value);
      fits = value.has_value();
      if (fits) build.add_integer(static_cast<uint64_t>(*value));
      break;
    }
    case SignalFieldType::kBool:
      fits = filter_value == "true" || filter_value == "false" || filter_value == "1" || filter_value == "0";
      if (fits) build.add_integer(filter_value == "true" || filter_value == "1" ? 1 : 0);
      break;
    case SignalFieldType::kString: fits = build.add_string(filter_value); break;
    default: fits = false;
  }
  if (!fits) {
    if (type_mismatch != nullptr) *type_mismatch = true;
    return false;
  }
  return expected == key;
}

std::variant<SignalSpec, std::string> parse_signal_spec(std::string_view text) {
  const std::string quoted = "'" + std::string(text) + "'";
  auto fail = [&](const std::string& why) { return "the signal spec " + quoted + " " + why; };
  SignalSpec spec;
  spec.text = std::string(trim_spec_text(text));
  std::map<std::string, bool> seen;
  std::string_view rest = text;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = trim_spec_text(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (item.empty()) {
      if (comma == std::string_view::npos) break;  // a trailing comma
      return fail("has an empty item (two commas in a row?)");
    }
    const std::size_t equals = item.find('=');
    if (equals == std::string_view::npos) {
      return fail("has an item without '=': '" + std::string(item) + "' " + std::string(kItems));
    }
    const std::string word(trim_spec_text(item.substr(0, equals)));
    const std::string_view value = trim_spec_text(item.substr(equals + 1));
    if (word != "event" && word != "filter" && word != "jitter" && word != "clocks-within" && word != "name") {
      return fail("has an unknown item '" + word + "=' " + std::string(kItems));
    }
    if (seen.count(word) != 0) return fail("gives " + word + "= twice");
    seen[word] = true;
    if (word == "filter") {
      const std::size_t same = value.find("==");
      if (same == std::string_view::npos) return fail("needs filter=FIELD==VALUE, not '" + std::string(value) + "'");
      std::string_view field = trim_spec_text(value.substr(0, same));
      const std::string_view wanted = trim_spec_text(value.substr(same + 2));
      KeyField key;
      for (const auto& [prefix, scope] : {std::pair<std::string_view, FieldScope>{"payload.", FieldScope::kPayload},
                                          std::pair<std::string_view, FieldScope>{"context.", FieldScope::kContext}}) {
        if (field.substr(0, prefix.size()) == prefix) {
          key.scope = scope;
          field.remove_prefix(prefix.size());
          break;
        }
      }
      if (!is_spec_name(field)) return fail("has a filter field that is not a name: '" + std::string(field) + "'");
      if (wanted.empty() || wanted.find(',') != std::string_view::npos) {
        return fail("has a filter without a value (filter=FIELD==VALUE)");
      }
      key.name = std::string(field);
      spec.filter_field = key;
      spec.filter_value = std::string(wanted);
    } else if (word == "jitter" || word == "clocks-within") {
      const auto duration = parse_signal_duration(value);
      if (!duration) {
        return fail("has " + word + "='" + std::string(value) +
                    "', not a duration: a positive number with a unit, ns, us, ms or s (2us, 0.5ms)");
      }
      if (word == "jitter") {
        spec.jitter = *duration;
      } else {
        spec.clocks_within = *duration;
      }
    } else if (!is_spec_name(value)) {
      return fail("needs a name after " + word + "=, not '" + std::string(value) + "'");
    } else if (word == "event") {
      spec.event = std::string(value);
    } else {
      spec.name = std::string(value);
    }
  }
  if (spec.event.empty()) return fail("names no event (event=PROVIDER:EVENT)");
  if (spec.jitter == 0) return fail("gives no jitter (jitter=DURATION, e.g. jitter=2us)");
  if (spec.name.empty()) spec.name = spec.event;
  return spec;
}

namespace {
std::variant<SignalSpec, std::string> parse_one(std::string_view text) { return parse_signal_spec(text); }
}  // namespace

std::variant<std::vector<SignalSpec>, std::string> read_signal_specs_file(const std::string& path) {
  return read_spec_file<SignalSpec>(path, "signal specs", parse_one);
}

std::variant<std::vector<SignalSpec>, std::string> parse_signal_specs(const std::vector<std::string>& texts,
                                                                      const std::vector<std::string>& files) {
  auto gathered = gather_specs<SignalSpec>(texts, files, "signal specs", parse_one);
  if (std::holds_alternative<std::string>(gathered)) return gathered;
  std::vector<SignalSpec> specs = std::get<std::vector<SignalSpec>>(std::move(gathered));
  std::map<std::string, const SignalSpec*> names;
  for (const SignalSpec& spec : specs) {
    if (const auto [at, fresh] = names.emplace(spec.name, &spec); !fresh) {
      return "two signals are named '" + spec.name + "' ('" + at->second->text + "' and '" + spec.text +
             "'): give each a name=";
    }
  }
  return specs;
}

std::variant<std::vector<MessageSpec>, std::string> reading_kinds(const std::vector<MessageSpec>& messages,
                                                                  const std::vector<SignalSpec>& signals) {
  std::vector<MessageSpec> kinds = messages;
  for (const SignalSpec& signal : signals) {
    if (network_event_index(signal.event)) {
      return "the signal spec '" + signal.text + "' names " + signal.event +
             ", a kernel network event tracesync reads as TCP already";
    }
    for (const MessageSpec& kind : kinds) {
      if (kind.send_event == signal.event || kind.receive_event == signal.event) {
        return "the event " + signal.event + " is both " +
               (kind.is_signal() ? "the signal '" + kind.name + "'"
                                 : std::string("an event of the messages '") + kind.name + "'") +
               " and the signal '" + signal.name + "': an event has one role";
      }
    }
    kinds.push_back(signal.reading_kind());
  }
  if (kinds.size() > match::kMaxAppKinds) {
    return "at most " + std::to_string(match::kMaxAppKinds) + " message kinds and signals can be declared, not " +
           std::to_string(kinds.size());
  }
  return kinds;
}

}  // namespace tracesync::ingest
