// SPDX-License-Identifier: EPL-2.0
#pragma once

// The CTF 2 traces of tests/data/ctf2 and their CTF 1.8 twins (its README):
// assembled in a temporary directory, and what the tests compare of them.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ctf/trace_class.h"

namespace tracesync::ctf::testing {

namespace fs = std::filesystem;

inline const fs::path kCtf2Data = fs::path(TRACESYNC_FIXTURES_DIR) / ".." / "tests" / "data" / "ctf2";

// The twins whose stream files babeltrace2 and the scanner both read (LTTng
// traces: a clock, packet headers), and those only the metadata of which is
// compared (no clock: the scanner's plans need one).
inline const std::vector<std::string> kReadTwins = {"trace-with-index", "lttng-crash", "lttng-event-after-packet"};
inline const std::vector<std::string> kMetadataTwins = {"smalltrace", "meta-variant-no-underscore"};

inline std::string file_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// A directory removed with its contents when the test ends.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "tracesync-ctf2-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// `twin`'s stream files with the metadata text `metadata`, as a trace
// directory `name` under `dir`.
inline fs::path assemble(const fs::path& dir, const std::string& twin, const std::string& name,
                         const std::string& metadata) {
  const fs::path trace = dir / name;
  fs::create_directories(trace);
  fs::copy(kCtf2Data / twin / "streams", trace, fs::copy_options::recursive);
  std::ofstream(trace / "metadata", std::ios::binary) << metadata;
  return trace;
}

// What a read plan reads of a TraceClass, as text: every scope's field
// classes (kinds, sizes, alignments, byte orders, signedness, clocks, roles,
// mappings, variant options and the values that pick them, references),
// the clocks and the event classes. Two classes with the same text read the
// same stream files the same way.
class LayoutText {
 public:
  static std::string of(const TraceClass& trace, bool with_roles = true) {
    LayoutText t(trace, with_roles);
    t.out_ << "trace uuid " << (trace.uuid ? uuid_text(*trace.uuid) : "-") << "\n";
    for (const auto& [name, value] : trace.environment_strings) t.out_ << "env " << name << " = " << value << "\n";
    for (const auto& [name, value] : trace.environment_integers) t.out_ << "env " << name << " = " << value << "\n";
    for (const ClockClass& c : trace.clocks) {
      // The offset as one instant: whole seconds in the seconds.
      const auto frequency = static_cast<int64_t>(c.frequency);
      t.out_ << "clock " << c.name << " uuid " << c.uuid.value_or("-") << " freq " << c.frequency << " offset "
             << c.offset_seconds + c.offset_cycles / frequency << " s " << c.offset_cycles % frequency << " cycles\n";
    }
    t.scope(Scope::kPacketHeader, trace.packet_header);
    for (const auto& [id, stream] : trace.stream_classes) {
      t.stream_ = &stream;
      t.out_ << "stream " << id << "\n";
      t.scope(Scope::kPacketContext, stream.packet_context);
      t.scope(Scope::kEventHeader, stream.event_header);
      t.scope(Scope::kStreamEventContext, stream.event_context);
      for (const auto& [eid, event] : stream.event_classes) {
        t.event_ = &event;
        t.out_ << "event " << eid << " " << event.name << " stream " << event.stream_class_id << " loglevel "
               << event.log_level.value_or(-1) << "\n";
        t.scope(Scope::kEventContext, event.context);
        t.scope(Scope::kEventPayload, event.payload);
      }
    }
    return t.out_.str();
  }

 private:
  LayoutText(const TraceClass& trace, bool with_roles) : trace_(trace), with_roles_(with_roles) {}

  void scope(Scope scope, const FieldClassPtr& fc) {
    scope_ = scope;
    out_ << " " << to_string(scope) << ":";
    if (fc) field(*fc, 1);
    out_ << "\n";
  }

  static std::string bare(const std::string& name) {
    return !name.empty() && name.front() == '_' ? name.substr(1) : name;
  }

  // A reference as the field it names: "scope/name/name", wherever it was
  // written from (relative, absolute).
  std::string resolved(const FieldPath& path, const FieldClass** target) const {
    const FieldClass* at = nullptr;
    std::string text;
    if (path.absolute) {
      switch (path.scope) {
        case Scope::kPacketHeader: at = trace_.packet_header.get(); break;
        case Scope::kPacketContext: at = stream_ ? stream_->packet_context.get() : nullptr; break;
        case Scope::kEventHeader: at = stream_ ? stream_->event_header.get() : nullptr; break;
        case Scope::kStreamEventContext: at = stream_ ? stream_->event_context.get() : nullptr; break;
        case Scope::kEventContext: at = event_ ? event_->context.get() : nullptr; break;
        case Scope::kEventPayload: at = event_ ? event_->payload.get() : nullptr; break;
      }
      text = to_string(path.scope);
    } else if (path.climb > 0 && frames_.size() > path.climb) {
      const auto& frame = frames_[frames_.size() - 1 - path.climb];
      at = frame.first;
      text = to_string(scope_);
      for (const std::string& name : frame.second) text += "/" + bare(name);
    } else if (!path.names.empty()) {
      for (auto frame = frames_.rbegin(); frame != frames_.rend(); ++frame) {
        if (frame->first->member(path.names[0]) == nullptr) continue;
        at = frame->first;
        text = to_string(scope_);
        for (const std::string& name : frame->second) text += "/" + bare(name);
        break;
      }
    }
    for (const std::string& name : path.names) {
      const Member* member = at ? at->member(name) : nullptr;
      at = member ? member->type.get() : nullptr;
      text += "/" + bare(name);
    }
    *target = at;
    return at ? text : "(unresolved " + path.text() + ")";
  }

  // CTF 1.8's `timestamp_end` maps the clock but does not move it (the
  // read plan passes it by), as CTF 2's packet end time does not.
  bool ignored_clock() const {
    return scope_ == Scope::kPacketContext && !path_.empty() && bare(path_.back()) == "timestamp_end";
  }

  void field(const FieldClass& fc, int depth) {
    using K = FieldClass::Kind;
    out_ << "\n" << std::string(2 * depth, ' ');
    switch (fc.kind) {
      case K::kInteger:
      case K::kEnumeration:
        out_ << (fc.variable_length ? "leb128 " : fc.boolean ? "bool " : "") << (fc.is_signed ? "s" : "u") << fc.size
             << " align " << fc.alignment
             << (fc.byte_order == ByteOrder::kBig ? " be" : " le") << (fc.text ? " text" : "")
             << (fc.mapped_clock.empty() || ignored_clock() ? "" : " clock " + fc.mapped_clock)
             << (with_roles_ && !fc.role.empty() ? " role " + fc.role : "");
        for (const Mapping& m : fc.mappings) out_ << " [" << m.label << " " << m.lower << ".." << m.upper << "]";
        return;
      case K::kFloat:
        out_ << "float" << fc.size << " align " << fc.alignment << (fc.byte_order == ByteOrder::kBig ? " be" : " le");
        return;
      case K::kString:
        out_ << "string";
        if (fc.code_unit > 1) out_ << " utf-" << 8 * fc.code_unit << (fc.byte_order == ByteOrder::kBig ? "be" : "le");
        return;
      case K::kStructure:
        out_ << "struct align " << fc.alignment;
        frames_.emplace_back(&fc, path_);
        for (const Member& m : fc.members) {
          out_ << "\n" << std::string(2 * depth + 2, ' ') << bare(m.name) << ":";
          path_.push_back(m.name);
          field(*m.type, depth + 2);
          path_.pop_back();
        }
        frames_.pop_back();
        return;
      case K::kArray:
      case K::kSequence: {
        const FieldClass* length = nullptr;
        out_ << (fc.kind == K::kArray ? "array " + std::to_string(fc.length)
                                      : "sequence " + resolved(fc.length_field, &length))
             << (with_roles_ && !fc.role.empty() ? " role " + fc.role : "") << " align " << fc.alignment;
        if (fc.code_unit > 1) out_ << " utf-" << 8 * fc.code_unit << (fc.byte_order == ByteOrder::kBig ? "be" : "le");
        out_ << " of";
        field(*fc.element, depth + 1);
        return;
      }
      case K::kOptional: {
        const FieldClass* selector = nullptr;
        out_ << "optional <" << resolved(fc.selector, &selector) << ">";
        for (const auto& r : fc.option_ranges) out_ << " [" << r.lower << ".." << r.upper << "]";
        out_ << " of";
        field(*fc.element, depth + 1);
        return;
      }
      case K::kVariant: {
        const FieldClass* selector = nullptr;
        out_ << "variant <" << resolved(fc.selector, &selector) << ">";
        for (std::size_t o = 0; o < fc.members.size(); ++o) {
          out_ << "\n" << std::string(2 * depth + 2, ' ') << bare(fc.members[o].name);
          // The values that pick the option: its own ranges (CTF 2), or its
          // selector's mappings of its name (CTF 1.8).
          for (const auto& r : fc.option_ranges) {
            if (r.option == o) out_ << " [" << r.lower << ".." << r.upper << "]";
          }
          if (fc.option_ranges.empty() && selector != nullptr) {
            for (const Mapping& m : selector->mappings) {
              if (bare(m.label) == bare(fc.members[o].name)) out_ << " [" << m.lower << ".." << m.upper << "]";
            }
          }
          out_ << ":";
          path_.push_back(fc.members[o].name);
          field(*fc.members[o].type, depth + 2);
          path_.pop_back();
        }
        return;
      }
    }
  }

  const TraceClass& trace_;
  const StreamClass* stream_ = nullptr;
  const EventClass* event_ = nullptr;
  bool with_roles_;
  Scope scope_ = Scope::kPacketHeader;
  std::vector<std::pair<const FieldClass*, std::vector<std::string>>> frames_;  // enclosing structures, their paths
  std::vector<std::string> path_;
  std::ostringstream out_;
};

}  // namespace tracesync::ctf::testing
