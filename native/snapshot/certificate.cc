// SPDX-License-Identifier: EPL-2.0
#include "snapshot/certificate.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include <algorithm>
#include <deque>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "snapshot/json_stream.h"
#include "verify/message_lines.h"

namespace tracesync::snapshot {
namespace {

using nlohmann::ordered_json;

// A domain's span, as the engine composes its transform over it: a link's
// span is its end a's; a domain that is no link's a spans its traces.
std::map<std::string, std::pair<int64_t, int64_t>> domain_spans(const v1::Snapshot& s) {
  std::map<std::string, std::pair<int64_t, int64_t>> spans;
  for (const v1::Trace& t : s.traces()) {
    auto [it, fresh] = spans.try_emplace(t.domain(), t.first_ns(), t.last_ns());
    if (!fresh) it->second = {std::min(it->second.first, t.first_ns()), std::max(it->second.second, t.last_ns())};
  }
  for (const v1::Link& l : s.links()) spans[l.a()] = {l.span_first_ns(), l.span_last_ns()};
  return spans;
}

// Who cites the messages' events, and the traces of a link's two ends.
struct Citing {
  const EventCitation& cite;
  const std::vector<std::string>& a_traces;
  const std::vector<std::string>& b_traces;
};

ordered_json messages_json(const google::protobuf::RepeatedPtrField<v1::Point>& points, bool a_to_b,
                           const Citing& citing) {
  ordered_json list = ordered_json::array();
  for (const v1::Point& p : points) {
    // An a -> b message is sent on a at x and received on b at y; a b -> a
    // one is sent on b at y and received on a at x.
    const int64_t send = a_to_b ? p.x() : p.y(), receive = a_to_b ? p.y() : p.x();
    ordered_json m{{"send_ns", send}, {"receive_ns", receive}};
    if (citing.cite) {
      const CitedEvents where = citing.cite(a_to_b ? citing.a_traces : citing.b_traces, send,
                                            a_to_b ? citing.b_traces : citing.a_traces, receive);
      const auto named = [&](const char* key, const std::string& value) {
        if (!value.empty()) m[key] = value;
      };
      named("send_trace", where.send_trace);
      named("send_stream", where.send_stream);
      named("receive_trace", where.receive_trace);
      named("receive_stream", where.receive_stream);
    }
    list.push_back(std::move(m));
  }
  return list;
}

std::vector<verify::MessagePoint> points(const google::protobuf::RepeatedPtrField<v1::Point>& list) {
  std::vector<verify::MessagePoint> out;
  for (const v1::Point& p : list) out.push_back({p.x(), p.y()});
  return out;
}

ordered_json segment_json(const v1::LinkSegment& segment, std::size_t index, const Citing& citing) {
  ordered_json j;
  j["index"] = index;
  j["first_ns"] = segment.first_ns();
  j["last_ns"] = segment.last_ns();
  j["quality"] = v1::Quality_Name(segment.quality());
  j["a_to_b"] = messages_json(segment.lower_hull_points(), true, citing);
  j["b_to_a"] = messages_json(segment.upper_hull_points(), false, citing);
  if (segment.quality() == v1::ACCURATE) {
    std::string why;
    if (const auto lines = verify::extreme_lines(points(segment.lower_hull_points()),
                                                 points(segment.upper_hull_points()), &why)) {
      j["lmin"] = {{"a_to_b", lines->lmin_pair.first}, {"b_to_a", lines->lmin_pair.second}};
      j["lmax"] = {{"a_to_b", lines->lmax_pair.first}, {"b_to_a", lines->lmax_pair.second}};
    }
  }
  return j;
}

// What the bounds rest on: stated once, at the top.
ordered_json assumptions_json(const v1::EngineOptions& o) {
  return {{"causality", "every message is received after it is sent, each time read on its own host's clock"},
          {"clock_model", o.clock_model().empty() ? "piecewise" : o.clock_model()},
          {"linear_within_segment", "within one link segment the two clocks are related by a line"},
          {"clock_stability_ppm", o.has_clock_stability_ppm() ? o.clock_stability_ppm() : 100.0},
          // hull::ClockStability::kMaxRateErrorPpm (a constant of the engine, not
          // an option): the local envelope's cones are capped by it.
          {"rate_limit_ppm", 1000.0},
          // How a map's bound grows where it is continued past its span (where no
          // message checks the stability): stated, because engines before s37
          // grew it by the stability, and verify checks their certificates so.
          {"continued_maps_grow_by", "rate_limit"}};
}

// Reads the segments of a serialized LinkDetail, one after the other, and
// skips its other fields; false when `detail` is not well formed.
bool read_segments(const std::string& detail, std::vector<v1::LinkSegment>& segments) {
  using google::protobuf::internal::WireFormatLite;
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(detail.data()),
                                            static_cast<int>(detail.size()));
  while (!in.ExpectAtEnd()) {
    const uint32_t tag = in.ReadTag();
    if (tag == 0) return false;
    if (WireFormatLite::GetTagFieldNumber(tag) != v1::LinkDetail::kSegmentsFieldNumber ||
        WireFormatLite::GetTagWireType(tag) != WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
      if (!WireFormatLite::SkipField(&in, tag)) return false;
      continue;
    }
    uint32_t length = 0;
    if (!in.ReadVarint32(&length) || length > detail.size()) return false;
    const auto limit = in.PushLimit(static_cast<int>(length));
    if (!segments.emplace_back().ParseFromCodedStream(&in) || !in.ConsumedEntireMessage()) return false;
    in.PopLimit(limit);
  }
  return true;
}

// A link's segments, without the rest of its detail: the detail also holds
// the link's clock map, a knot a piece (23,724 for a wandering day at 200
// messages a second), which the certificate does not cite.
std::vector<v1::LinkSegment> link_segments(const std::string& detail) {
  std::vector<v1::LinkSegment> segments;
  if (read_segments(detail, segments)) return segments;
  // Not well formed: what protobuf makes of it, whatever that is.
  v1::LinkDetail whole;
  whole.ParseFromString(detail);
  return {whole.segments().begin(), whole.segments().end()};
}

// A link and its segments, one segment at a time.
void write_link(JsonStream& out, const v1::Link& l, const std::vector<std::string>& a_traces,
                const std::vector<std::string>& b_traces, const EventCitation& cite) {
  out.begin_object();
  out.member("a", l.a());
  out.member("b", l.b());
  out.member("a_traces", a_traces);
  out.member("b_traces", b_traces);
  out.member("in_tree", l.in_tree());
  const std::vector<v1::LinkSegment> segments = link_segments(l.detail());
  out.key("segments");
  out.begin_array();
  for (std::size_t k = 0; k < segments.size(); ++k) {
    out.value(segment_json(segments[k], k, Citing{cite, a_traces, b_traces}));
  }
  out.end_array();
  out.end_object();
}

// Paths: from each domain to its island's reference through the tree.
void write_paths(JsonStream& out, const v1::Snapshot& s) {
  const auto spans = domain_spans(s);
  std::map<std::string, std::string> parent;
  std::map<std::string, std::string> reference_of;
  for (const v1::Island& island : s.islands()) {
    std::deque<std::string> queue{island.reference()};
    reference_of[island.reference()] = island.reference();
    while (!queue.empty()) {
      const std::string d = queue.front();
      queue.pop_front();
      for (const v1::Link& l : s.links()) {
        if (!l.in_tree()) continue;
        const std::string other = l.a() == d ? l.b() : l.b() == d ? l.a() : std::string();
        if (other.empty() || reference_of.count(other)) continue;
        reference_of[other] = island.reference();
        parent[other] = d;
        queue.push_back(other);
      }
    }
  }
  out.begin_array();
  for (const v1::Trace& t : s.traces()) {
    if (!reference_of.count(t.domain())) continue;
    ordered_json steps = ordered_json::array();
    for (std::string d = t.domain();; d = parent.at(d)) {
      const auto span = spans.count(d) ? spans.at(d) : std::pair<int64_t, int64_t>{0, 0};
      steps.push_back({{"domain", d}, {"first_ns", span.first}, {"last_ns", span.second}});
      if (!parent.count(d)) break;
    }
    out.value({{"trace", t.name()}, {"domain", t.domain()}, {"reference", reference_of.at(t.domain())},
               {"path", std::move(steps)}});
  }
  out.end_array();
}

}  // namespace

void write_certificate(const v1::Snapshot& s, int indent, std::ostream& stream, const EventCitation& cite) {
  JsonStream out(stream, indent);
  out.begin_object();
  out.member("format", "tracesync-certificate/1");
  out.member("assumptions", assumptions_json(s.options()));

  std::map<std::string, std::vector<std::string>> traces_of;
  for (const v1::Trace& t : s.traces()) traces_of[t.domain()].push_back(t.name());
  out.key("links");
  out.begin_array();
  for (const v1::Link& l : s.links()) write_link(out, l, traces_of[l.a()], traces_of[l.b()], cite);
  out.end_array();

  out.key("paths");
  write_paths(out, s);
  out.end_object();
  stream << '\n';
}

std::string certificate_json(const v1::Snapshot& s, int indent, const EventCitation& cite) {
  std::ostringstream text;
  write_certificate(s, indent, text, cite);
  return std::move(text).str();
}

}  // namespace tracesync::snapshot
