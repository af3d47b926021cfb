// SPDX-License-Identifier: EPL-2.0
#include "simulate/truth_reader.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

#include "model/quad.h"
#include "simulate/truth_writer.h"

namespace tracesync::simulate {
namespace {

using Json = nlohmann::json;
using model::Nanoseconds;
using model::Quad;

// Reads the fields of one JSON object, naming where a problem is.
class Fields {
 public:
  Fields(const Json& object, std::string where) : object_(object), where_(std::move(where)) {
    if (!object_.is_object()) fail("is not an object");
  }

  const Json& at(const char* key) const {
    const auto it = object_.find(key);
    if (it == object_.end()) fail(std::string("has no \"") + key + "\"");
    return *it;
  }
  int64_t integer(const char* key) const { return integer_of(at(key), key); }
  std::string text(const char* key) const {
    const Json& j = at(key);
    if (!j.is_string()) fail(std::string("\"") + key + "\" is not a string");
    return j.get<std::string>();
  }
  int64_t integer_of(const Json& j, const std::string& what) const {
    if (!j.is_number_integer()) fail(what + " is not an integer");
    return j.get<int64_t>();
  }
  Quad decimal_of(const Json& j, const std::string& what) const {
    const auto value = j.is_string() ? model::parse_decimal(j.get<std::string>()) : std::nullopt;
    if (!value) fail(what + " is not a decimal string");
    return *value;
  }
  [[noreturn]] void fail(const std::string& problem) const { throw TruthError(where_ + " " + problem); }
  const std::string& where() const { return where_; }

 private:
  const Json& object_;
  std::string where_;
};

TrueClock parse_clock(const Fields& host) {
  const Json& clock = host.at("clock");
  if (!clock.is_array() || clock.empty()) host.fail("\"clock\" is not a non-empty list of pieces");
  std::vector<TrueClock::Piece> pieces;
  for (std::size_t i = 0; i < clock.size(); ++i) {
    const std::string what = "clock piece " + std::to_string(i);
    const Json& p = clock[i];
    if (!p.is_array() || p.size() != 3) host.fail(what + " is not [from_true_ns, \"from_local_ns\", \"slope\"]");
    TrueClock::Piece piece{host.integer_of(p[0], what + " from_true_ns"), host.decimal_of(p[1], what + " from_local_ns"),
                           host.decimal_of(p[2], what + " slope")};
    if (!(piece.slope > 0)) host.fail(what + ": the slope must be positive");
    if (!pieces.empty() && piece.from_true_ns <= pieces.back().from_true_ns) host.fail(what + " does not start after the one before");
    pieces.push_back(piece);
  }
  return TrueClock(std::move(pieces));
}

void parse_messages(const Json& root, const std::string& source, Truth& truth) {
  const auto messages = root.find("messages");
  if (messages == root.end()) return;
  if (!messages->is_array()) throw TruthError(source + ": \"messages\" is not a list");
  truth.has_messages = true;
  truth.messages.reserve(messages->size());
  for (std::size_t i = 0; i < messages->size(); ++i) {
    const Json& m = (*messages)[i];
    const std::string where = source + ": message " + std::to_string(i);
    if (!m.is_array() || m.size() < 4 || !m[0].is_number_unsigned() || !m[1].is_number_integer() ||
        !m[2].is_number_unsigned() || !(m[3].is_number_integer() || m[3].is_null())) {
      throw TruthError(where + " is not [sender, send_local_ns, receiver, receive_local_ns, ...]");
    }
    TruthMessage message{m[0].get<uint32_t>(), m[2].get<uint32_t>(), m[1].get<int64_t>(), std::nullopt};
    if (!m[3].is_null()) message.receive_local_ns = m[3].get<int64_t>();
    if (message.sender >= truth.hosts.size() || message.receiver >= truth.hosts.size()) {
      throw TruthError(where + " names a host that is not in \"hosts\"");
    }
    truth.messages.push_back(message);
  }
}

}  // namespace

const TruthHost* Truth::host(std::string_view id) const {
  for (const auto& h : hosts) {
    if (h.domain == id) return &h;
  }
  for (const auto& h : hosts) {
    if (h.name == id) return &h;
  }
  return nullptr;
}

Truth parse_truth(std::string_view text, const std::string& source) {
  Json root;
  try {
    root = Json::parse(text);
  } catch (const Json::parse_error& e) {
    throw TruthError(source + ": not JSON: " + e.what());
  }
  const Fields top(root, source + ":");
  const std::string format = top.text("format");
  if (format == "tracesync-truth/1") {
    throw TruthError(source + ": format tracesync-truth/1 (an older tracesync simulate) does not describe the clocks "
                              "piece by piece; simulate again with this version");
  }
  if (format != kTruthFormat) throw TruthError(source + ": unknown format \"" + format + "\", expected " + kTruthFormat);
  Truth truth;
  truth.start_ns = top.integer("start_ns");
  truth.end_ns = top.integer("end_ns");
  const Json& hosts = top.at("hosts");
  if (!hosts.is_array() || hosts.empty()) top.fail("\"hosts\" is not a non-empty list");
  for (std::size_t i = 0; i < hosts.size(); ++i) {
    const Fields host(hosts[i], source + ": host " + std::to_string(i));
    truth.hosts.push_back({static_cast<uint32_t>(i), host.text("name"), host.text("domain"), parse_clock(host)});
  }
  if (const auto gaps = root.find("gaps"); gaps != root.end()) {
    for (const Json& g : *gaps) {
      if (!g.is_array() || g.size() != 2 || !g[0].is_number_integer() || !g[1].is_number_integer()) {
        top.fail("\"gaps\" is not a list of [begin_ns, end_ns]");
      }
      truth.gaps.emplace_back(g[0].get<int64_t>(), g[1].get<int64_t>());
    }
  }
  parse_messages(root, source, truth);
  return truth;
}

Truth read_truth(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TruthError(path + ": cannot open the file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw TruthError(path + ": cannot read the file");
  return parse_truth(text.str(), path);
}

}  // namespace tracesync::simulate
