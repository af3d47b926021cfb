// SPDX-License-Identifier: EPL-2.0
#include "ingest/reader_protocol.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <type_traits>

namespace tracesync::ingest::reader_protocol {

namespace {

static_assert(std::is_trivially_copyable_v<match::PacketEvent>, "events cross the channel as raw bytes");

// Appends fixed-size values in the machine's byte order and strings with
// their length in front.
class WireWriter {
 public:
  template <typename T>
    requires std::is_trivially_copyable_v<T>
  WireWriter& put(const T& value) {
    const auto* bytes = reinterpret_cast<const std::byte*>(&value);
    bytes_.insert(bytes_.end(), bytes, bytes + sizeof value);
    return *this;
  }
  WireWriter& put(const std::string& text) {
    put(static_cast<uint64_t>(text.size()));
    const auto* bytes = reinterpret_cast<const std::byte*>(text.data());
    bytes_.insert(bytes_.end(), bytes, bytes + text.size());
    return *this;
  }
  WireWriter& put(const std::vector<uint64_t>& values) {
    put(static_cast<uint64_t>(values.size()));
    for (const uint64_t value : values) put(value);
    return *this;
  }
  template <typename T>
  WireWriter& put(const std::optional<T>& value) {
    put(value.has_value());
    if (value) put(*value);
    return *this;
  }
  std::vector<std::byte> take() { return std::move(bytes_); }

 private:
  std::vector<std::byte> bytes_;
};

// Reads back what WireWriter wrote; any read past the end, or a bool that is
// neither 0 nor 1, makes the reader bad and every later read a no-op.
class WireReader {
 public:
  explicit WireReader(std::span<const std::byte> bytes) : bytes_(bytes) {}

  template <typename T>
    requires std::is_trivially_copyable_v<T>
  WireReader& get(T& value) {
    if (!ok_ || bytes_.size() - at_ < sizeof value) return bad();
    std::memcpy(&value, bytes_.data() + at_, sizeof value);
    at_ += sizeof value;
    return *this;
  }
  WireReader& get(bool& value) {
    uint8_t byte = 0;
    get(byte);
    if (byte > 1) return bad();
    value = byte == 1;
    return *this;
  }
  WireReader& get(std::string& text) {
    uint64_t size = 0;
    get(size);
    if (!ok_ || bytes_.size() - at_ < size) return bad();
    text.assign(reinterpret_cast<const char*>(bytes_.data() + at_), size);
    at_ += size;
    return *this;
  }
  WireReader& get(std::vector<uint64_t>& values) {
    uint64_t size = 0;
    get(size);
    if (!ok_ || (bytes_.size() - at_) / sizeof(uint64_t) < size) return bad();
    values.resize(size);
    for (uint64_t& value : values) get(value);
    return *this;
  }
  // Whether the rest can hold `items` items of at least `least` bytes each.
  bool can_hold(uint64_t items, std::size_t least) const { return ok_ && (bytes_.size() - at_) / least >= items; }
  // What was read is not well-formed.
  void refuse() { bad(); }
  template <typename T>
  WireReader& get(std::optional<T>& value) {
    bool present = false;
    get(present);
    T inner{};
    if (present) get(inner);
    value = present ? std::optional<T>(std::move(inner)) : std::nullopt;
    return *this;
  }
  bool ok() const { return ok_; }
  std::size_t consumed() const { return at_; }
  // Everything read, nothing left over.
  bool complete() const { return ok_ && at_ == bytes_.size(); }

 private:
  WireReader& bad() {
    ok_ = false;
    return *this;
  }
  std::span<const std::byte> bytes_;
  std::size_t at_ = 0;
  bool ok_ = true;
};

void put(WireWriter& w, const ClockInfo& clock) {
  w.put(clock.name).put(clock.uuid).put(clock.frequency).put(clock.offset_seconds).put(clock.offset_cycles);
  w.put(clock.origin_is_unix_epoch);
}

void get(WireReader& r, ClockInfo& clock) {
  r.get(clock.name).get(clock.uuid).get(clock.frequency).get(clock.offset_seconds).get(clock.offset_cycles);
  r.get(clock.origin_is_unix_epoch);
}

void put(WireWriter& w, const NetworkEventCensus& census) {
  for (const NetworkEventTally& tally : census) {
    w.put(tally.recorded).put(tally.missing).put(tally.tcp).put(tally.not_tcp).put(tally.undecodable);
  }
}

void get(WireReader& r, NetworkEventCensus& census) {
  for (NetworkEventTally& tally : census) {
    r.get(tally.recorded).get(tally.missing).get(tally.tcp).get(tally.not_tcp).get(tally.undecodable);
  }
}

void put(WireWriter& w, const AppEventCensus& census) {
  w.put(static_cast<uint64_t>(census.size()));
  for (const AppEventTally& tally : census) {
    w.put(tally.send_recorded).put(tally.receive_recorded).put(tally.problem).put(tally.sends).put(tally.receives);
    w.put(tally.key_too_long).put(tally.undecodable);
  }
}

void get(WireReader& r, AppEventCensus& census) {
  uint64_t kinds = 0;
  r.get(kinds);
  if (kinds > match::kMaxAppKinds) return r.refuse();
  census.assign(static_cast<std::size_t>(kinds), AppEventTally{});
  for (AppEventTally& tally : census) {
    r.get(tally.send_recorded).get(tally.receive_recorded).get(tally.problem).get(tally.sends).get(tally.receives);
    r.get(tally.key_too_long).get(tally.undecodable);
  }
}

void put(WireWriter& w, const std::vector<OfferedEventClass>& classes) {
  w.put(static_cast<uint64_t>(classes.size()));
  for (const OfferedEventClass& c : classes) {
    w.put(c.name).put(static_cast<uint64_t>(c.key_fields.size()));
    for (const std::string& field : c.key_fields) w.put(field);
  }
}

void get(WireReader& r, std::vector<OfferedEventClass>& classes) {
  uint64_t count = 0;
  r.get(count);
  if (!r.can_hold(count, 2 * sizeof(uint64_t))) return r.refuse();
  classes.assign(static_cast<std::size_t>(count), OfferedEventClass{});
  for (OfferedEventClass& c : classes) {
    uint64_t fields = 0;
    r.get(c.name).get(fields);
    if (!r.can_hold(fields, sizeof(uint64_t))) return r.refuse();
    c.key_fields.resize(static_cast<std::size_t>(fields));
    for (std::string& field : c.key_fields) r.get(field);
  }
}

void put(WireWriter& w, const EventSelection& selection) {
  w.put(static_cast<uint64_t>(selection.kinds().size()));
  for (const MessageSpec& spec : selection.kinds()) {
    w.put(spec.name).put(spec.send_event).put(spec.receive_event).put(spec.text);
    w.put(static_cast<uint64_t>(spec.key.size()));
    for (const KeyField& field : spec.key) w.put(field.name).put(field.scope);
  }
}

void get(WireReader& r, EventSelection& selection) {
  uint64_t kinds = 0;
  r.get(kinds);
  if (kinds > match::kMaxAppKinds) return r.refuse();
  std::vector<MessageSpec> specs(static_cast<std::size_t>(kinds));
  for (MessageSpec& spec : specs) {
    r.get(spec.name).get(spec.send_event).get(spec.receive_event).get(spec.text);
    uint64_t fields = 0;
    r.get(fields);
    if (!r.can_hold(fields, sizeof(uint64_t) + 1)) return r.refuse();
    spec.key.resize(static_cast<std::size_t>(fields));
    for (KeyField& field : spec.key) {
      r.get(field.name).get(field.scope);
      if (field.scope > FieldScope::kContext) return r.refuse();
    }
  }
  selection = EventSelection(std::move(specs));
}

void put(WireWriter& w, const TraceInfo& info) {
  w.put(info.path).put(info.name).put(info.hostname).put(info.domain_id).put(info.domain_source);
  w.put(info.clock.has_value());
  if (info.clock) put(w, *info.clock);
  w.put(info.first_event).put(info.last_event).put(info.streams).put(info.events).put(info.network_events);
  put(w, info.network_census);
  put(w, info.app_census);
  put(w, info.offered_classes);
  w.put(info.discarded_events).put(info.bytes).put(info.reader).put(info.reader_reason);
  w.put(info.metadata_format);
  w.put(info.damaged_packets).put(info.damaged_network_events).put(info.first_time_damage);
  w.put(static_cast<uint64_t>(info.stream_files.size()));
  for (const std::string& file : info.stream_files) w.put(file);
}

void get(WireReader& r, TraceInfo& info) {
  r.get(info.path).get(info.name).get(info.hostname).get(info.domain_id).get(info.domain_source);
  bool has_clock = false;
  r.get(has_clock);
  info.clock.reset();
  if (has_clock) get(r, info.clock.emplace());
  r.get(info.first_event).get(info.last_event).get(info.streams).get(info.events).get(info.network_events);
  get(r, info.network_census);
  get(r, info.app_census);
  get(r, info.offered_classes);
  r.get(info.discarded_events).get(info.bytes).get(info.reader).get(info.reader_reason);
  r.get(info.metadata_format);
  r.get(info.damaged_packets).get(info.damaged_network_events).get(info.first_time_damage);
  uint64_t stream_files = 0;
  r.get(stream_files);
  info.stream_files.clear();
  for (uint64_t i = 0; i < stream_files && r.ok(); ++i) r.get(info.stream_files.emplace_back());
}

void put(WireWriter& w, const ResumePoint& point) {
  w.put(static_cast<uint64_t>(point.cuts().size()));
  for (const DeliveryCut& cut : point.cuts()) w.put(cut.through).put(cut.read);
}

// A point is written as ResumePoint::add leaves it (no cut covers another):
// one that is not is refused, so that what decodes encodes the same.
void get(WireReader& r, ResumePoint& point) {
  uint64_t cuts = 0;
  r.get(cuts);
  if (!r.can_hold(cuts, 2 * sizeof(uint64_t))) return r.refuse();
  point = ResumePoint();
  for (uint64_t c = 0; c < cuts; ++c) {
    DeliveryCut cut;
    r.get(cut.through).get(cut.read);
    point.add(std::move(cut));
    if (point.cuts().size() != c + 1) return r.refuse();
  }
}

void put(WireWriter& w, const std::map<std::string, uint64_t>& counts) {
  w.put(static_cast<uint64_t>(counts.size()));
  for (const auto& [name, count] : counts) w.put(name).put(count);
}

void get(WireReader& r, std::map<std::string, uint64_t>& counts) {
  uint64_t size = 0;
  r.get(size);
  if (!r.can_hold(size, 2 * sizeof(uint64_t))) return r.refuse();
  counts.clear();
  for (uint64_t i = 0; i < size && r.ok(); ++i) {
    std::string name;
    uint64_t count = 0;
    r.get(name).get(count);
    // Written in the map's order: names out of order or twice are not
    // what any writer sends (and would not read back as they came).
    if (!counts.empty() && !(counts.rbegin()->first < name)) return r.refuse();
    counts.emplace_hint(counts.end(), std::move(name), count);
  }
}

void put(WireWriter& w, const FolderPosition& at) {
  w.put(at.chunk);
  put(w, at.packets);
  w.put(static_cast<uint64_t>(at.last_packets.size()));
  for (const auto& [name, packet] : at.last_packets) w.put(name).put(packet);
  w.put(at.finished_bytes).put(at.metadata_bytes);
  put(w, at.info);
  put(w, at.look);
  w.put(at.look_metadata_bytes);
  put(w, at.look_delivered);
}

void get(WireReader& r, FolderPosition& at) {
  r.get(at.chunk);
  get(r, at.packets);
  uint64_t size = 0;
  r.get(size);
  if (!r.can_hold(size, sizeof(uint64_t) + sizeof(WrittenPacket))) return r.refuse();
  at.last_packets.clear();
  for (uint64_t i = 0; i < size && r.ok(); ++i) {
    std::string name;
    WrittenPacket packet;
    r.get(name).get(packet);
    if (!at.last_packets.empty() && !(at.last_packets.rbegin()->first < name)) return r.refuse();  // as above
    at.last_packets.emplace_hint(at.last_packets.end(), std::move(name), packet);
  }
  r.get(at.finished_bytes).get(at.metadata_bytes);
  get(r, at.info);
  get(r, at.look);
  r.get(at.look_metadata_bytes);
  get(r, at.look_delivered);
}

void put(WireWriter& w, const std::vector<StreamGap>& gaps) {
  w.put(static_cast<uint64_t>(gaps.size()));
  for (const StreamGap& gap : gaps) w.put(gap.stream).put(gap.from).put(gap.to).put(gap.served);
}

void get(WireReader& r, std::vector<StreamGap>& gaps) {
  uint64_t size = 0;
  r.get(size);
  if (!r.can_hold(size, 3 * sizeof(uint64_t) + 1)) return r.refuse();
  gaps.assign(static_cast<std::size_t>(size), StreamGap{});
  for (StreamGap& gap : gaps) r.get(gap.stream).get(gap.from).get(gap.to).get(gap.served);
}

void put(WireWriter& w, const LiveCut& cut) {
  w.put(cut.through);
  w.put(static_cast<uint64_t>(cut.at_through.size()));
  for (const auto& [stream, given] : cut.at_through) w.put(stream).put(given);
  w.put(cut.streams);
}

// Both lists are by stream id, each id once (LiveCut::given_at_through
// searches them): others are refused.
void get(WireReader& r, LiveCut& cut) {
  r.get(cut.through);
  uint64_t size = 0;
  r.get(size);
  if (!r.can_hold(size, 2 * sizeof(uint64_t))) return r.refuse();
  cut.at_through.assign(static_cast<std::size_t>(size), {});
  for (auto& [stream, given] : cut.at_through) r.get(stream).get(given);
  r.get(cut.streams);
  const auto by_id = [](const auto& a, const auto& b) { return a.first >= b.first; };
  if (std::adjacent_find(cut.at_through.begin(), cut.at_through.end(), by_id) != cut.at_through.end() ||
      std::adjacent_find(cut.streams.begin(), cut.streams.end(), std::greater_equal<>()) != cut.streams.end()) {
    r.refuse();
  }
}

bool known(DomainSource source) { return source <= DomainSource::kOverride; }
bool known(TraceReader::State state) { return state <= TraceReader::State::kFailed; }

}  // namespace

std::vector<std::byte> encode(const OpenRequest& request) {
  WireWriter w;
  // version and event size first: a reader of another build checks them
  // before trusting anything else.
  w.put(request.version).put(request.event_size).put(request.parent_pid).put(request.index);
  w.put(request.source.path).put(request.source.name).put(request.source.domain_override);
  const ReaderOptions& o = request.options;
  w.put(o.step_back_tolerance).put(static_cast<uint64_t>(o.batch_events)).put(o.decode).put(o.endpoints);
  w.put(static_cast<uint8_t>(o.reader));
  w.put(o.stream_ranges).put(o.step_span);
  put(w, o.selection);
  w.put(o.offered_classes);
  put(w, request.resume);
  w.put(static_cast<uint32_t>(o.scan_threads));
  w.put(static_cast<uint8_t>(request.follow.kind)).put(request.follow.quiet_end_ms).put(request.follow.staging_parent);
  put(w, request.folder);
  put(w, request.live_cut);
  return w.take();
}

std::optional<OpenRequest> decode_open(std::span<const std::byte> payload) {
  WireReader r(payload);
  OpenRequest request;
  r.get(request.version).get(request.event_size);
  if (request.version != kVersion || request.event_size != sizeof(match::PacketEvent)) {
    // Not ours to read further; the caller reports the versions.
    return request;
  }
  r.get(request.parent_pid).get(request.index);
  r.get(request.source.path).get(request.source.name).get(request.source.domain_override);
  ReaderOptions& o = request.options;
  uint64_t batch_events = 0;
  uint8_t reader = 0;
  r.get(o.step_back_tolerance).get(batch_events).get(o.decode).get(o.endpoints).get(reader).get(o.stream_ranges).get(o.step_span);
  o.batch_events = static_cast<std::size_t>(batch_events);
  get(r, o.selection);
  r.get(o.offered_classes);
  const auto choice = static_cast<ReaderChoice>(reader);
  if (choice != ReaderChoice::kAuto && choice != ReaderChoice::kScanner && choice != ReaderChoice::kBabeltrace2) {
    return std::nullopt;
  }
  o.reader = choice;
  get(r, request.resume);
  uint32_t scan_threads = 1;
  r.get(scan_threads);
  if (scan_threads == 0 || scan_threads > kMaxScanThreads) return std::nullopt;
  o.scan_threads = scan_threads;
  uint8_t followed = 0;
  r.get(followed).get(request.follow.quiet_end_ms).get(request.follow.staging_parent);
  if (followed > static_cast<uint8_t>(FollowedSource::Kind::kFolder)) return std::nullopt;
  request.follow.kind = static_cast<FollowedSource::Kind>(followed);
  get(r, request.folder);
  get(r, request.live_cut);
  if (!r.complete() || !known(request.folder.info.domain_source)) return std::nullopt;
  return request;
}

std::vector<std::byte> encode(const TraceInfo& info) {
  WireWriter w;
  put(w, info);
  return w.take();
}

std::optional<TraceInfo> decode_trace_info(std::span<const std::byte> payload) {
  WireReader r(payload);
  TraceInfo info;
  get(r, info);
  if (!r.complete() || !known(info.domain_source)) return std::nullopt;
  return info;
}

std::vector<std::byte> encode(const StepReport& report) {
  WireWriter w;
  w.put(report.state).put(report.progress).put(report.bytes_read);
  put(w, report.info);
  w.put(report.problem);
  put(w, report.delivered);
  w.put(report.waiting).put(report.end_words);
  put(w, report.gaps);
  w.put(report.unserved);
  put(w, report.folder);
  return w.take();
}

std::optional<StepReport> decode_step_report(std::span<const std::byte> payload) {
  WireReader r(payload);
  StepReport report;
  r.get(report.state).get(report.progress).get(report.bytes_read);
  get(r, report.info);
  r.get(report.problem);
  get(r, report.delivered);
  r.get(report.waiting).get(report.end_words);
  get(r, report.gaps);
  r.get(report.unserved);
  get(r, report.folder);
  if (!r.complete() || !known(report.state) || !known(report.info.domain_source) ||
      !known(report.folder.info.domain_source)) {
    return std::nullopt;
  }
  return report;
}

std::vector<std::byte> addressed(match::TraceIndex trace, std::span<const std::byte> payload) {
  std::vector<std::byte> bytes = WireWriter().put(trace).take();
  bytes.insert(bytes.end(), payload.begin(), payload.end());
  return bytes;
}

std::optional<match::TraceIndex> take_address(std::span<const std::byte>& payload) {
  match::TraceIndex trace = 0;
  if (payload.size() < sizeof trace) return std::nullopt;
  std::memcpy(&trace, payload.data(), sizeof trace);
  payload = payload.subspan(sizeof trace);
  return trace;
}

std::vector<std::byte> encode_rounds(uint64_t rounds) { return WireWriter().put(rounds).take(); }

std::optional<uint64_t> decode_rounds(std::span<const std::byte> payload) {
  uint64_t rounds = 0;
  if (!WireReader(payload).get(rounds).complete()) return std::nullopt;
  return rounds;
}

std::vector<std::byte> encode(const EventsHeader& header) {
  WireWriter w;
  w.put(header.promise).put(header.events_read);
  put(w, header.delivered);
  put(w, header.folder);
  put(w, header.live_cut);
  return w.take();
}

std::optional<EventsHeader> decode_events(std::span<const std::byte> payload, std::vector<match::PacketEvent>& events) {
  WireReader r(payload);
  EventsHeader header;
  r.get(header.promise).get(header.events_read);
  get(r, header.delivered);
  get(r, header.folder);
  get(r, header.live_cut);
  const std::size_t at = r.consumed();  // the events follow
  if (!r.ok() || !known(header.folder.info.domain_source) || (payload.size() - at) % sizeof(match::PacketEvent) != 0) return std::nullopt;
  events.resize((payload.size() - at) / sizeof(match::PacketEvent));
  if (!events.empty()) std::memcpy(events.data(), payload.data() + at, payload.size() - at);
  return header;
}

}  // namespace tracesync::ingest::reader_protocol
