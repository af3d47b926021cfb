// SPDX-License-Identifier: EPL-2.0
#include "cli/bench_accuracy.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "cli/exit_codes.h"
#include "simulate/simulate.h"
#include "simulate/truth_check.h"

extern char** environ;

namespace tracesync::cli {
namespace {

namespace fs = std::filesystem;

// One way of synchronizing: the extra arguments of `tracesync sync`.
struct Variant {
  std::string name;
  std::vector<std::string> arguments;
  // A sync without --clock-model (before the piecewise model) has only the
  // linear model: its plain run is that variant.
  bool plain_if_unknown = false;
};

const std::vector<Variant> kVariants = {
    {"piecewise", {"--clock-model", "piecewise"}, false},
    {"linear", {"--clock-model", "linear"}, true},
    {"linreg", {"--algorithm", "linreg"}, false},
};

struct Cell {
  bool available = false;   // false: the sync command does not know the variant
  bool plain = false;       // run without its option, which this sync does not know
  std::string problem;      // the sync run failed otherwise
  simulate::TruthVerdict verdict;
  double seconds = 0;
};

struct Row {
  simulate::ClockModel model{};
  double duration_s = 0;
  double rate = 0;
  uint64_t matches = 0;
  std::vector<Cell> cells;
};

// A directory of its own under the system's temporary directory, removed on exit.
class ScratchDirectory {
 public:
  ScratchDirectory() {
    std::string pattern = (fs::temp_directory_path() / "tracesync-bench-accuracy-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot create a temporary directory");
    path_ = pattern;
  }
  ~ScratchDirectory() {
    std::error_code error;
    fs::remove_all(path_, error);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Runs this executable with `arguments`, stdout and stderr to files; the exit code, or -1.
int run_self(const std::vector<std::string>& arguments, const fs::path& out, const fs::path& err) {
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error) return -1;
  std::vector<std::string> all{self.string()};
  all.insert(all.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, self.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return -1;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Cell synchronize(const fs::path& dir, const Variant& variant, const simulate::Truth& truth, bool plain = false) {
  Cell cell;
  cell.plain = plain;
  std::vector<std::string> arguments{"sync", "--format", "json", "--matches", (dir / "matches.txt").string()};
  if (!plain) arguments.insert(arguments.end(), variant.arguments.begin(), variant.arguments.end());
  const fs::path out = dir / ("report-" + variant.name + ".json");
  const fs::path err = dir / ("report-" + variant.name + ".err");
  const auto begin = std::chrono::steady_clock::now();
  const int code = run_self(arguments, out, err);
  cell.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  const std::string diagnostics = read_text(err);
  if (code == kBadInput && diagnostics.find(variant.arguments.front()) != std::string::npos &&
      read_text(out).empty()) {
    // An option this build's sync does not know.
    return variant.plain_if_unknown && !plain ? synchronize(dir, variant, truth, true) : cell;
  }
  cell.available = true;
  if (code != kSuccess) {
    cell.problem = "sync exited with " + std::to_string(code) + ": " + diagnostics.substr(0, diagnostics.find('\n'));
    return cell;
  }
  try {
    cell.verdict = simulate::check_against_truth(simulate::read_report(out.string()), truth);
  } catch (const simulate::TruthError& e) {
    cell.problem = e.what();
  }
  return cell;
}

Row measure(const AccuracyBenchOptions& o, simulate::ClockModel model, double duration_s) {
  ScratchDirectory scratch;
  simulate::SimulationOptions s;
  s.output_dir = (scratch.path() / "experiment").string();
  s.hosts = o.hosts;
  s.topology = o.topology;
  s.duration_s = duration_s;
  s.seed = o.seed;
  s.clock_model = model;
  s.write_traces = false;
  s.write_matches = true;
  s.filler_ratio = 0;
  s.message_rate = std::min(o.max_rate, static_cast<double>(o.messages_per_link) / duration_s);
  Row row{model, duration_s, s.message_rate, 0, {}};
  const simulate::SimulationSummary summary = simulate::run(s);
  row.matches = summary.matches;
  const simulate::Truth truth = simulate::read_truth(summary.truth_path);
  for (const auto& variant : kVariants) row.cells.push_back(synchronize(s.output_dir, variant, truth));
  return row;
}

std::string duration_text(double s) {
  std::ostringstream out;
  if (s >= 3600 && std::fmod(s, 3600) == 0) {
    out << s / 3600 << " h";
  } else if (s >= 60 && std::fmod(s, 60) == 0) {
    out << s / 60 << " min";
  } else {
    out << s << " s";
  }
  return out.str();
}

// "12.3 us" for people.
std::string ns_text(double ns) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(1);
  if (ns >= 1e6) {
    out << ns / 1e6 << " ms";
  } else if (ns >= 1e3) {
    out << ns / 1e3 << " us";
  } else {
    out << ns << " ns";
  }
  return out.str();
}

void print_text(const std::vector<Row>& rows) {
  std::cout << std::left << std::setw(10) << "model" << std::setw(9) << "duration" << std::right << std::setw(9)
            << "matches";
  for (const auto& v : kVariants) std::cout << "  | " << std::left << std::setw(30) << (v.name + ": error / bound / viol.");
  std::cout << "\n";
  for (const Row& row : rows) {
    std::cout << std::left << std::setw(10) << simulate::to_string(row.model) << std::setw(9)
              << duration_text(row.duration_s) << std::right << std::setw(9) << row.matches;
    for (const Cell& c : row.cells) {
      std::string text;
      if (!c.available) {
        text = "n/a";
      } else if (!c.problem.empty()) {
        text = "failed";
      } else {
        text = ns_text(c.verdict.worst_error_ns) + " / " + ns_text(c.verdict.largest_bound_ns) + " / " +
               std::to_string(c.verdict.violations) + (c.plain ? " *" : "");
      }
      std::cout << "  | " << std::left << std::setw(30) << text;
    }
    std::cout << "\n";
    for (std::size_t i = 0; i < row.cells.size(); ++i) {
      if (!row.cells[i].problem.empty()) std::cout << "    " << kVariants[i].name << ": " << row.cells[i].problem << "\n";
    }
  }
  std::cout << "error: worst |reported - true| over the traces; bound: largest reported uncertainty; viol.: instants\n"
               "where the truth is outside the bound (tracesync check-truth); n/a: this sync has no such option;\n"
               "*: this sync has no --clock-model, so its plain run, with its only model (linear), is shown\n";
}

void print_json(const std::vector<Row>& rows) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const Row& row : rows) {
    nlohmann::ordered_json r;
    r["model"] = std::string(simulate::to_string(row.model));
    r["duration_s"] = row.duration_s;
    r["rate"] = row.rate;
    r["matches"] = row.matches;
    for (std::size_t i = 0; i < row.cells.size(); ++i) {
      const Cell& c = row.cells[i];
      nlohmann::ordered_json cell;
      cell["available"] = c.available;
      cell["without_option"] = c.plain;
      if (c.available && c.problem.empty()) {
        cell["worst_error_ns"] = c.verdict.worst_error_ns;
        cell["largest_bound_ns"] = c.verdict.largest_bound_ns;
        cell["violations"] = c.verdict.violations;
        cell["sync_seconds"] = c.seconds;
      }
      if (!c.problem.empty()) cell["problem"] = c.problem;
      r[kVariants[i].name] = std::move(cell);
    }
    out.push_back(std::move(r));
  }
  std::cout << out.dump(2) << "\n";
}

}  // namespace

int run_bench_accuracy(const AccuracyBenchOptions& options) {
  std::vector<Row> rows;
  try {
    for (const auto model : options.models) {
      for (const double duration : options.durations_s) {
        std::cerr << "tracesync bench accuracy: " << simulate::to_string(model) << ", " << duration_text(duration)
                  << "\n";
        rows.push_back(measure(options, model, duration));
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "tracesync bench accuracy: " << e.what() << "\n";
    return kInternalError;
  }
  if (options.json) {
    print_json(rows);
  } else {
    print_text(rows);
  }
  return kSuccess;
}

}  // namespace tracesync::cli
