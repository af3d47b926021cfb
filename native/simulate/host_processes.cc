// SPDX-License-Identifier: EPL-2.0
#include "simulate/host_processes.h"

#include "simulate/random.h"

namespace tracesync::simulate {

HostProcesses make_host_processes(uint64_t seed, uint32_t host, uint32_t cpus) {
  Random random = Random::stream(seed, "processes", host);
  HostProcesses p;
  auto add = [&p](std::string comm, int32_t tid, int32_t prio) {
    p.tasks.push_back({std::move(comm), tid, prio});
    return static_cast<uint32_t>(p.tasks.size() - 1);
  };
  // Per-CPU kernel threads get small tids in boot order, as on a real system.
  int32_t tid = 10;
  for (uint32_t c = 0; c < cpus; ++c) {
    p.idle_task.push_back(add("swapper/" + std::to_string(c), 0, 20));
    p.wakeable.push_back(add("ksoftirqd/" + std::to_string(c), tid++, 20));
    p.wakeable.push_back(add("kworker/" + std::to_string(c) + ":1", tid++, 20));
  }
  p.wakeable.push_back(add("rcu_sched", tid++, 20));
  // User space: pids spread as after some uptime.
  const char* daemons[] = {"systemd", "systemd-journal", "sshd", "lttng-sessiond", "lttng-consumerd", "bash",
                           "scp", "iperf3"};
  for (const char* name : daemons) {
    const auto pid = name == std::string("systemd") ? 1 : static_cast<int32_t>(300 + random.below(30000));
    p.wakeable.push_back(add(name, pid, 20));
  }

  const int32_t first_nic_irq = 24 + static_cast<int32_t>(random.below(8));
  for (uint32_t c = 0; c < cpus; ++c) {
    p.irqs.push_back({first_nic_irq + static_cast<int32_t>(c), "eth0-TxRx-" + std::to_string(c), kSoftirqNetRx});
  }
  p.irqs.push_back({16 + static_cast<int32_t>(random.below(4)), "ahci[0000:00:1f.2]", kSoftirqBlock});
  return p;
}

}  // namespace tracesync::simulate
