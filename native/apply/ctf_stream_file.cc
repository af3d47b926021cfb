// SPDX-License-Identifier: EPL-2.0
#include "apply/ctf_stream_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace tracesync::apply {

CtfStreamFile::CtfStreamFile(std::filesystem::path file, const bt_stream* stream, const StreamWritePlan& stream_class,
                             const FieldWritePlan& fields, const uint8_t* uuid)
    : file_(std::move(file)), stream_instance_id_(bt_stream_get_id(stream)), plan_(stream_class), fields_(fields),
      uuid_(uuid) {}

CtfStreamFile::~CtfStreamFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::string CtfStreamFile::open() {
  fd_ = ::open(file_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd_ < 0) return "cannot create " + file_.string() + ": " + std::strerror(errno);
  return {};
}

void CtfStreamFile::begin_packet(const bt_packet* packet, uint64_t begin_cycles) {
  const StreamLayout& layout = plan_.layout;
  packet_.clear();
  packet_.put(kPacketMagic, 4);
  if (uuid_ != nullptr) packet_.put_bytes(uuid_, 16);
  packet_.put(plan_.id, 8);
  packet_.put(stream_instance_id_, 8);
  if (layout.timestamp_begin) packet_.put(begin_cycles, 8);
  timestamp_end_at_ = packet_.size();
  if (layout.timestamp_end) packet_.put(0, 8);
  content_size_at_ = packet_.size();
  packet_.put(0, 8);  // content_size
  packet_.put(0, 8);  // packet_size
  events_discarded_at_ = packet_.size();
  if (layout.events_discarded) packet_.put(0, 8);
  if (layout.packet_seq_num) packet_.put(packet_seq_num_, 8);
  if (plan_.packet_context != FieldWritePlan::kNone) {
    fields_.write(plan_.packet_context, bt_packet_borrow_context_field_const(packet), packet_);
  }
  in_packet_ = true;
}

bool CtfStreamFile::write_event(const bt_event* event, uint64_t cycles) {
  const uint64_t id = bt_event_class_get_id(bt_event_borrow_class_const(event));
  if (id >= plan_.events.size() || !plan_.events[id].known) return false;
  const EventWritePlan& plan = plan_.events[id];
  packet_.put(id, 4);
  if (plan_.layout.timestamps) packet_.put(cycles, 8);
  if (plan_.common_context != FieldWritePlan::kNone) {
    fields_.write(plan_.common_context, bt_event_borrow_common_context_field_const(event), packet_);
  }
  if (plan.specific_context != FieldWritePlan::kNone) {
    fields_.write(plan.specific_context, bt_event_borrow_specific_context_field_const(event), packet_);
  }
  if (plan.payload != FieldWritePlan::kNone) fields_.write(plan.payload, bt_event_borrow_payload_field_const(event), packet_);
  return true;
}

std::string CtfStreamFile::end_packet(uint64_t end_cycles) {
  in_packet_ = false;
  if (plan_.layout.timestamp_end) packet_.patch(timestamp_end_at_, end_cycles);
  const uint64_t bits = static_cast<uint64_t>(packet_.size()) * 8;
  packet_.patch(content_size_at_, bits);
  packet_.patch(content_size_at_ + 8, bits);  // no padding: packet_size = content_size
  if (plan_.layout.events_discarded) packet_.patch(events_discarded_at_, events_discarded_);
  ++packet_seq_num_;
  const uint8_t* at = packet_.data();
  std::size_t left = packet_.size();
  while (left > 0) {
    const ssize_t n = ::write(fd_, at, left);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return "cannot write " + file_.string() + ": " + std::strerror(errno);
    at += n;
    left -= static_cast<std::size_t>(n);
  }
  return {};
}

std::string CtfStreamFile::close() {
  if (fd_ < 0) return {};
  // Flushed to the disk, so a full disk shows here, with the file's name.
  const bool synced = ::fsync(fd_) == 0;
  const int error = errno;
  const bool closed = ::close(fd_) == 0;
  fd_ = -1;
  if (!synced || !closed) return "cannot write " + file_.string() + ": " + std::strerror(synced ? errno : error);
  return {};
}

}  // namespace tracesync::apply
