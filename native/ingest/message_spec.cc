// SPDX-License-Identifier: EPL-2.0
#include "ingest/message_spec.h"

#include <map>

#include "ingest/network_event_names.h"
#include "ingest/spec_text.h"
#include "match/packet_event.h"

namespace tracesync::ingest {

namespace {


std::variant<KeyField, std::string> parse_field(std::string_view text) {
  KeyField field;
  for (const auto& [prefix, scope] : {std::pair<std::string_view, FieldScope>{"payload.", FieldScope::kPayload},
                                      std::pair<std::string_view, FieldScope>{"context.", FieldScope::kContext}}) {
    if (text.substr(0, prefix.size()) == prefix) {
      field.scope = scope;
      text.remove_prefix(prefix.size());
      break;
    }
  }
  text = trim_spec_text(text);
  if (!is_spec_name(text)) return "a key field must be a name, not '" + std::string(text) + "'";
  field.name = std::string(text);
  return field;
}

}  // namespace

std::string KeyField::text() const {
  switch (scope) {
    case FieldScope::kPayload: return "payload." + name;
    case FieldScope::kContext: return "context." + name;
    case FieldScope::kAny: break;
  }
  return name;
}

std::string MessageSpec::canonical() const {
  std::string out = "name=" + name + ",send=" + send_event + ",recv=" + receive_event + ",key=";
  for (std::size_t i = 0; i < key.size(); ++i) out += (i == 0 ? "" : "+") + key[i].text();
  return out;
}

std::variant<MessageSpec, std::string> parse_message_spec(std::string_view text) {
  if (trim_spec_text(text) == kProbePreset) {
    auto spec = parse_message_spec(kProbeSpec);
    std::get<MessageSpec>(spec).text = std::string(kProbePreset);
    return spec;
  }
  const std::string quoted = "'" + std::string(text) + "'";
  auto fail = [&](const std::string& why) { return "the message spec " + quoted + " " + why; };
  MessageSpec spec;
  spec.text = std::string(trim_spec_text(text));
  std::map<std::string, std::string> seen;
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
      return fail("has an item without '=': '" + std::string(item) + "' (items are send=, recv=, key= and name=)");
    }
    std::string word(trim_spec_text(item.substr(0, equals)));
    const std::string_view value = trim_spec_text(item.substr(equals + 1));
    if (word == "receive") word = "recv";
    if (word != "send" && word != "recv" && word != "key" && word != "name") {
      return fail("has an unknown item '" + word + "=' (items are send=, recv=, key= and name=)");
    }
    if (seen.count(word) != 0) return fail("gives " + word + "= twice");
    seen[word] = std::string(value);
    if (word == "key") {
      std::string_view fields = value;
      while (true) {
        const std::size_t plus = fields.find('+');
        auto field = parse_field(trim_spec_text(fields.substr(0, plus)));
        if (auto* why = std::get_if<std::string>(&field)) return fail("has a bad key: " + *why);
        spec.key.push_back(std::get<KeyField>(std::move(field)));
        if (plus == std::string_view::npos) break;
        fields = fields.substr(plus + 1);
      }
    } else if (!is_spec_name(value)) {
      return fail("needs a name after " + word + "=, not '" + std::string(value) + "'");
    } else if (word == "send") {
      spec.send_event = std::string(value);
    } else if (word == "recv") {
      spec.receive_event = std::string(value);
    } else {
      spec.name = std::string(value);
    }
  }
  if (spec.send_event.empty()) return fail("names no send event (send=PROVIDER:EVENT)");
  if (spec.receive_event.empty()) return fail("names no receive event (recv=PROVIDER:EVENT)");
  if (spec.key.empty()) return fail("names no key field (key=FIELD[+FIELD...])");
  if (spec.send_event == spec.receive_event) {
    return fail("names one event, " + spec.send_event + ", as both send and receive");
  }
  for (std::size_t i = 0; i < spec.key.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (spec.key[i].name == spec.key[j].name && spec.key[i].scope == spec.key[j].scope) {
        return fail("names the key field " + spec.key[i].text() + " twice");
      }
    }
  }
  if (spec.name.empty()) spec.name = spec.send_event;
  return spec;
}

namespace {
std::variant<MessageSpec, std::string> parse_one(std::string_view text) { return parse_message_spec(text); }
}  // namespace

std::variant<std::vector<MessageSpec>, std::string> read_message_specs_file(const std::string& path) {
  return read_spec_file<MessageSpec>(path, "message specs", parse_one);
}

std::variant<std::vector<MessageSpec>, std::string> parse_message_specs(const std::vector<std::string>& texts,
                                                                        const std::vector<std::string>& files) {
  auto gathered = gather_specs<MessageSpec>(texts, files, "message specs", parse_one);
  if (std::holds_alternative<std::string>(gathered)) return gathered;
  std::vector<MessageSpec> specs = std::get<std::vector<MessageSpec>>(std::move(gathered));
  if (std::string problem = check_message_specs(specs); !problem.empty()) return problem;
  return specs;
}

std::string check_message_specs(const std::vector<MessageSpec>& specs) {
  if (specs.size() > match::kMaxAppKinds) {
    return "at most " + std::to_string(match::kMaxAppKinds) + " message kinds can be declared, not " +
           std::to_string(specs.size());
  }
  std::map<std::string, std::string> role_of;  // event -> "the send of 'rpc'"
  std::map<std::string, std::size_t> names;
  for (const MessageSpec& spec : specs) {
    if (names.count(spec.name) != 0) {
      return "two message kinds are named '" + spec.name + "' ('" + specs[names[spec.name]].text + "' and '" +
             spec.text + "'): give each a name=";
    }
    names[spec.name] = static_cast<std::size_t>(&spec - specs.data());
    for (const auto& [event, role] : {std::pair<const std::string&, const char*>{spec.send_event, "send"},
                                      std::pair<const std::string&, const char*>{spec.receive_event, "receive"}}) {
      if (event.empty()) continue;  // a signal's (is_signal)
      if (network_event_index(event)) {
        return "the message spec '" + spec.text + "' names " + event +
               ", a kernel network event tracesync reads as TCP already";
      }
      const std::string here = std::string("the ") + role + " of '" + spec.name + "'";
      const auto [at, fresh] = role_of.emplace(event, here);
      if (!fresh) return "the event " + event + " is both " + at->second + " and " + here + ": an event has one role";
    }
  }
  return {};
}

}  // namespace tracesync::ingest
