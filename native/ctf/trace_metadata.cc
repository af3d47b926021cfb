// SPDX-License-Identifier: EPL-2.0
#include "ctf/trace_metadata.h"

#include <cstring>
#include <fstream>

#include "ctf/ctf2_metadata.h"
#include "ctf/metadata_text.h"
#include "ctf/tsdl_parser.h"

namespace tracesync::ctf {

const char* to_string(MetadataFormat format) {
  switch (format) {
    case MetadataFormat::kCtf18: return "CTF 1.8";
    case MetadataFormat::kCtf2: return "CTF 2";
  }
  return "?";
}

MetadataFormat metadata_format(std::string_view text) {
  return !text.empty() && text.front() == '\x1e' ? MetadataFormat::kCtf2 : MetadataFormat::kCtf18;
}

std::optional<MetadataFormat> metadata_file_format(const std::filesystem::path& file) {
  // A metadata packet's header (CTF 1.8, section 7.1; CTF 2 keeps it) is
  // 37 bytes long, its magic number first.
  constexpr std::size_t kHeaderBytes = 37;
  constexpr uint32_t kMagic = 0x75D11D57;
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  char head[kHeaderBytes + 1] = {};
  in.read(head, sizeof head);
  const auto got = static_cast<std::size_t>(in.gcount());
  if (got >= 4) {
    uint32_t magic = 0;
    std::memcpy(&magic, head, 4);
    if (magic == kMagic || magic == __builtin_bswap32(kMagic)) {
      return got > kHeaderBytes ? metadata_format(std::string_view(head + kHeaderBytes, 1)) : MetadataFormat::kCtf18;
    }
  }
  return metadata_format(std::string_view(head, got));
}

std::optional<TraceMetadata> parse_trace_metadata(std::string_view text, std::string* error) {
  TraceMetadata metadata;
  metadata.format = metadata_format(text);
  std::optional<TraceClass> trace;
  if (metadata.format == MetadataFormat::kCtf2) {
    trace = parse_ctf2(text, error);
  } else {
    trace = parse_tsdl(text, error);
  }
  if (!trace) return std::nullopt;
  metadata.trace = std::move(*trace);
  return metadata;
}

std::optional<TraceMetadata> read_trace_metadata(const std::filesystem::path& file, std::string* error,
                                                 std::optional<MetadataFormat>* format) {
  const auto text = read_metadata_text(file, error);
  if (!text) return std::nullopt;
  if (format != nullptr) *format = metadata_format(*text);
  return parse_trace_metadata(*text, error);
}

}  // namespace tracesync::ctf
