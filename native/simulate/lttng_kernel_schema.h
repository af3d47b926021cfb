// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <array>
#include <cstdint>

#include "bt/ref.h"
#include "simulate/experiment.h"
#include "simulate/kernel_event.h"

namespace tracesync::simulate {

// Member indices of the payloads, in the order lttng-modules 2.12 declares
// the fields (instrumentation/events/lttng-module/{net,sched,irq}.h).
namespace net_member {
enum : uint64_t { kSkbaddr, kLen, kName, kNetworkHeaderType, kNetworkHeader };
}
namespace ipv4_member {
enum : uint64_t {
  kVersion, kIhl, kTos, kTotLen, kId, kFragOff, kTtl, kProtocol, kChecksum, kSaddr, kDaddr,
  kTransportHeaderType, kTransportHeader
};
}
namespace ipv6_member {
enum : uint64_t {
  kVersion, kPrio, kFlowLbl, kPayloadLen, kNexthdr, kHopLimit, kSaddr, kDaddr, kTransportHeaderType,
  kTransportHeader
};
}
namespace tcp_member {
enum : uint64_t {
  kSourcePort, kDestPort, kSeq, kAckSeq, kDataOffset, kReserved, kFlags, kWindowSize, kChecksum, kUrgPtr
};
}
// The application events of a user-space simulation (`--user-space`), and
// their payload.
inline constexpr const char* kAppSendEvent = "tsapp:msg_send";
inline constexpr const char* kAppReceiveEvent = "tsapp:msg_recv";
namespace app_message_member {
enum : uint64_t { kMsgId, kChannel, kLen };
}
namespace sched_switch_member {
enum : uint64_t { kPrevComm, kPrevTid, kPrevPrio, kPrevState, kNextComm, kNextTid, kNextPrio };
}
namespace sched_wakeup_member {
enum : uint64_t { kComm, kTid, kPrio, kTargetCpu };
}
namespace irq_entry_member {
enum : uint64_t { kIrq, kName };
}
namespace irq_exit_member {
enum : uint64_t { kIrq, kRet };
}

// The values of the header enumerations (lttng-modules 2.12 net.h): which
// option of network_header / transport_header a packet has. 2.12 knows TCP
// only; UDP and ICMP options came with 2.13.
enum NetworkHeaderType : uint64_t { kNetworkHeaderUnknown = 0, kNetworkHeaderIpv4 = 1, kNetworkHeaderIpv6 = 2 };
enum TransportHeaderType : uint64_t { kTransportHeaderUnknown = 0, kTransportHeaderTcp = 1 };
inline constexpr uint64_t kIpProtocolTcp = 6;

// The trace IR of an lttng-modules 2.12 kernel trace of one host, built in
// the source component that emits it: one stream class (one stream per CPU,
// packets with begin/end times and a `cpu_id` packet context member), the
// "monotonic" clock class with the host's boot id as UUID and its boot time
// as offset, and the event classes of EventKind.
class LttngKernelSchema {
 public:
  // Throws SimulationError when babeltrace2 refuses a class.
  // `user_space`: the network events are an application's (kAppSendEvent,
  // kAppReceiveEvent) with app_message_member's payload.
  LttngKernelSchema(bt_self_component* component, const SimulatedHost& host, bool plain_receive_name,
                    bool user_space = false);

  bt_trace_class* trace_class() const { return trace_class_.get(); }
  bt_stream_class* stream_class() const { return stream_class_.get(); }
  const bt_event_class* event_class(EventKind kind) const { return event_classes_[static_cast<int>(kind)].get(); }

  // The packet context member index of cpu_id.
  static constexpr uint64_t kCpuIdMember = 0;

 private:
  void add_event_class(EventKind kind, const char* name, bt::FieldClassRef payload);

  bt::TraceClassRef trace_class_;
  bt::ClockClassRef clock_class_;
  bt::StreamClassRef stream_class_;
  std::array<bt::EventClassRef, kEventKindCount> event_classes_;
};

}  // namespace tracesync::simulate
