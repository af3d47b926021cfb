// SPDX-License-Identifier: EPL-2.0
// libFuzzer target: the reader protocol's decoders (ingest/reader_protocol),
// what a parent reads from a reading process and the reverse, on any bytes.
// The first byte picks the frame type, the rest is its payload. Besides never
// crashing, a payload that decodes must be exactly what encoding the decoded
// value gives back: no byte ignored, none misread.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "fuzz_check.h"
#include "ingest/reader_protocol.h"

namespace {

namespace protocol = tracesync::ingest::reader_protocol;

bool same(std::span<const std::byte> payload, const std::vector<std::byte>& encoded) {
  return payload.size() == encoded.size() &&
         (payload.empty() || std::memcmp(payload.data(), encoded.data(), payload.size()) == 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::span<const std::byte> payload(reinterpret_cast<const std::byte*>(data) + 1, size - 1);
  switch (data[0] % 6) {
    case 0:
      if (const auto request = protocol::decode_open(payload)) {
        // A request of another version is handed back unread for the caller to refuse.
        if (request->version == protocol::kVersion && request->event_size == sizeof(tracesync::match::PacketEvent)) {
          FUZZ_CHECK(same(payload, protocol::encode(*request)));
        }
      }
      break;
    case 1:
      if (const auto info = protocol::decode_trace_info(payload)) FUZZ_CHECK(same(payload, protocol::encode(*info)));
      break;
    case 2:
      if (const auto report = protocol::decode_step_report(payload)) {
        FUZZ_CHECK(same(payload, protocol::encode(*report)));
      }
      break;
    case 3:
      if (const auto rounds = protocol::decode_rounds(payload)) FUZZ_CHECK(same(payload, protocol::encode_rounds(*rounds)));
      break;
    case 4: {
      std::vector<tracesync::match::PacketEvent> events(3);  // replaced, whatever it held
      if (const auto header = protocol::decode_events(payload, events)) {
        std::vector<std::byte> encoded = protocol::encode(*header);
        const auto* raw = reinterpret_cast<const std::byte*>(events.data());
        encoded.insert(encoded.end(), raw, raw + events.size() * sizeof(tracesync::match::PacketEvent));
        FUZZ_CHECK(same(payload, encoded));
      }
      break;
    }
    case 5: {
      std::span<const std::byte> rest = payload;
      if (const auto trace = protocol::take_address(rest)) FUZZ_CHECK(same(payload, protocol::addressed(*trace, rest)));
      break;
    }
  }
  return 0;
}
