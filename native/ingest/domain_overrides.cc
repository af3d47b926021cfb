// SPDX-License-Identifier: EPL-2.0
#include "ingest/domain_overrides.h"

#include <filesystem>
#include <system_error>

namespace tracesync::ingest {

namespace fs = std::filesystem;

namespace {

fs::path canonical_or_absolute(const std::string& text) {
  std::error_code error;
  fs::path path = fs::weakly_canonical(fs::absolute(text, error), error);
  if (error) return fs::path(text).lexically_normal();
  if (path.filename().empty() && path.has_parent_path()) path = path.parent_path();
  return path;
}

// Whether `ancestor` is `path` or one of the directories above it.
bool contains(const fs::path& ancestor, const fs::path& path) {
  auto a = ancestor.begin();
  auto p = path.begin();
  for (; a != ancestor.end(); ++a, ++p) {
    if (p == path.end() || *a != *p) return false;
  }
  return true;
}

bool selects(const std::string& selector, const TraceSource& trace) {
  if (selector == trace.path || selector == trace.name) return true;
  const fs::path trace_path = canonical_or_absolute(trace.path);
  if (selector == trace_path.filename().string()) return true;
  std::error_code error;
  if (!fs::exists(selector, error)) return false;
  return contains(canonical_or_absolute(selector), trace_path);
}

}  // namespace

std::optional<std::pair<std::string, std::string>> parse_domain_override(std::string_view text) {
  const std::size_t equals = text.rfind('=');
  if (equals == std::string_view::npos || equals == 0 || equals + 1 == text.size()) return std::nullopt;
  return std::pair{std::string(text.substr(0, equals)), std::string(text.substr(equals + 1))};
}

std::vector<Problem> apply_domain_overrides(std::vector<TraceSource>& traces,
                                            const std::map<std::string, std::string>& overrides) {
  std::vector<Problem> problems;
  std::vector<std::optional<std::string>> chosen(traces.size());
  std::vector<std::string> chosen_by(traces.size());
  std::vector<bool> conflicted(traces.size(), false);
  for (const auto& [selector, id] : overrides) {
    bool used = false;
    for (std::size_t i = 0; i < traces.size(); ++i) {
      if (!selects(selector, traces[i])) continue;
      used = true;
      if (chosen[i] && *chosen[i] != id && !conflicted[i]) {
        conflicted[i] = true;
        problems.push_back({traces[i].path, "--domain " + chosen_by[i] + "=" + *chosen[i] + " and --domain " +
                                                selector + "=" + id + " both select this trace"});
      }
      chosen[i] = id;
      chosen_by[i] = selector;
    }
    if (!used) problems.push_back({selector, "--domain " + selector + "=" + id + " selects no trace"});
  }
  for (std::size_t i = 0; i < traces.size(); ++i) {
    traces[i].domain_override = conflicted[i] ? std::nullopt : chosen[i];
  }
  return problems;
}

}  // namespace tracesync::ingest
