// SPDX-License-Identifier: EPL-2.0
#include "cli/event_streams.h"

#include <algorithm>
#include <tuple>

namespace tracesync::cli {
namespace {

// Mixes a word into a fingerprint (the 64-bit finalizer of MurmurHash3's
// published constants): only to tell apart two events at one instant.
uint64_t mixed(uint64_t h, uint64_t word) {
  h ^= word + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return h;
}

uint64_t key_fingerprint(const match::PacketEvent& e) {
  uint64_t h = mixed(0, e.kind);
  if (e.kind == match::kTcpKind) {
    h = mixed(h, (uint64_t{e.tcp.seq} << 32) | e.tcp.ack_seq);
    return mixed(h, e.tcp.flags);
  }
  for (std::size_t i = 0; i < e.app.size; ++i) h = mixed(h, e.app.words[i]);
  return h;
}

}  // namespace

void EventStreams::trace_opened(match::TraceIndex trace, const ingest::TraceInfo& info) {
  auto t = std::make_unique<Trace>();
  t->name = info.name;
  t->stream_files = info.stream_files;
  const std::lock_guard<std::mutex> lock(mutex_);
  traces_[trace] = std::move(t);
}

void EventStreams::trace_events(match::TraceIndex trace, std::span<const match::PacketEvent> events,
                                model::Nanoseconds) {
  Trace* t = nullptr;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto found = traces_.find(trace);
    if (found == traces_.end()) return;
    t = found->second.get();
  }
  // Calls about one trace never overlap: its list needs no lock.
  for (const match::PacketEvent& e : events) {
    if (e.layout != match::Layout::kTcp) continue;  // no key: never one end of a message
    t->events.push_back({e.time, key_fingerprint(e), e.stream, e.direction == match::Direction::kSend});
  }
}

std::vector<EventStreams::Found> EventStreams::at(const std::vector<std::string>& traces, bool send, int64_t time) {
  const auto order = [](const Event& a, const Event& b) { return std::tie(a.send, a.time) < std::tie(b.send, b.time); };
  if (!sorted_) {
    for (auto& [index, t] : traces_) std::sort(t->events.begin(), t->events.end(), order);
    sorted_ = true;
  }
  std::vector<Found> out;
  for (const auto& [index, t] : traces_) {
    if (std::find(traces.begin(), traces.end(), t->name) == traces.end()) continue;
    Event wanted;
    wanted.send = send;
    wanted.time = time;
    const auto [first, last] = std::equal_range(t->events.begin(), t->events.end(), wanted, order);
    for (auto e = first; e != last; ++e) out.push_back({t.get(), &*e});
  }
  return out;
}

snapshot::CitedEvents EventStreams::cite(const std::vector<std::string>& sender_traces, int64_t send_ns,
                                         const std::vector<std::string>& receiver_traces, int64_t receive_ns) {
  const std::vector<Found> sends = at(sender_traces, true, send_ns);
  const std::vector<Found> receives = at(receiver_traces, false, receive_ns);
  snapshot::CitedEvents out;
  const auto name = [&](const Found& f, std::string& trace, std::string& stream) {
    trace = f.trace->name;
    if (f.event->stream < f.trace->stream_files.size()) stream = f.trace->stream_files[f.event->stream];
  };
  for (const Found& s : sends) {
    for (const Found& r : receives) {
      if (s.event->key != r.event->key) continue;
      name(s, out.send_trace, out.send_stream);
      name(r, out.receive_trace, out.receive_stream);
      return out;
    }
  }
  return out;  // not read as one message here (a match file, or traces not read): nothing to cite
}

}  // namespace tracesync::cli
