// SPDX-License-Identifier: EPL-2.0
#include "ingest/packet_locator.h"

#include <charconv>
#include <filesystem>
#include <vector>

#include "ctf/stream_scanner.h"
#include "ctf/trace_metadata.h"
#include "ingest/trace_discovery.h"

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
  // The stream files, as src.ctf.fs and the scanner take them.
  const auto files = stream_file_paths(trace, error);
  if (!files) return std::nullopt;

  NoVisitor visitor;
  ctf::PacketSummary summary;
  std::string problem;
  std::vector<std::string> matches;
  const std::string& stream = parts.back();
  const auto instance = number_of(stream);
  const auto stream_class = parts.size() >= 3 ? number_of(parts[parts.size() - 2]) : std::nullopt;
  for (const std::string& file : *files) {
    if (!instance) {
      if (fs::path(file) == fs::path(stream)) matches.push_back(file);
      continue;
    }
    ctf::StreamScanner scanner(*plan, file);
    if (!scanner.open(problem) || !scanner.next_packet(visitor, summary, problem)) continue;
    if (summary.stream_instance != instance) continue;
    if (stream_class && summary.stream->stream_class->id != *stream_class) continue;
    matches.push_back(file);
  }
  if (matches.size() != 1) return std::nullopt;  // none, or the stream split in several files

  ctf::StreamScanner scanner(*plan, matches.front());
  if (!scanner.open(problem)) return std::nullopt;
  for (uint64_t packet = 0; packet < number; ++packet) {
    if (scanner.at_end() || !scanner.next_packet(visitor, summary, problem)) return std::nullopt;
  }
  if (scanner.at_end()) return std::nullopt;
  return PacketPlace{matches.front(), scanner.offset()};
}

}  // namespace tracesync::ingest
