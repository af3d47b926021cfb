// SPDX-License-Identifier: EPL-2.0
#include "ingest/packet_locator.h"

#include <charconv>
#include <filesystem>
#include <vector>

#include "ctf/stream_scanner.h"
#include "ctf/trace_metadata.h"
#include "ingest/stream_instances.h"

namespace tracesync::ingest {

namespace {

namespace fs = std::filesystem;

class NoVisitor final : public ctf::EventVisitor {
 public:
  void selected_event(const ctf::ScanPlan::EventPlan&, const ctf::ScanPlan::StreamPlan&, uint64_t,
                      const ctf::CapturedField*) override {}
};

std::vector<std::string> split_port(const std::string& port) {
  std::vector<std::string> parts;
  std::size_t from = 0;
  for (std::size_t bar; (bar = port.find(" | ", from)) != std::string::npos; from = bar + 3) {
    parts.push_back(port.substr(from, bar - from));
  }
  parts.push_back(port.substr(from));
  return parts;
}

std::optional<uint64_t> number_of(const std::string& text) {
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

}  // namespace

std::optional<PacketPlace> locate_packet(const std::string& trace, const std::string& port, uint64_t number) {
  const std::vector<std::string> parts = split_port(port);
  if (parts.size() < 2) return std::nullopt;
  std::string why;
  auto metadata = ctf::read_trace_metadata(fs::path(trace) / "metadata", &why);
  if (!metadata) return std::nullopt;
  const auto plan = ctf::ScanPlan::compile(std::move(metadata->trace), {}, &why);
  if (!plan) return std::nullopt;
  std::error_code error;
  // The streams as src.ctf.fs makes them of the files (and the scanner).
  const auto streams = stream_instances(*plan, trace, error);
  if (!streams) return std::nullopt;

  const std::string& name = parts.back();
  const auto instance = number_of(name);
  const auto stream_class = parts.size() >= 3 ? number_of(parts[parts.size() - 2]) : std::nullopt;
  std::vector<const StreamInstance*> matches;
  for (const StreamInstance& stream : *streams) {
    if (!instance) {
      // A stream of one file without an instance id, named by its path.
      if (!stream.instance && fs::path(stream.files.front()) == fs::path(name)) matches.push_back(&stream);
      continue;
    }
    if (stream.instance != instance) continue;
    if (stream_class && stream.stream_class != stream_class) continue;
    matches.push_back(&stream);
  }
  if (matches.size() != 1) return std::nullopt;
  const StreamInstance& stream = *matches.front();
  if (!stream.packets.empty()) {
    // Split: babeltrace2's packet order, file by file as it merged them.
    if (number >= stream.packets.size()) return std::nullopt;
    const StreamInstance::Packet& packet = stream.packets[number];
    return PacketPlace{stream.files[packet.file], packet.offset};
  }
  // One file (or a split stream babeltrace2 could not index: none of its
  // packets is read), walked to the packet.
  if (stream.split()) return std::nullopt;
  ctf::StreamScanner scanner(*plan, stream.files.front());
  NoVisitor visitor;
  ctf::PacketSummary summary;
  std::string problem;
  if (!scanner.open(problem)) return std::nullopt;
  for (uint64_t packet = 0; packet < number; ++packet) {
    if (scanner.at_end() || !scanner.next_packet(visitor, summary, problem)) return std::nullopt;
  }
  if (scanner.at_end()) return std::nullopt;
  return PacketPlace{stream.files.front(), scanner.offset()};
}

}  // namespace tracesync::ingest
