// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <babeltrace2/babeltrace.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>

#include "apply/packet_buffer.h"
#include "apply/trace_write_plan.h"

namespace tracesync::apply {

// One data stream file of the copy: the packets of one babeltrace2 stream,
// each built whole in memory and written with one system call when it
// ends. Packet boundaries are the source's, so each packet keeps its
// context (cpu_id, ...) and its discarded-event count. Times come in as
// cycle values already retimed.
class CtfStreamFile {
 public:
  // `uuid` is the trace's (null when it has none); `stream_class` its plan.
  CtfStreamFile(std::filesystem::path file, const bt_stream* stream, const StreamWritePlan& stream_class,
                const FieldWritePlan& fields, const uint8_t* uuid);
  ~CtfStreamFile();
  CtfStreamFile(const CtfStreamFile&) = delete;
  CtfStreamFile& operator=(const CtfStreamFile&) = delete;

  // Each returns an error naming the file, empty when done.
  std::string open();
  void begin_packet(const bt_packet* packet, uint64_t begin_cycles);
  // False for an event class the plan does not know.
  bool write_event(const bt_event* event, uint64_t cycles);
  std::string end_packet(uint64_t end_cycles);
  std::string close();

  void count_discarded_events(uint64_t n) { events_discarded_ += n; }
  void count_discarded_packets(uint64_t n) { packet_seq_num_ += n; }
  bool in_packet() const { return in_packet_; }

 private:
  std::filesystem::path file_;
  uint64_t stream_instance_id_;
  const StreamWritePlan& plan_;
  const FieldWritePlan& fields_;
  const uint8_t* uuid_;
  int fd_ = -1;
  PacketBuffer packet_;
  bool in_packet_ = false;
  // Where the fields known at the packet's end are.
  std::size_t timestamp_end_at_ = 0;
  std::size_t content_size_at_ = 0;
  std::size_t events_discarded_at_ = 0;
  uint64_t events_discarded_ = 0;  // since the stream began, as CTF counts them
  uint64_t packet_seq_num_ = 0;
};

}  // namespace tracesync::apply
