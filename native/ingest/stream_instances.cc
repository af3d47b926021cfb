// SPDX-License-Identifier: EPL-2.0
#include "ingest/stream_instances.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include "ctf/stream_scanner.h"
#include "ingest/merged_packet_index.h"
#include "ingest/trace_discovery.h"

namespace tracesync::ingest {

namespace {

namespace fs = std::filesystem;

// One file's first packet, as src.ctf.fs reads it to group the file.
struct FileStart {
  std::string path;
  bool read = false;
  uint64_t stream_class = 0;
  std::optional<uint64_t> instance;
  std::optional<int64_t> begin_ns;  // timestamp_begin, in ns from origin
};

uint64_t big_endian(const unsigned char* bytes, std::size_t count) {
  uint64_t value = 0;
  for (std::size_t i = 0; i < count; ++i) value = value << 8 | bytes[i];
  return value;
}

// The file's index from LTTng's TRACE/index/FILE.idx, as src.ctf.fs 2.0.4
// takes it (build_index_from_idx_file): nullopt when it is absent or not
// valid by its rules (magic, major version 1, an entry size of at least
// 1.0's, whole entries, packet sizes in whole bytes, offsets that never go
// back, no packet ending before it begins, times that fit in ns, sizes
// adding up to the file's), and the packets are then walked instead.
std::optional<std::vector<IndexEntry>> index_file_of(const ctf::ScanPlan::StreamPlan& stream, const std::string& path,
                                                     uint64_t file_size, std::size_t file) {
  constexpr uint32_t kMagic = 0xC1F1DCC1;
  constexpr std::size_t kHeaderSize = 16, kEntry10Size = 56;
  const fs::path index = fs::path(path).parent_path() / "index" / (fs::path(path).filename().string() + ".idx");
  std::ifstream in(index, std::ios::binary);
  if (!in) return std::nullopt;
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  if (bytes.size() < kHeaderSize || big_endian(data, 4) != kMagic || big_endian(data + 4, 4) != 1) return std::nullopt;
  const uint64_t minor = big_endian(data + 8, 4);
  const uint64_t entry_size = big_endian(data + 12, 4);
  if (entry_size < kEntry10Size || (bytes.size() - kHeaderSize) % entry_size != 0) return std::nullopt;
  std::vector<IndexEntry> entries;
  uint64_t total = 0;
  for (std::size_t at = kHeaderSize; at < bytes.size(); at += entry_size) {
    const auto field = [&](std::size_t n) { return big_endian(data + at + 8 * n, 8); };
    IndexEntry entry;
    entry.file = file;
    entry.offset = field(0);
    const uint64_t bits = field(1);
    if (bits % 8 != 0) return std::nullopt;
    entry.size = bits / 8;
    if (!entries.empty() && entry.offset < entries.back().offset) return std::nullopt;
    entry.begin = field(3);
    entry.end = field(4);
    if (entry.end < entry.begin) return std::nullopt;
    const auto begin_ns = stream.time.ns_from_origin(entry.begin);
    if (!begin_ns || !stream.time.ns_from_origin(entry.end)) return std::nullopt;
    entry.begin_ns = *begin_ns;
    // 1.1 adds stream_instance_id (field 7) and packet_seq_num (field 8).
    if (minor >= 1 && entry_size >= 9 * 8) entry.sequence = field(8);
    total += entry.size;
    entries.push_back(entry);
  }
  if (total != file_size) return std::nullopt;
  return entries;
}

FileStart first_packet(const ctf::ScanPlan& plan, const std::string& path) {
  FileStart start;
  start.path = path;
  ctf::StreamScanner scanner(plan, path);
  ctf::PacketSummary summary;
  std::string problem;
  if (!scanner.open(problem) || !scanner.next_packet_bounds(summary, problem)) return start;
  start.read = true;
  start.stream_class = summary.stream->stream_class->id;
  start.instance = summary.stream_instance;
  if (summary.begin_clock) start.begin_ns = summary.stream->time.ns_from_origin(*summary.begin_clock);
  return start;
}

// The file's index: LTTng's index file where it is valid, else its
// packets walked by their headers and contexts; nullopt where one cannot be
// read.
std::optional<std::vector<IndexEntry>> index_of(const ctf::ScanPlan& plan, const std::string& path, std::size_t file) {
  ctf::StreamScanner scanner(plan, path);
  ctf::PacketSummary summary;
  std::string problem;
  if (!scanner.open(problem)) return std::nullopt;
  if (!scanner.next_packet_bounds(summary, problem)) return std::nullopt;
  if (summary.stream->clock != nullptr) {
    if (auto entries = index_file_of(*summary.stream, path, scanner.size(), file)) return entries;
  }
  scanner.seek(0);
  std::vector<IndexEntry> entries;
  while (!scanner.at_end()) {
    if (!scanner.next_packet_bounds(summary, problem)) return std::nullopt;
    IndexEntry& entry = entries.emplace_back();
    entry.file = file;
    entry.offset = summary.offset;
    entry.size = scanner.offset() - summary.offset;
    if (summary.begin_clock) {
      entry.begin = *summary.begin_clock;
      const auto ns = summary.stream->time.ns_from_origin(entry.begin);
      if (!ns) return std::nullopt;  // babeltrace2 cannot index it either
      entry.begin_ns = *ns;
    }
    if (summary.end_clock) entry.end = *summary.end_clock;
  }
  return entries;
}

// A stream being gathered: its files' starts in directory order.
struct Gathered {
  std::vector<const FileStart*> files;
};

}  // namespace

std::optional<std::vector<StreamInstance>> stream_instances(const ctf::ScanPlan& plan,
                                                            const std::string& trace_directory,
                                                            std::error_code& error) {
  // The directory's order, not sorted: src.ctf.fs takes the files as
  // readdir gives them, and that order decides which file's index the
  // others are merged into.
  const auto files = stream_file_paths_as_listed(trace_directory, error);
  if (!files) return std::nullopt;
  std::vector<FileStart> starts;
  for (const std::string& path : *files) starts.push_back(first_packet(plan, path));

  std::vector<Gathered> gathered;
  std::map<std::pair<uint64_t, uint64_t>, std::size_t> by_instance;  // (stream class, instance) -> gathered
  for (const FileStart& start : starts) {
    if (start.read && start.instance && start.begin_ns) {
      const auto [at, added] = by_instance.try_emplace({start.stream_class, *start.instance}, gathered.size());
      if (added) gathered.emplace_back();
      gathered[at->second].files.push_back(&start);
    } else {
      gathered.push_back(Gathered{{&start}});
    }
  }

  std::vector<StreamInstance> out;
  for (const Gathered& stream : gathered) {
    StreamInstance& instance = out.emplace_back();
    const FileStart& first = *stream.files.front();
    if (first.read) instance.stream_class = first.stream_class;
    if (first.read && first.instance && first.begin_ns) instance.instance = first.instance;
    if (stream.files.size() == 1) {
      instance.files.push_back(first.path);
      continue;
    }
    // The files (their numbers in directory order) by their first
    // timestamp_begin, ties in directory order (src.ctf.fs inserts each
    // before the first that begins later).
    std::vector<std::size_t> by_time(stream.files.size());
    for (std::size_t f = 0; f < by_time.size(); ++f) by_time[f] = f;
    std::stable_sort(by_time.begin(), by_time.end(), [&](std::size_t a, std::size_t b) {
      return *stream.files[a]->begin_ns < *stream.files[b]->begin_ns;
    });
    std::vector<std::size_t> place(stream.files.size());
    for (std::size_t p = 0; p < by_time.size(); ++p) {
      place[by_time[p]] = p;
      instance.files.push_back(stream.files[by_time[p]]->path);
    }
    std::optional<MergedPacketIndex> index;
    bool indexed = true;
    for (std::size_t f = 0; f < stream.files.size() && indexed; ++f) {
      const auto entries = index_of(plan, stream.files[f]->path, f);
      if (!entries) {
        indexed = false;
      } else if (f == 0) {
        index.emplace(*entries);  // the first file's index as it is
      } else {
        for (const IndexEntry& entry : *entries) index->insert(entry);
      }
    }
    if (!indexed) continue;  // read file after file: the damage is met and named there
    for (const IndexEntry& entry : index->entries()) instance.packets.push_back({place[entry.file], entry.offset});
  }
  // The scanner's stream numbers: by the first of their files' names.
  const auto least_name = [](const StreamInstance& s) { return *std::min_element(s.files.begin(), s.files.end()); };
  std::stable_sort(out.begin(), out.end(),
                   [&](const StreamInstance& a, const StreamInstance& b) { return least_name(a) < least_name(b); });
  return out;
}

}  // namespace tracesync::ingest
