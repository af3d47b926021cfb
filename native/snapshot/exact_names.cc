// SPDX-License-Identifier: EPL-2.0
#include "snapshot/exact_names.h"

#include <algorithm>
#include <map>

#include "snapshot/utf8.h"

namespace tracesync::snapshot {
namespace {

using Strings = google::protobuf::RepeatedPtrField<std::string>;

// A name field and its `*_raw` sibling.
void carry(std::string* text, std::string* raw) {
  if (raw->empty()) {
    if (is_utf8(*text)) return;
    *raw = *text;
  }
  *text = readable_text(*raw);
}

// A repeated name field: its `*_raw` sibling holds every entry, or none.
void carry(Strings* texts, Strings* raw) {
  if (raw->empty()) {
    if (std::all_of(texts->begin(), texts->end(), [](const std::string& t) { return is_utf8(t); })) return;
    *raw = *texts;
  }
  texts->Clear();
  for (const std::string& bytes : *raw) *texts->Add() = readable_text(bytes);
}

// Prose that may quote names: readable text only.
void make_readable(std::string* text) {
  if (!is_utf8(*text)) *text = readable_text(*text);
}

void carry_exact_names(v1::EngineOptions& o) {
  carry(o.mutable_forced_references(), o.mutable_forced_references_raw());
  carry(o.mutable_reading_program(), o.mutable_reading_program_raw());
  make_readable(o.mutable_in_process_reason());
  auto& overrides = *o.mutable_domain_overrides();
  const bool all_utf8 = std::all_of(overrides.begin(), overrides.end(),
                                    [](const auto& entry) { return is_utf8(entry.first) && is_utf8(entry.second); });
  if (all_utf8) return;
  // An echo of what was asked: readable text only (the traces carry the exact ids).
  std::map<std::string, std::string> readable;
  for (const auto& [trace, domain] : overrides) readable.emplace(readable_text(trace), readable_text(domain));
  overrides.clear();
  for (const auto& [trace, domain] : readable) overrides[trace] = domain;
}

}  // namespace

void carry_exact_names(v1::Link& link) {
  carry(link.mutable_a(), link.mutable_a_raw());
  carry(link.mutable_b(), link.mutable_b_raw());
  carry(link.mutable_a_hostname(), link.mutable_a_hostname_raw());
  carry(link.mutable_b_hostname(), link.mutable_b_hostname_raw());
}

void carry_exact_names(v1::Snapshot& snapshot) {
  carry_exact_names(*snapshot.mutable_options());
  for (v1::Trace& t : *snapshot.mutable_traces()) {
    carry(t.mutable_name(), t.mutable_name_raw());
    carry(t.mutable_path(), t.mutable_path_raw());
    carry(t.mutable_hostname(), t.mutable_hostname_raw());
    carry(t.mutable_domain(), t.mutable_domain_raw());
    make_readable(t.mutable_unsynchronized_reason());
  }
  for (v1::Link& link : *snapshot.mutable_links()) carry_exact_names(link);
  for (v1::Island& island : *snapshot.mutable_islands()) {
    carry(island.mutable_reference(), island.mutable_reference_raw());
    carry(island.mutable_domains(), island.mutable_domains_raw());
  }
  for (v1::Problem& p : *snapshot.mutable_problems()) {
    carry(p.mutable_source(), p.mutable_source_raw());
    make_readable(p.mutable_message());
  }
}

}  // namespace tracesync::snapshot
