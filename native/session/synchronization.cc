#include "session/synchronization.h"

#include <filesystem>

namespace tracesync::session {

std::string Synchronization::validate(const SessionOptions& session, const IngestOptions& ingest) {
  if (std::string problem = session::validate(session); !problem.empty()) return problem;
  if (ingest.match_key != "tc" && ingest.match_key != "strict") {
    return "the match key must be 'tc' or 'strict', not '" + ingest.match_key + "'";
  }
  if (ingest.match_horizon <= 0) return "the match horizon must be positive";
  return {};
}

Synchronization::Synchronization(SessionOptions session, IngestOptions ingest)
    : ingest_(std::move(ingest)), session_(std::move(session)) {}

std::string Synchronization::add_trace_path(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return "'" + path + "' does not exist";
  pending_paths_.push_back(path);
  return {};
}

RunOutcome Synchronization::run(const ProgressCallback& progress) {
  RunOutcome outcome;
  // CTF reading arrives with the ingest layer; until then every queued
  // trace is reported as skipped rather than silently ignored.
  for (const std::string& path : pending_paths_) {
    v1::Problem problem;
    problem.set_source(path);
    problem.set_message("reading CTF traces is not part of this build yet");
    problem.set_skipped(true);
    session_.add_problem(problem);
    outcome.skipped.push_back(problem);
  }
  pending_paths_.clear();
  if (progress) outcome.cancelled = !progress(RunProgress{});
  return outcome;
}

}  // namespace tracesync::session
