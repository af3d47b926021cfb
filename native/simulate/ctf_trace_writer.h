// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bt/ref.h"
#include "simulate/experiment.h"
#include "simulate/simulation_options.h"
#include "simulate/traffic.h"

namespace tracesync::simulate {

// Called every so many events with the host's count so far; returning false
// stops the host's trace there (it is still closed properly).
using EventProgress = std::function<bool(uint64_t events_written)>;

struct HostTraceResult {
  uint64_t events = 0;
  bool cancelled = false;
};

// Writes hosts' kernel traces as CTF through babeltrace2: for each host an
// in-process graph whose source is our own component class, emitting the
// host's HostTimeline as lttng-modules 2.12 events, connected to the `ctf`
// plugin's `sink.ctf.fs` with `assume-single-trace`, so that the trace lands
// exactly in the directory given.
//
// The trace's metadata carries LTTng's environment (hostname, domain
// "kernel", tracer_name "lttng-modules", 2.12, ...), the host's trace UUID
// and the "monotonic" clock with its boot id; one stream per CPU, named
// channel0_<cpu> as LTTng names them, in packets with a cpu_id.
class CtfTraceWriter {
 public:
  // Loads the ctf plugin; throws SimulationError when babeltrace2 cannot.
  CtfTraceWriter();

  // Throws SimulationError when babeltrace2 fails, with its causes.
  HostTraceResult write_host(const Experiment& experiment, const std::vector<Transmission>& transmissions,
                             const SimulationOptions& options, uint32_t host, const std::string& directory,
                             const EventProgress& progress);

 private:
  bt::PluginRef ctf_plugin_;
  const bt_component_class_sink* sink_class_ = nullptr;
  bt::IteratorClassRef iterator_class_;
  bt::SourceClassRef source_class_;
};

}  // namespace tracesync::simulate
