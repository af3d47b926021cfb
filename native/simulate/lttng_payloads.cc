// SPDX-License-Identifier: EPL-2.0
#include "simulate/lttng_payloads.h"

#include <array>

#include "simulate/lttng_kernel_schema.h"

namespace tracesync::simulate {
namespace {

constexpr uint64_t kEthernetHeaderBytes = 14;
constexpr uint64_t kIpv4HeaderBytes = 20;
constexpr uint64_t kTcpHeaderBytes = 32;  // 20 + the timestamps option Linux sends
constexpr uint64_t kTcpDataOffsetWords = kTcpHeaderBytes / 4;
constexpr uint64_t kIpDontFragment = 0x4000;
constexpr uint64_t kDefaultTtl = 64;

bt_field* member(bt_field* structure, uint64_t index) {
  return bt_field_structure_borrow_member_field_by_index(structure, index);
}

void set_unsigned(bt_field* structure, uint64_t index, uint64_t value) {
  bt_field_integer_unsigned_set_value(member(structure, index), value);
}

void set_signed(bt_field* structure, uint64_t index, int64_t value) {
  bt_field_integer_signed_set_value(member(structure, index), value);
}

// Sets the elements of the integer array member `index` to `values`, in order.
template <typename Values>
void set_elements(bt_field* structure, uint64_t index, const Values& values) {
  bt_field* array = member(structure, index);
  for (uint64_t i = 0; i < values.size(); ++i) {
    bt_field_integer_unsigned_set_value(bt_field_array_borrow_element_field_by_index(array, i), values[i]);
  }
}

// Selects option `option` of the variant member `index` and returns its content.
bt_field* select(bt_field* structure, uint64_t index, uint64_t option) {
  bt_field* variant = member(structure, index);
  bt_field_variant_select_option_by_index(variant, option);
  return bt_field_variant_borrow_selected_option_field(variant);
}

// Stable pseudo-random bits for header values that must not change between
// the two ends of a segment (checksums) or between runs.
uint64_t hash(uint64_t x) {
  x = (x ^ (x >> 33)) * 0xff51afd7ed558ccdULL;
  x = (x ^ (x >> 33)) * 0xc4ceb9fe1a85ec53ULL;
  return x ^ (x >> 33);
}

}  // namespace

void LttngPayloads::fill(bt_field* payload, const KernelEvent& event) const {
  switch (event.kind) {
    case EventKind::kNetDevQueue:
    case EventKind::kNetIfReceiveSkb:
      if (user_space_) {
        fill_app_message(payload, event);
      } else {
        fill_network(payload, event);
      }
      return;
    case EventKind::kSchedSwitch:
      fill_task(payload, sched_switch_member::kPrevComm, sched_switch_member::kPrevTid, sched_switch_member::kPrevPrio,
                event.a);
      set_signed(payload, sched_switch_member::kPrevState, event.value);
      fill_task(payload, sched_switch_member::kNextComm, sched_switch_member::kNextTid, sched_switch_member::kNextPrio,
                event.b);
      return;
    case EventKind::kSchedWaking:
    case EventKind::kSchedWakeup:
      fill_task(payload, sched_wakeup_member::kComm, sched_wakeup_member::kTid, sched_wakeup_member::kPrio, event.a);
      set_signed(payload, sched_wakeup_member::kTargetCpu, event.b);
      return;
    case EventKind::kIrqHandlerEntry: {
      const IrqLine& line = processes_.irqs[event.a];
      set_signed(payload, irq_entry_member::kIrq, line.number);
      bt_field_string_set_value(member(payload, irq_entry_member::kName), line.name.c_str());
      return;
    }
    case EventKind::kIrqHandlerExit:
      set_signed(payload, irq_exit_member::kIrq, processes_.irqs[event.a].number);
      set_signed(payload, irq_exit_member::kRet, event.value);
      return;
    case EventKind::kSoftirqRaise:
    case EventKind::kSoftirqEntry:
    case EventKind::kSoftirqExit:
      set_unsigned(payload, 0, event.a);
      return;
  }
}

void LttngPayloads::fill_task(bt_field* payload, uint64_t comm, uint64_t tid, uint64_t prio, uint32_t task) const {
  const Task& t = processes_.tasks[task];
  bt_field_string_set_value(member(payload, comm), t.comm.c_str());
  set_signed(payload, tid, t.tid);
  set_signed(payload, prio, t.prio);
}

uint64_t LttngPayloads::app_message_id(const Transmission& m) {
  return hash(hash((uint64_t{m.link} << 32) | m.seq) ^ ((uint64_t{m.ack_seq} << 16) | m.tcp_flags));
}

void LttngPayloads::fill_app_message(bt_field* payload, const KernelEvent& event) const {
  const Transmission& m = transmissions_[event.a];
  const SimulatedLink& link = experiment_.links[m.link];
  set_unsigned(payload, app_message_member::kMsgId, app_message_id(m));
  const std::string channel =
      experiment_.hosts[link.hosts.a].name + "-" + experiment_.hosts[link.hosts.b].name;
  bt_field_string_set_value(member(payload, app_message_member::kChannel), channel.c_str());
  set_unsigned(payload, app_message_member::kLen, m.payload_bytes);
}

void LttngPayloads::fill_network(bt_field* payload, const KernelEvent& event) const {
  const Transmission& m = transmissions_[event.a];
  const bool ipv6 = experiment_.links[m.link].ipv6;
  const bool receive = event.kind == EventKind::kNetIfReceiveSkb;
  const uint64_t ip_bytes = (ipv6 ? 40 : kIpv4HeaderBytes) + kTcpHeaderBytes + m.payload_bytes;

  // A kernel direct-map address, 256-byte aligned, different on each host.
  const uint64_t skbaddr = 0xffff888000000000ULL | ((hash(event.a * 2 + (receive ? 1 : 0) + (uint64_t{host_} << 40)) &
                                                     0x3fffffffULL) << 8);
  set_unsigned(payload, net_member::kSkbaddr, skbaddr);
  set_unsigned(payload, net_member::kLen, receive ? ip_bytes : ip_bytes + kEthernetHeaderBytes);
  bt_field_string_set_value(member(payload, net_member::kName), "eth0");
  const uint64_t type = ipv6 ? kNetworkHeaderIpv6 : kNetworkHeaderIpv4;
  set_unsigned(payload, net_member::kNetworkHeaderType, type);
  bt_field* header = select(payload, net_member::kNetworkHeader, type);
  if (ipv6) {
    fill_ipv6(header, m);
  } else {
    fill_ipv4(header, m);
  }
}

void LttngPayloads::fill_ipv4(bt_field* header, const Transmission& m) const {
  using namespace ipv4_member;
  const uint64_t total = kIpv4HeaderBytes + kTcpHeaderBytes + m.payload_bytes;
  set_unsigned(header, kVersion, 4);
  set_unsigned(header, kIhl, kIpv4HeaderBytes / 4);
  set_unsigned(header, kTos, 0);
  set_unsigned(header, kTotLen, total);
  set_unsigned(header, kId, m.ip_id);
  set_unsigned(header, kFragOff, kIpDontFragment);
  set_unsigned(header, kTtl, kDefaultTtl);
  set_unsigned(header, kProtocol, kIpProtocolTcp);
  set_unsigned(header, kChecksum, hash(uint64_t{m.seq} << 16 ^ m.ip_id) & 0xffff);
  set_elements(header, kSaddr, experiment_.hosts[m.sender].ipv4);
  set_elements(header, kDaddr, experiment_.hosts[m.receiver].ipv4);
  set_unsigned(header, kTransportHeaderType, kTransportHeaderTcp);
  fill_tcp(select(header, kTransportHeader, kTransportHeaderTcp), m);
}

void LttngPayloads::fill_ipv6(bt_field* header, const Transmission& m) const {
  using namespace ipv6_member;
  set_unsigned(header, kVersion, 6);
  set_unsigned(header, kPrio, 0);
  const uint64_t flow_label = hash(m.link + 0x51ULL) & 0xfffff;  // one 20-bit flow label per connection
  set_elements(header, kFlowLbl,
               std::array<uint64_t, 3>{(flow_label >> 16) & 0xff, (flow_label >> 8) & 0xff, flow_label & 0xff});
  set_unsigned(header, kPayloadLen, kTcpHeaderBytes + m.payload_bytes);
  set_unsigned(header, kNexthdr, kIpProtocolTcp);
  set_unsigned(header, kHopLimit, kDefaultTtl);
  set_elements(header, kSaddr, experiment_.hosts[m.sender].ipv6);
  set_elements(header, kDaddr, experiment_.hosts[m.receiver].ipv6);
  set_unsigned(header, kTransportHeaderType, kTransportHeaderTcp);
  fill_tcp(select(header, kTransportHeader, kTransportHeaderTcp), m);
}

void LttngPayloads::fill_tcp(bt_field* header, const Transmission& m) const {
  using namespace tcp_member;
  const SimulatedLink& link = experiment_.links[m.link];
  const bool from_client = m.from_client(link);
  // tracesync probe's connection: its own client port, the probe's server port.
  const uint16_t client_port = m.probe ? static_cast<uint16_t>(link.client_port + 1) : link.client_port;
  const uint16_t server_port = m.probe ? kSimulatedProbePort : link.server_port;
  set_unsigned(header, kSourcePort, from_client ? client_port : server_port);
  set_unsigned(header, kDestPort, from_client ? server_port : client_port);
  set_unsigned(header, kSeq, m.seq);
  set_unsigned(header, kAckSeq, m.ack_seq);
  set_unsigned(header, kDataOffset, kTcpDataOffsetWords);
  set_unsigned(header, kReserved, 0);
  set_unsigned(header, kFlags, m.tcp_flags);
  set_unsigned(header, kWindowSize, m.window);
  set_unsigned(header, kChecksum, hash(uint64_t{m.seq} << 32 ^ m.ack_seq ^ m.tcp_flags) & 0xffff);
  set_unsigned(header, kUrgPtr, 0);
}

}  // namespace tracesync::simulate
