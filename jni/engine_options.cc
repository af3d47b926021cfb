// SPDX-License-Identifier: EPL-2.0
#include "jni/engine_options.h"

#include <unistd.h>

#include <filesystem>

#include "hull/estimator_factory.h"
#include "ingest/reader_choice.h"
#include "jni/java_exceptions.h"
#include "jni/reading_program.h"
#include "network/network.h"
#include "snapshot/tracesync.pb.h"

namespace tracesync::jni {
namespace {

constexpr const char* kNoReadingProgramFound =
    "no tracesync program was found beside libtracesync_jni.so, in ../bin from it, or where it is installed: "
    "traces are read in the JVM, where babeltrace2 aborting on a damaged trace ends the JVM "
    "(Options.readingProgram names the program)";

[[noreturn]] void reject(const std::string& problem) { throw JavaException(JavaError::kIllegalArgument, problem); }

network::NetworkKind parse_network(const std::string& name) {
  for (const auto kind : {network::NetworkKind::kIncremental, network::NetworkKind::kBaseline}) {
    if (name == network::to_string(kind)) return kind;
  }
  reject("the network must be '" + std::string(network::to_string(network::NetworkKind::kIncremental)) + "' or '" +
         std::string(network::to_string(network::NetworkKind::kBaseline)) + "', not '" + name + "'");
}

hull::ClockModel parse_clock_model(const std::string& name) {
  for (const auto model : {hull::ClockModel::kPiecewise, hull::ClockModel::kLinear}) {
    if (name == hull::to_string(model)) return model;
  }
  reject("the clock model must be 'piecewise' or 'linear', not '" + name + "'");
}

}  // namespace

EngineSettings parse_engine_options(std::string_view serialized) {
  v1::EngineOptions options;
  if (serialized.size() > static_cast<std::size_t>(INT32_MAX) ||
      !options.ParseFromArray(serialized.data(), static_cast<int>(serialized.size()))) {
    reject("the engine options are not a serialized tracesync.v1.EngineOptions message");
  }

  // Only what the message sets replaces the defaults of the structs.
  EngineSettings settings;
  hull::EstimatorOptions& estimator = settings.session.estimator;
  if (!options.algorithm().empty()) estimator.algorithm = options.algorithm();
  if (options.window_ns() != 0) estimator.window = options.window_ns();
  if (options.confidence() != 0) estimator.confidence = options.confidence();
  if (!options.network().empty()) settings.session.network = parse_network(options.network());
  if (!options.clock_model().empty()) estimator.clock_model = parse_clock_model(options.clock_model());
  // Unset means the default; 0 takes the clocks to be linear. A negative or
  // non-finite rate is rejected by validate() below.
  if (options.has_clock_stability_ppm()) estimator.clock_stability_ppm = options.clock_stability_ppm();
  settings.session.forced_references.assign(options.forced_references().begin(), options.forced_references().end());

  session::IngestOptions& ingest = settings.ingest;
  if (!options.match_key().empty()) ingest.match_key = options.match_key();
  if (options.match_horizon_ns() != 0) ingest.match_horizon = options.match_horizon_ns();
  ingest.jobs = options.jobs();
  ingest.domain_overrides.insert(options.domain_overrides().begin(), options.domain_overrides().end());
  for (const v1::MessageKind& kind : options.message_kinds()) ingest.messages.push_back(kind.spec());
  ingest.messages_files.assign(options.messages_files().begin(), options.messages_files().end());
  ingest.simultaneous.assign(options.simultaneous().begin(), options.simultaneous().end());
  ingest.simultaneous_files.assign(options.simultaneous_files().begin(), options.simultaneous_files().end());
  for (const uint32_t port : options.probe_ports()) {
    if (port == 0 || port > 65535) reject("a probe port must be 1 to 65535, not " + std::to_string(port));
    ingest.probe_ports.push_back(static_cast<uint16_t>(port));
  }
  // Traces are read in processes of their own whenever a tracesync program
  // is known: babeltrace2 aborting on a damaged trace must not end the JVM.
  if (const std::string& program = options.reading_program(); !program.empty()) {
    if (options.in_process()) reject("a reading program and reading in-process exclude each other");
    std::error_code error;
    if (!std::filesystem::is_regular_file(program, error) || access(program.c_str(), X_OK) != 0) {
      reject("the reading program '" + program + "' is not an executable file (it should be the tracesync command)");
    }
    ingest.reading_command = {program, "read-trace"};
  } else if (options.in_process()) {
    ingest.in_process_reason = "readInProcess() was asked for";
  } else if (const auto beside = reading_program_beside_library()) {
    ingest.reading_command = {*beside, "read-trace"};
  } else {
    // Said in the snapshot, and TraceSync.open warns: reading in the JVM
    // loses the protection against babeltrace2 aborting on damaged traces.
    ingest.in_process_reason = kNoReadingProgramFound;
  }
  ingest.open_timeout = options.open_timeout_ns();
  if (!options.reader().empty()) {
    const auto reader = ingest::parse_reader_choice(options.reader());
    if (!reader) reject("the reader must be 'auto', 'scanner' or 'babeltrace2', not '" + options.reader() + "'");
    ingest.reader = *reader;
  }

  if (const std::string problem = session::Synchronization::validate(settings.session, ingest); !problem.empty()) {
    reject(problem);
  }
  return settings;
}

}  // namespace tracesync::jni
