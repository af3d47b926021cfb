#pragma once

// A synthetic experiment for the reading benchmark, until `tracesync
// simulate` exists: H hosts exchanging TCP segments, lttng-modules 2.12
// layout (net_dev_queue / net_if_receive_skb, IPv4), each host's clock off
// by a few ms, every trace split into per-CPU stream files of fixed-size
// packets, plus `other_events` non-network events per message.

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include "ingest/ctf_test_writer.h"

namespace tracesync::bench {

struct SyntheticShape {
  std::size_t hosts = 2;
  uint64_t messages = 1'000'000;
  unsigned other_events = 1;  // per message, on the sender
  std::size_t cpus = 4;
  std::size_t events_per_packet = 2000;
};

// Writes DIR/host0 .. DIR/host{H-1}; returns the number of events written.
inline uint64_t write_synthetic_experiment(const std::filesystem::path& root, const SyntheticShape& shape) {
  using ingest::testing::NetEvent;
  using ingest::testing::TraceShape;
  uint64_t written = 0;
  constexpr uint64_t kGapNs = 20'000;
  for (std::size_t h = 0; h < shape.hosts; ++h) {
    const std::filesystem::path dir = root / ("host" + std::to_string(h));
    std::filesystem::create_directories(dir);
    TraceShape trace;
    trace.layout = ingest::testing::Layout::kLttng211;
    trace.hostname = "host" + std::to_string(h);
    trace.clock_uuid = "00000000-0000-4000-8000-" + std::string(12 - std::to_string(h).size(), '0') + std::to_string(h);
    trace.events_per_packet = shape.events_per_packet;
    ingest::testing::write_file(dir / "metadata", ingest::testing::metadata_text(trace));
    std::vector<std::ofstream> files;
    std::vector<std::vector<NetEvent>> pending(shape.cpus);
    for (std::size_t c = 0; c < shape.cpus; ++c) files.emplace_back(dir / ("channel0_" + std::to_string(c)), std::ios::binary);
    std::size_t next_cpu = 0;
    auto emit = [&](const NetEvent& e) {
      std::vector<NetEvent>& buffer = pending[next_cpu];
      buffer.push_back(e);
      if (buffer.size() == shape.events_per_packet) {
        ingest::testing::BitWriter w;
        ingest::testing::write_packet(w, buffer, trace);
        files[next_cpu].write(reinterpret_cast<const char*>(w.bytes().data()), static_cast<std::streamsize>(w.bytes().size()));
        buffer.clear();
      }
      next_cpu = (next_cpu + 1) % shape.cpus;
      ++written;
    };
    // Events are produced in message order and reordered by local time.
    auto later = [](const NetEvent& a, const NetEvent& b) { return a.time > b.time; };
    std::priority_queue<NetEvent, std::vector<NetEvent>, decltype(later)> ready(later);
    const uint64_t offset = 1'000'000'000 + 3'000'000 * h;  // each host's clock is ahead by 3 ms more
    std::mt19937_64 rng(42);  // the same message sequence for every host
    for (uint64_t k = 0; k < shape.messages; ++k) {
      const uint64_t true_time = 1'000'000'000 + k * kGapNs;
      const std::size_t from = rng() % shape.hosts;
      const std::size_t to = (from + 1 + rng() % (shape.hosts - 1)) % shape.hosts;
      const uint64_t delay = 30'000 + rng() % 20'000;
      NetEvent e;
      e.saddr = {10, 0, 0, static_cast<uint8_t>(from + 1)};
      e.daddr = {10, 0, 0, static_cast<uint8_t>(to + 1)};
      e.source_port = 40000;
      e.dest_port = 22;
      e.seq = static_cast<uint32_t>(k * 1448);
      e.ack_seq = static_cast<uint32_t>(k);
      e.flags = 0x18;
      if (from == h) {
        e.name = "net_dev_queue";
        e.time = true_time + offset;
        ready.push(e);
        for (unsigned o = 0; o < shape.other_events; ++o) {
          NetEvent other;
          other.name = "timer_init";
          other.time = e.time + 1 + o;
          ready.push(other);
        }
      }
      if (to == h) {
        e.name = "net_if_receive_skb";
        e.time = true_time + delay + offset;
        ready.push(e);
      }
      while (!ready.empty() && ready.top().time <= true_time + offset) {
        emit(ready.top());
        ready.pop();
      }
    }
    while (!ready.empty()) {
      emit(ready.top());
      ready.pop();
    }
    for (std::size_t c = 0; c < shape.cpus; ++c) {
      if (pending[c].empty()) continue;
      ingest::testing::BitWriter w;
      ingest::testing::write_packet(w, pending[c], trace);
      files[c].write(reinterpret_cast<const char*>(w.bytes().data()), static_cast<std::streamsize>(w.bytes().size()));
    }
  }
  return written;
}

}  // namespace tracesync::bench
