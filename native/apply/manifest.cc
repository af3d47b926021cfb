// SPDX-License-Identifier: EPL-2.0
#include "apply/manifest.h"

#include <nlohmann/json.hpp>

#include <map>

#include "model/quad.h"

namespace tracesync::apply {
namespace {

using nlohmann::ordered_json;

ordered_json mapping_json(const ClockMapping& m) {
  return {{"freq", m.freq}, {"offset_s", m.offset_s}, {"offset", m.offset}};
}

ordered_json pieces_json(const PiecewiseTransform& transform) {
  ordered_json pieces = ordered_json::array();
  for (const TransformPiece& p : transform.pieces()) {
    pieces.push_back({{"first_ns", p.first_ns},
                      {"last_ns", p.last_ns},
                      {"slope", model::to_decimal(p.line.slope)},
                      {"offset", model::to_decimal(p.line.offset)},
                      {"uncertainty_first_ns", p.uncertainty_first_ns},
                      {"uncertainty_last_ns", p.uncertainty_last_ns}});
  }
  return pieces;
}

ordered_json entry_json(const ManifestEntry& e) {
  const v1::Trace& t = *e.trace;
  ordered_json j;
  j["name"] = t.name();
  j["input"] = t.path();
  j["output"] = e.output.empty() ? ordered_json(nullptr) : ordered_json(e.output);
  j["hostname"] = t.hostname();
  j["domain"] = t.domain();
  j["island"] = t.island();
  j["reference"] = t.reference();
  j["synchronized"] = !e.output.empty();
  j["span_ns"] = {t.first_ns(), t.last_ns()};
  j["events"] = t.events();
  j["method"] = e.method.empty() ? ordered_json(nullptr) : ordered_json(e.method);
  if (!e.note.empty()) j["note"] = e.note;
  if (e.transform) j["transform"] = pieces_json(*e.transform);
  if (e.clock_only) {
    ordered_json clocks = ordered_json::array();
    for (const ClockChange& c : e.clock_only->clocks) {
      clocks.push_back({{"name", c.name},
                        {"uuid", c.uuid},
                        {"before", mapping_json(c.before)},
                        {"after", mapping_json(c.after)},
                        {"rounding_ns", c.rounding_ns}});
    }
    j["clocks"] = clocks;
    j["metadata"] = e.clock_only->metadata_was_packetized ? "packetized in the input, TSDL text in the copy"
                                                          : "TSDL text";
  }
  if (e.transform && !e.output.empty()) {
    const double synchronization = e.transform->worst_uncertainty_ns();
    const double method = e.method_rounding_ns;
    j["bound_ns"] = {{"synchronization", synchronization}, {"method", method}, {"total", synchronization + method}};
  }
  return j;
}

}  // namespace

std::string manifest_json(const v1::Snapshot& snapshot, const std::vector<ManifestEntry>& entries,
                          const std::string& version, const std::vector<std::string>& command_line) {
  ordered_json j;
  j["format"] = "tracesync-manifest/1";
  j["tracesync_version"] = version;
  j["command_line"] = command_line;
  const v1::EngineOptions& o = snapshot.options();
  j["options"] = {{"algorithm", o.algorithm()},
                  {"clock_model", o.clock_model()},
                  {"network", o.network()},
                  {"match_key", o.match_key()},
                  {"match_horizon_ns", o.match_horizon_ns()},
                  {"window_ns", o.window_ns()},
                  {"confidence", o.confidence()},
                  {"forced_references", std::vector<std::string>(o.forced_references().begin(),
                                                                 o.forced_references().end())},
                  {"domain_overrides", std::map<std::string, std::string>(o.domain_overrides().begin(),
                                                                         o.domain_overrides().end())}};
  j["complete"] = snapshot.complete();
  ordered_json traces = ordered_json::array();
  for (const ManifestEntry& e : entries) traces.push_back(entry_json(e));
  j["traces"] = traces;
  ordered_json skipped = ordered_json::array();
  for (const v1::Problem& p : snapshot.problems()) {
    if (p.source().empty() || p.source().starts_with("--")) continue;
    skipped.push_back({{"input", p.source()}, {"skipped", p.skipped()}, {"reason", p.message()}});
  }
  j["problems"] = skipped;
  return j.dump(2) + "\n";
}

}  // namespace tracesync::apply
