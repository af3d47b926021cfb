// SPDX-License-Identifier: EPL-2.0
#include "ingest/extract_codec.h"

#include <algorithm>
#include <limits>

#include "ingest/network_event_names.h"

namespace tracesync::ingest {

namespace pb = extract::v1;

namespace {

pb::DomainSource to_proto(DomainSource source) {
  switch (source) {
    case DomainSource::kClockUuid:
      return pb::DOMAIN_CLOCK_UUID;
    case DomainSource::kHostname:
      return pb::DOMAIN_HOSTNAME;
    case DomainSource::kPath:
      return pb::DOMAIN_PATH;
    case DomainSource::kOverride:
      return pb::DOMAIN_OVERRIDE;
  }
  return pb::DOMAIN_PATH;
}

// Addresses keep only the bytes their family uses: 4 for IPv4.
std::string address_bytes(const std::array<uint8_t, 16>& address, uint8_t family) {
  const std::size_t size = family == 4 ? 4 : address.size();
  return std::string(reinterpret_cast<const char*>(address.data()), size);
}

bool read_address(const std::string& bytes, std::array<uint8_t, 16>& out) {
  if (bytes.size() > out.size()) return false;
  out.fill(0);
  std::copy(bytes.begin(), bytes.end(), out.begin());
  return true;
}

}  // namespace

void to_proto(const TraceInfo& info, pb::TraceInfo& out) {
  out.set_path(info.path);
  out.set_name(info.name);
  out.set_hostname(info.hostname);
  out.set_domain_id(info.domain_id);
  out.set_domain_source(to_proto(info.domain_source));
  if (info.clock) {
    pb::Clock& clock = *out.mutable_clock();
    clock.set_name(info.clock->name);
    if (info.clock->uuid) clock.set_uuid(*info.clock->uuid);
    clock.set_frequency(info.clock->frequency);
    clock.set_offset_seconds(info.clock->offset_seconds);
    clock.set_offset_cycles(info.clock->offset_cycles);
    clock.set_origin_is_unix_epoch(info.clock->origin_is_unix_epoch);
  }
  if (info.first_event) out.set_first_event(*info.first_event);
  if (info.last_event) out.set_last_event(*info.last_event);
  out.set_streams(info.streams);
  out.set_events(info.events);
  out.set_network_events(info.network_events);
  for (std::size_t i = 0; i < info.network_census.size(); ++i) {
    const NetworkEventTally& tally = info.network_census[i];
    pb::NetworkEventTally& t = *out.add_network_census();
    t.set_name(std::string(kNetworkEventNames[i].name));
    t.set_recorded(tally.recorded);
    t.set_missing(tally.missing);
    t.set_tcp(tally.tcp);
    t.set_not_tcp(tally.not_tcp);
    t.set_undecodable(tally.undecodable);
  }
  for (const AppEventTally& tally : info.app_census) {
    pb::AppEventTally& t = *out.add_app_census();
    t.set_send_recorded(tally.send_recorded);
    t.set_receive_recorded(tally.receive_recorded);
    t.set_problem(tally.problem);
    t.set_sends(tally.sends);
    t.set_receives(tally.receives);
    t.set_key_too_long(tally.key_too_long);
    t.set_undecodable(tally.undecodable);
  }
  out.set_discarded_events(info.discarded_events);
  out.set_damaged_packets(info.damaged_packets);
  out.set_damaged_network_events(info.damaged_network_events);
  out.set_first_time_damage(info.first_time_damage);
  out.set_reader(info.reader);
  out.set_reader_reason(info.reader_reason);
  out.set_metadata_format(info.metadata_format);
  out.set_bytes(info.bytes);
  for (const std::string& file : info.stream_files) out.add_stream_files(file);
}

std::string from_proto(const pb::TraceInfo& in, TraceInfo& out) {
  out = TraceInfo{};
  out.path = in.path();
  out.name = in.name();
  out.hostname = in.hostname();
  out.domain_id = in.domain_id();
  switch (in.domain_source()) {
    case pb::DOMAIN_CLOCK_UUID:
      out.domain_source = DomainSource::kClockUuid;
      break;
    case pb::DOMAIN_HOSTNAME:
      out.domain_source = DomainSource::kHostname;
      break;
    case pb::DOMAIN_PATH:
      out.domain_source = DomainSource::kPath;
      break;
    case pb::DOMAIN_OVERRIDE:
      out.domain_source = DomainSource::kOverride;
      break;
    default:
      return "an unknown clock domain source (" + std::to_string(in.domain_source()) + ")";
  }
  if (in.has_clock()) {
    ClockInfo clock;
    clock.name = in.clock().name();
    if (in.clock().has_uuid()) clock.uuid = in.clock().uuid();
    clock.frequency = in.clock().frequency();
    clock.offset_seconds = in.clock().offset_seconds();
    clock.offset_cycles = in.clock().offset_cycles();
    clock.origin_is_unix_epoch = in.clock().origin_is_unix_epoch();
    out.clock = std::move(clock);
  }
  if (in.has_first_event()) out.first_event = in.first_event();
  if (in.has_last_event()) out.last_event = in.last_event();
  out.streams = in.streams();
  out.events = in.events();
  out.network_events = in.network_events();
  // Tallies by name, so that a census of other names (a later version's)
  // is seen rather than misread.
  for (const pb::NetworkEventTally& t : in.network_census()) {
    const auto index = network_event_index(t.name());
    if (!index) return "a network event census naming '" + t.name() + "', which this tracesync does not read";
    NetworkEventTally& tally = out.network_census[*index];
    tally.recorded = t.recorded();
    tally.missing = t.missing();
    tally.tcp = t.tcp();
    tally.not_tcp = t.not_tcp();
    tally.undecodable = t.undecodable();
  }
  out.app_census.clear();
  for (const pb::AppEventTally& t : in.app_census()) {
    out.app_census.push_back({t.send_recorded(), t.receive_recorded(), t.problem(), t.sends(), t.receives(),
                              t.key_too_long(), t.undecodable()});
  }
  out.discarded_events = in.discarded_events();
  out.damaged_packets = in.damaged_packets();
  out.damaged_network_events = in.damaged_network_events();
  out.first_time_damage = in.first_time_damage();
  out.reader = in.reader();
  out.reader_reason = in.reader_reason();
  out.metadata_format = in.metadata_format();
  out.bytes = in.bytes();
  out.stream_files.assign(in.stream_files().begin(), in.stream_files().end());
  return {};
}

void to_proto(std::span<const match::PacketEvent> events, model::Nanoseconds progress, pb::EventBatch& out) {
  out.set_progress(progress);
  model::Nanoseconds previous = events.empty() ? 0 : events.front().time;
  out.set_base_time(previous);
  out.mutable_events()->Reserve(static_cast<int>(events.size()));
  for (const match::PacketEvent& e : events) {
    pb::PacketEvent& p = *out.add_events();
    // Wrapping arithmetic: any two times have a delta that gives one back.
    p.set_time_delta(static_cast<int64_t>(static_cast<uint64_t>(e.time) - static_cast<uint64_t>(previous)));
    previous = e.time;
    p.set_receive(e.direction == match::Direction::kReceive);
    p.set_layout(e.layout == match::Layout::kTcp          ? pb::LAYOUT_TCP
                 : e.layout == match::Layout::kNonTcp     ? pb::LAYOUT_NON_TCP
                 : e.layout == match::Layout::kKeyTooLong ? pb::LAYOUT_KEY_TOO_LONG
                                                          : pb::LAYOUT_UNKNOWN);
    p.set_kind(e.kind);
    if (e.kind != match::kTcpKind) {
      std::string& bytes = *p.mutable_app_key();
      bytes.resize(std::size_t{e.app.size} * 8);
      for (std::size_t w = 0; w < e.app.size; ++w) {
        for (std::size_t b = 0; b < 8; ++b) bytes[w * 8 + b] = static_cast<char>(e.app.words[w] >> (8 * b));
      }
      continue;
    }
    pb::TcpKey& key = *p.mutable_tcp();
    key.set_seq(e.tcp.seq);
    key.set_ack_seq(e.tcp.ack_seq);
    key.set_flags(e.tcp.flags);
    if (e.endpoints.present()) {
      pb::Endpoints& ends = *key.mutable_endpoints();
      ends.set_family(e.endpoints.family);
      ends.set_saddr(address_bytes(e.endpoints.saddr, e.endpoints.family));
      ends.set_daddr(address_bytes(e.endpoints.daddr, e.endpoints.family));
      ends.set_source_port(e.endpoints.source_port);
      ends.set_dest_port(e.endpoints.dest_port);
    }
  }
}

std::string from_proto(const pb::EventBatch& in, match::TraceIndex trace, std::vector<match::PacketEvent>& out) {
  uint64_t time = static_cast<uint64_t>(in.base_time());
  out.reserve(out.size() + static_cast<std::size_t>(in.events_size()));
  for (int i = 0; i < in.events_size(); ++i) {
    const pb::PacketEvent& p = in.events(i);
    const std::string where = "event " + std::to_string(i) + " of a batch";
    match::PacketEvent e;
    time += static_cast<uint64_t>(p.time_delta());
    e.time = static_cast<model::Nanoseconds>(time);
    e.trace = trace;
    e.direction = p.receive() ? match::Direction::kReceive : match::Direction::kSend;
    switch (p.layout()) {
      case pb::LAYOUT_TCP:
        e.layout = match::Layout::kTcp;
        break;
      case pb::LAYOUT_NON_TCP:
        e.layout = match::Layout::kNonTcp;
        break;
      case pb::LAYOUT_UNKNOWN:
        e.layout = match::Layout::kUnknown;
        break;
      case pb::LAYOUT_KEY_TOO_LONG:
        e.layout = match::Layout::kKeyTooLong;
        break;
      default:
        return where + " has an unknown layout (" + std::to_string(p.layout()) + ")";
    }
    if (p.kind() > std::numeric_limits<match::MessageKind>::max()) {
      return where + " has a message kind beyond " + std::to_string(std::numeric_limits<match::MessageKind>::max());
    }
    e.kind = static_cast<match::MessageKind>(p.kind());
    if (e.kind != match::kTcpKind) {
      if (p.key_case() != pb::PacketEvent::kAppKey) return where + " is of an application kind but has no key";
      const std::string& bytes = p.app_key();
      if (bytes.size() % 8 != 0 || bytes.size() > match::AppKey::kBytes) {
        return where + " has an application key of " + std::to_string(bytes.size()) + " bytes";
      }
      e.app.size = static_cast<uint8_t>(bytes.size() / 8);
      for (std::size_t at = 0; at < bytes.size(); ++at) {
        e.app.words[at / 8] |= uint64_t{static_cast<uint8_t>(bytes[at])} << (8 * (at % 8));
      }
      out.push_back(e);
      continue;
    }
    if (p.key_case() != pb::PacketEvent::kTcp) return where + " has no key";
    const pb::TcpKey& key = p.tcp();
    if (key.flags() > std::numeric_limits<uint16_t>::max()) return where + " has TCP flags beyond 16 bits";
    e.tcp.seq = key.seq();
    e.tcp.ack_seq = key.ack_seq();
    e.tcp.flags = static_cast<uint16_t>(key.flags());
    if (key.has_endpoints()) {
      const pb::Endpoints& ends = key.endpoints();
      if (ends.family() != 4 && ends.family() != 6) {
        return where + " has addresses of an unknown family (" + std::to_string(ends.family()) + ")";
      }
      if (ends.source_port() > 0xFFFF || ends.dest_port() > 0xFFFF) return where + " has a port beyond 16 bits";
      e.endpoints.family = static_cast<uint8_t>(ends.family());
      if (!read_address(ends.saddr(), e.endpoints.saddr) || !read_address(ends.daddr(), e.endpoints.daddr)) {
        return where + " has an address longer than 16 bytes";
      }
      e.endpoints.source_port = static_cast<uint16_t>(ends.source_port());
      e.endpoints.dest_port = static_cast<uint16_t>(ends.dest_port());
    }
    out.push_back(e);
  }
  return {};
}

}  // namespace tracesync::ingest
