// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <babeltrace2/babeltrace.h>

#include <cstdint>
#include <vector>

#include "simulate/experiment.h"
#include "simulate/host_processes.h"
#include "simulate/kernel_event.h"
#include "simulate/traffic.h"

namespace tracesync::simulate {

// Fills the payload of an event of one host's trace with the values
// lttng-modules 2.12 would record (LttngKernelSchema's layout).
//
// Network events carry the segment's headers as the kernel holds them: the
// send and the receive of one segment have the same IP and TCP headers
// (same checksums) but different socket-buffer addresses; `len` counts the
// Ethernet header on the way out (net_dev_queue) but not on the way in.
class LttngPayloads {
 public:
  LttngPayloads(const Experiment& experiment, const std::vector<Transmission>& transmissions, uint32_t host,
                const HostProcesses& processes, bool user_space = false)
      : experiment_(experiment),
        transmissions_(transmissions),
        host_(host),
        processes_(processes),
        user_space_(user_space) {}

  // The msg_id of a user-space simulation's message: one per TCP segment
  // identity (link, seq, ack_seq, flags), so that a retransmission repeats
  // the id of the segment it sends again, as an application retrying would.
  static uint64_t app_message_id(const Transmission& m);

  void fill(bt_field* payload, const KernelEvent& event) const;

 private:
  void fill_network(bt_field* payload, const KernelEvent& event) const;
  void fill_app_message(bt_field* payload, const KernelEvent& event) const;
  void fill_ipv4(bt_field* header, const Transmission& m) const;
  void fill_ipv6(bt_field* header, const Transmission& m) const;
  void fill_tcp(bt_field* header, const Transmission& m) const;
  void fill_task(bt_field* payload, uint64_t comm, uint64_t tid, uint64_t prio, uint32_t task) const;

  const Experiment& experiment_;
  const std::vector<Transmission>& transmissions_;
  uint32_t host_;
  const HostProcesses& processes_;
  bool user_space_ = false;
};

}  // namespace tracesync::simulate
