// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tracesync::simulate {

// A thread as the scheduler events show it (prio as lttng-modules writes
// it: the kernel priority minus MAX_RT_PRIO, so 20 for a nice-0 task).
struct Task {
  std::string comm;
  int32_t tid = 0;
  int32_t prio = 20;
};

struct IrqLine {
  int32_t number = 0;
  std::string name;
  uint32_t softirq = 0;  // the softirq vector its handler raises
};

// Linux softirq vectors.
enum Softirq : uint32_t { kSoftirqTimer = 1, kSoftirqNetTx = 2, kSoftirqNetRx = 3, kSoftirqBlock = 4, kSoftirqRcu = 9 };

// The threads and interrupt lines of one host: per CPU an idle task
// (swapper/N), a ksoftirqd and a kworker, plus the usual daemons and the
// programs that make the traffic; per CPU a NIC queue interrupt, plus a disk
// controller.
struct HostProcesses {
  std::vector<Task> tasks;
  std::vector<uint32_t> idle_task;  // per CPU
  std::vector<uint32_t> wakeable;   // tasks that get woken up and run
  std::vector<IrqLine> irqs;        // irqs[cpu] is that CPU's NIC queue; the last one is the disk
};

HostProcesses make_host_processes(uint64_t seed, uint32_t host, uint32_t cpus);

}  // namespace tracesync::simulate
