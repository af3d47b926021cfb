// SPDX-License-Identifier: EPL-2.0
// `tracesync apply`: synchronize as `sync` does, then write synchronized
// copies of the traces that every CTF reader shows on the common time base.

#include <boost/program_options.hpp>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <iomanip>
#include <iostream>

#include "apply/apply.h"
#include "apply/staged_output.h"
#include "cli/command.h"
#include "cli/exit_codes.h"
#include "cli/sync_command.h"
#include "snapshot/utf8.h"

namespace tracesync::cli {
namespace {

namespace po = boost::program_options;

struct ApplyArguments {
  std::string output;
  bool force = false;
  bool copy = false;
  bool rewrite = false;
  bool clock_only = false;
};

constexpr const char* kUsage =
    "usage: tracesync apply [options] TRACE_DIR... --output DIR\n\n"
    "Synchronizes the traces exactly as `tracesync sync` does (same options, same report on stdout),\n"
    "then writes a synchronized copy of every trace under DIR, at its report name (DIR/host0/kernel),\n"
    "and DIR/tracesync-manifest.json: what was done to each trace, and why a trace has no copy.\n"
    "A copy changes only the clock in the metadata (freq, offset_s, offset), so babeltrace2, Trace\n"
    "Compass and the trace server show its unchanged events on the common time base; its stream\n"
    "files are hard links to the input's when DIR is on the same file system. Inputs are never\n"
    "changed, and DIR appears whole or not at all. A trace whose transform has several pieces (or\n"
    "every trace, with --rewrite) is rewritten instead: every timestamp through the transform.\n\n";

// While alive, SIGINT sets a flag that stops the writing between traces
// (stopping babeltrace2 within a full rewrite crashed its teardown); the
// staging directory is then removed and DIR is not created. A second SIGINT
// quits at once, leaving at most the hidden staging directory.
class WritingInterrupt {
 public:
  WritingInterrupt() { previous_ = std::signal(SIGINT, on_interrupt); }
  ~WritingInterrupt() { std::signal(SIGINT, previous_); }
  WritingInterrupt(const WritingInterrupt&) = delete;
  WritingInterrupt& operator=(const WritingInterrupt&) = delete;
  static std::atomic<bool>& flag() {
    static std::atomic<bool> interrupted{false};
    return interrupted;
  }

 private:
  static void on_interrupt(int) {
    static_assert(std::atomic<bool>::is_always_lock_free);
    if (flag().exchange(true)) ::_exit(kInterrupted);
  }
  void (*previous_)(int) = SIG_DFL;
};

int write_copies(const v1::Snapshot& snapshot, int exit_code, const ApplyArguments& a,
                 const std::vector<std::string>& arguments) {
  if (exit_code != kSuccess && exit_code != kTraceSkipped) {
    std::cerr << "tracesync: no copies written: the synchronization above did not succeed\n";
    return exit_code;
  }
  apply::ApplyOptions options;
  options.output = a.output;
  options.force = a.force;
  options.files = a.copy ? apply::FilePolicy::kCopy : apply::FilePolicy::kLinkWhenPossible;
  options.rewrite = a.rewrite;
  options.clock_only = a.clock_only;
  options.version = TRACESYNC_VERSION;
  options.command_line = {"tracesync", "apply"};
  options.command_line.insert(options.command_line.end(), arguments.begin(), arguments.end());
  const WritingInterrupt interrupt;
  const auto start = std::chrono::steady_clock::now();
  const apply::ApplyOutcome outcome = apply::apply_snapshot(snapshot, options, &WritingInterrupt::flag());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!outcome.error.empty()) {
    std::cerr << "tracesync: " << snapshot::readable_text(outcome.error) << "; " << snapshot::readable_text(a.output)
              << " was not written\n";
    if (WritingInterrupt::flag().load()) return kInterrupted;
    return outcome.bad_input ? kBadInput : kInternalError;
  }
  uint32_t written = 0;
  for (const apply::TraceCopy& t : outcome.traces) {
    if (t.written) ++written;
    const std::string name = snapshot::readable_text(t.name);
    const std::string reason = snapshot::readable_text(t.reason);
    if (!t.written) std::cerr << "tracesync: no copy of " << name << ": " << reason << "\n";
    if (t.input_missing) exit_code = worse(static_cast<ExitCode>(exit_code), kTraceSkipped);
    if (t.written && !reason.empty()) std::cerr << "tracesync: " << name << ": " << reason << "\n";
  }
  std::cerr << "tracesync: wrote " << written << " synchronized " << (written == 1 ? "copy" : "copies") << " to "
            << snapshot::readable_text(a.output) << " in " << std::fixed << std::setprecision(3) << seconds << " s ("
            << outcome.files.linked << " files linked, " << outcome.files.copied << " copied, "
            << std::setprecision(1) << static_cast<double>(outcome.files.bytes) / 1e6 << " MB); see "
            << snapshot::readable_text(a.output) << "/" << apply::kManifestName << "\n";
  return exit_code;
}

}  // namespace

int run_apply(const std::vector<std::string>& arguments) {
  ApplyArguments a;
  SyncExtension extension;
  extension.command = "apply";
  extension.usage = kUsage;
  extension.add_options = [&](po::options_description& options) {
    options.add_options()
        ("output,o", po::value(&a.output)->value_name("DIR"), "where to write the copies (required)")
        ("force", po::bool_switch(&a.force), "replace DIR when it is not empty")
        ("copy", po::bool_switch(&a.copy), "copy the stream files even where hard links would do")
        ("rewrite", po::bool_switch(&a.rewrite),
         "rewrite every timestamp (babeltrace2 reads, tracesync writes the CTF copy) for every trace, "
         "not only those whose transform has several pieces")
        ("clock-only", po::bool_switch(&a.clock_only),
         "change only the clock of every trace, one whose transform has several pieces by their best single line "
         "(for traces that cannot be rewritten)");
  };
  extension.check = [&](const std::vector<std::string>& traces) -> std::string {
    if (a.output.empty()) return "give the directory of the copies: --output DIR";
    if (a.rewrite && a.clock_only) return "--rewrite and --clock-only exclude each other";
    return apply::StagedOutput::check(a.output, traces, a.force);
  };
  extension.after_report = [&](const v1::Snapshot& snapshot, int exit_code) {
    return write_copies(snapshot, exit_code, a, arguments);
  };
  return run_sync_command(arguments, &extension);
}

}  // namespace tracesync::cli
