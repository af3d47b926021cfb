// SPDX-License-Identifier: EPL-2.0
#include "apply/manifest.h"

#include <nlohmann/json.hpp>

#include <map>

#include "model/quad.h"
#include "snapshot/exact_names.h"
#include "snapshot/json_names.h"

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
  using snapshot::exact_name;
  using snapshot::put_name;
  put_name(j, "name", exact_name(t.name(), t.name_raw()));
  put_name(j, "input", exact_name(t.path(), t.path_raw()));
  if (e.output.empty()) {
    j["output"] = nullptr;
  } else {
    put_name(j, "output", e.output);  // the report name, byte for byte
  }
  put_name(j, "hostname", exact_name(t.hostname(), t.hostname_raw()));
  put_name(j, "domain", exact_name(t.domain(), t.domain_raw()));
  j["island"] = t.island();
  j["reference"] = t.reference();
  j["synchronized"] = !e.output.empty();
  j["span_ns"] = {t.first_ns(), t.last_ns()};
  j["events"] = t.events();
  j["method"] = e.method.empty() ? ordered_json(nullptr) : ordered_json(e.method);
  if (!e.note.empty()) j["note"] = snapshot::readable_json(e.note);
  if (e.transform) j["transform"] = pieces_json(*e.transform);
  if (e.clock_only) {
    ordered_json clocks = ordered_json::array();
    for (const ClockChange& c : e.clock_only->clocks) {
      ordered_json clock;
      snapshot::put_name(clock, "name", c.name);
      clock["uuid"] = snapshot::readable_json(c.uuid);
      clock["before"] = mapping_json(c.before);
      clock["after"] = mapping_json(c.after);
      clock["rounding_ns"] = c.rounding_ns;
      clocks.push_back(std::move(clock));
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
  snapshot::put_names(j, "command_line", command_line);  // trace directories may not be UTF-8
  const v1::EngineOptions& o = snapshot.options();
  ordered_json options = {{"algorithm", o.algorithm()},
                          {"clock_model", o.clock_model()},
                          {"network", o.network()},
                          {"match_key", o.match_key()},
                          {"match_horizon_ns", o.match_horizon_ns()},
                          {"window_ns", o.window_ns()},
                          {"confidence", o.confidence()}};
  snapshot::put_names(options, "forced_references", o.forced_references(), o.forced_references_raw());
  options["domain_overrides"] =
      std::map<std::string, std::string>(o.domain_overrides().begin(), o.domain_overrides().end());
  j["options"] = std::move(options);
  j["complete"] = snapshot.complete();
  ordered_json traces = ordered_json::array();
  for (const ManifestEntry& e : entries) traces.push_back(entry_json(e));
  j["traces"] = traces;
  ordered_json skipped = ordered_json::array();
  for (const v1::Problem& p : snapshot.problems()) {
    if (p.source().empty() || p.source().starts_with("--")) continue;
    ordered_json problem;
    snapshot::put_name(problem, "input", snapshot::exact_name(p.source(), p.source_raw()));
    problem["skipped"] = p.skipped();
    problem["reason"] = snapshot::readable_json(p.message());
    skipped.push_back(std::move(problem));
  }
  j["problems"] = skipped;
  return j.dump(2) + "\n";
}

}  // namespace tracesync::apply
