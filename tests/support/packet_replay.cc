// SPDX-License-Identifier: EPL-2.0
#include "support/packet_replay.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "ctf/scan_plan.h"
#include "ctf/stream_scanner.h"
#include "ctf/trace_metadata.h"

namespace tracesync::testing {

namespace fs = std::filesystem;

namespace {

// Hears of no event: only the packets' summaries are wanted.
class NoEvents final : public ctf::EventVisitor {
 public:
  void selected_event(const ctf::ScanPlan::EventPlan&, const ctf::ScanPlan::StreamPlan&, uint64_t,
                      const ctf::CapturedField*) override {}
};

std::string big_endian(uint64_t value, int bytes) {
  std::string out;
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<char>(value >> (8 * i) & 0xff));
  return out;
}

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void append(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::app);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out.flush()) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

PacketReplay::PacketReplay(std::vector<fs::path> sources, std::vector<fs::path> targets)
    : sources_(std::move(sources)), targets_(std::move(targets)) {
  for (std::size_t t = 0; t < sources_.size(); ++t) {
    std::string error;
    std::optional<ctf::TraceMetadata> metadata = ctf::read_trace_metadata(sources_[t] / "metadata", &error);
    if (!metadata) throw std::runtime_error(sources_[t].string() + "/metadata: " + error);
    std::optional<ctf::ScanPlan> plan =
        ctf::ScanPlan::compile(std::move(metadata->trace), [](const ctf::EventClass&) { return std::nullopt; }, &error);
    if (!plan) throw std::runtime_error(sources_[t].string() + ": " + error);
    std::vector<fs::path> streams;
    for (const fs::directory_entry& entry : fs::directory_iterator(sources_[t])) {
      const std::string name = entry.path().filename().string();
      if (entry.is_regular_file() && name != "metadata" && name.front() != '.') streams.push_back(entry.path());
    }
    for (const fs::path& stream : streams) {
      uint64_t discarded = 0;  // LTTng's index counts a stream's lost events from its start
      ctf::StreamScanner scanner(*plan, stream.string());
      if (!scanner.open(error)) throw std::runtime_error(error);
      NoEvents visitor;
      while (!scanner.at_end()) {
        ctf::PacketSummary summary;
        if (!scanner.next_packet(visitor, summary, error)) throw std::runtime_error(error);
        if (!summary.begin_clock || !summary.end_clock || summary.stream == nullptr || summary.stream->clock == nullptr) {
          throw std::runtime_error(stream.string() + ": a packet without its begin and end times");
        }
        const ctf::ClockClass& clock = *summary.stream->clock;
        discarded += summary.discarded;
        const long double cycles = static_cast<long double>(clock.offset_cycles) + *summary.end_clock;
        packets_.push_back({static_cast<long double>(clock.offset_seconds) * 1e9L + cycles * 1e9L / clock.frequency, t,
                            stream.filename().string(), summary.offset, scanner.offset() - summary.offset,
                            *summary.begin_clock, *summary.end_clock, discarded});
      }
    }
  }
  std::stable_sort(packets_.begin(), packets_.end(), [](const Packet& x, const Packet& y) { return x.end_ns < y.end_ns; });
  for (std::size_t t = 0; t < targets_.size(); ++t) {
    fs::create_directories(targets_[t] / "index");
    append(targets_[t] / "metadata", read_all(sources_[t] / "metadata"));
  }
}

bool PacketReplay::write(std::size_t count) {
  for (const std::size_t end = std::min(packets_.size(), next_ + count); next_ < end; ++next_) {
    const Packet& p = packets_[next_];
    std::ifstream in(sources_[p.trace] / p.stream, std::ios::binary);
    std::string bytes(p.size, '\0');
    in.seekg(static_cast<std::streamoff>(p.offset));
    if (!in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()))) {
      throw std::runtime_error("cannot read " + (sources_[p.trace] / p.stream).string());
    }
    append(targets_[p.trace] / p.stream, bytes);
    const fs::path index = targets_[p.trace] / "index" / (p.stream + ".idx");
    std::string entry;
    if (!fs::exists(index)) entry = big_endian(0xC1F1DCC1, 4) + big_endian(1, 4) + big_endian(1, 4) + big_endian(72, 4);
    entry += big_endian(p.offset, 8) + big_endian(p.size * 8, 8) + big_endian(p.size * 8, 8) +
             big_endian(p.begin_clock, 8) + big_endian(p.end_clock, 8) + big_endian(p.discarded, 8) +
             big_endian(0, 8) + big_endian(0, 8) + big_endian(0, 8);
    append(index, entry);
  }
  return next_ < packets_.size();
}

}  // namespace tracesync::testing
