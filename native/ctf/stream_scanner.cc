// SPDX-License-Identifier: EPL-2.0
#include "ctf/stream_scanner.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace tracesync::ctf {

namespace {
constexpr uint64_t kPacketMagic = 0xC1FC1FC1;
}  // namespace

StreamScanner::StreamScanner(const ScanPlan& plan, std::string path) : plan_(plan), path_(std::move(path)) {}

StreamScanner::~StreamScanner() {
  if (data_ != nullptr) munmap(const_cast<uint8_t*>(data_), size_);
}

bool StreamScanner::open(std::string& problem) {
  const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    problem = path_ + ": cannot be opened: " + std::strerror(errno);
    return false;
  }
  struct stat status {};
  if (fstat(fd, &status) != 0) {
    problem = path_ + ": cannot be read: " + std::strerror(errno);
    ::close(fd);
    return false;
  }
  size_ = static_cast<uint64_t>(status.st_size);
  if (size_ > 0) {
    void* mapped = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (mapped == MAP_FAILED) {
      problem = path_ + ": cannot be mapped: " + std::strerror(errno);
      ::close(fd);
      size_ = 0;
      return false;
    }
    madvise(mapped, size_, MADV_SEQUENTIAL);
    data_ = static_cast<const uint8_t*>(mapped);
  }
  ::close(fd);
  header_state_.registers.assign(plan_.header_registers(), 0);
  header_captures_.resize(std::max<std::size_t>(plan_.packet_header().captures(), packet_header_slot::kCount));
  context_captures_.resize(packet_context_slot::kCount);
  std::size_t most = 1;
  for (const auto& [id, stream] : plan_.streams()) {
    stream_states_.push_back(ReadState{std::vector<uint64_t>(stream->registers, 0), 0});
    for (const auto& event : stream->by_id) {
      if (event) most = std::max(most, event->plan.captures());
    }
    for (const auto& [event_id, event] : stream->sparse) most = std::max(most, event->plan.captures());
  }
  event_captures_.resize(most);
  return true;
}

bool StreamScanner::fail(std::string& problem, uint64_t bit_offset, const std::string& what) const {
  problem = path_ + ": at byte " + std::to_string(bit_offset / 8) + ": " + what;
  return false;
}

bool StreamScanner::next_packet(EventVisitor& visitor, PacketSummary& summary, std::string& problem) {
  return read_packet(&visitor, summary, problem);
}

bool StreamScanner::next_packet_bounds(PacketSummary& summary, std::string& problem) {
  return read_packet(nullptr, summary, problem);
}

// With no visitor, the packet's header and context only.
bool StreamScanner::read_packet(EventVisitor* visitor, PacketSummary& summary, std::string& problem) {
  summary = PacketSummary{};
  summary.offset = offset_;
  const std::string packet = "packet at byte " + std::to_string(offset_);
  if (offset_ >= size_) {
    // Only an index (seek) can say so: a damaged one.
    return fail(problem, size_ * 8, packet + ": begins past the end of the file (" + std::to_string(size_) + " bytes)");
  }
  const uint64_t begin = offset_ * 8;
  BitCursor cursor{data_, begin, size_ * 8};
  std::string why;

  for (CapturedField& c : header_captures_) c.present = false, c.byte_count = 0;
  if (!plan_.packet_header().run(cursor, header_state_, header_captures_.data(), why)) {
    return fail(problem, cursor.position, packet + ": its header: " + why + " (the file is cut short?)");
  }
  const CapturedField& magic = header_captures_[packet_header_slot::kMagic];
  if (magic.present && magic.value != kPacketMagic) {
    return fail(problem, begin, packet + ": bad magic number " + std::to_string(magic.value) + " (not a CTF packet)");
  }
  // A packet's trace UUID is not compared with the metadata's: babeltrace2
  // 2.0 does not compare them, and reads a trace whose packet (first or
  // later) has its UUID damaged whole; both readers judge alike
  // (ReaderDifferential.ADamagedTraceUuidInAPacketIsReadOnAsBabeltrace2ReadsOn).
  const CapturedField& stream_id = header_captures_[packet_header_slot::kStreamId];
  uint64_t id = stream_id.present ? stream_id.value : 0;
  if (!stream_id.present && plan_.streams().size() == 1) id = plan_.streams().begin()->first;
  const ScanPlan::StreamPlan* stream = plan_.stream(id);
  if (stream == nullptr) return fail(problem, begin, packet + ": stream class " + std::to_string(id) + " is not declared");
  summary.stream = stream;
  if (header_captures_[packet_header_slot::kInstance].present) {
    summary.stream_instance = header_captures_[packet_header_slot::kInstance].value;
  }
  ReadState& state = stream_states_[static_cast<std::size_t>(std::distance(plan_.streams().begin(), plan_.streams().find(id)))];

  for (CapturedField& c : context_captures_) c.present = false;
  if (!stream->packet_context.run(cursor, state, context_captures_.data(), why)) {
    return fail(problem, cursor.position, packet + ": its context: " + why + " (the file is cut short?)");
  }
  const uint64_t left = size_ * 8 - begin;
  const CapturedField& packet_size = context_captures_[packet_context_slot::kPacketSize];
  const CapturedField& content_size = context_captures_[packet_context_slot::kContentSize];
  const uint64_t packet_bits = packet_size.present ? packet_size.value : left;
  const uint64_t content_bits = content_size.present ? content_size.value : packet_bits;
  // Packets begin on a byte: a packet size that is not a whole number of
  // bytes (a damaged one, by a few bits) ends the packet at its last whole
  // byte, as babeltrace2 2.0 reads it. Nothing unchecked comes of it: the
  // content is read up to its own size, and the next packet must still show
  // its magic number, trace UUID and a declared stream class. The last
  // packet's bits past the end of the file fail the stream once its events
  // are read (babeltrace2 fails there too, skipping its padding).
  const uint64_t packet_bytes = packet_bits / 8;
  if (packet_bytes == 0) {
    return fail(problem, begin, packet + ": packet size of " + std::to_string(packet_bits) + " bits (less than a byte)");
  }
  if (content_bits > packet_bits) {
    return fail(problem, begin, packet + ": content size " + std::to_string(content_bits) + " bits exceeds its packet size " +
                                    std::to_string(packet_bits) + " bits");
  }
  if (packet_bytes > left / 8) {
    return fail(problem, begin, packet + ": packet size " + std::to_string(packet_bytes) + " bytes runs past the end of the file (" +
                                    std::to_string(left / 8) + " bytes left: cut short?)");
  }
  if (cursor.position - begin > content_bits) {
    return fail(problem, begin, packet + ": its header and context end past its content size");
  }
  if (context_captures_[packet_context_slot::kBeginTime].present) {
    summary.begin_clock = context_captures_[packet_context_slot::kBeginTime].value;
  }
  if (context_captures_[packet_context_slot::kEndTime].present) {
    summary.end_clock = context_captures_[packet_context_slot::kEndTime].value;
  }
  if (visitor == nullptr) {
    if (packet_bits > left) {
      return fail(problem, size_ * 8, packet + ": packet size " + std::to_string(packet_bits) + " bits runs " +
                                          std::to_string(packet_bits - left) + " bits past the end of the file");
    }
    offset_ += packet_bytes;
    return true;
  }
  if (const CapturedField& discarded = context_captures_[packet_context_slot::kDiscarded]; discarded.present) {
    const uint64_t before = discarded_before_.value_or(0);
    if (discarded.value > before) summary.discarded = discarded.value - before;
    discarded_before_ = discarded.value;
  }

  // Never past the mapping (a content size in a packet size's last bits
  // may reach a few bits beyond its whole bytes).
  cursor.limit = std::min(begin + content_bits, size_ * 8);
  CapturedField header_id;
  uint64_t latest = summary.begin_clock.value_or(0);
  const EventHeaderReader* lttng = stream->fast_header ? &*stream->fast_header : nullptr;
  while (cursor.position < cursor.limit) {
    const uint64_t event_at = cursor.position;
    uint64_t event_id = 0;
    if (lttng == nullptr || !lttng->read(data_, cursor.position, cursor.limit, event_id, state)) {
      header_id.present = false;
      if (!stream->event_header.run(cursor, state, &header_id, why)) {
        return fail(problem, event_at, "event header: " + why);
      }
      event_id = header_id.present ? header_id.value : 0;
    }
    const ScanPlan::EventPlan* event = stream->event(event_id);
    if (event == nullptr) {
      return fail(problem, event_at, "event of id " + std::to_string(event_id) + ": no such event class in stream class " +
                                         std::to_string(id));
    }
    // The stream's event context, the class's context and payload: one run,
    // or skip steps when no one reads them (one addition for a fixed size).
    if (event->selected || !event->plan.skip(data_, cursor.position, cursor.limit)) {
      if (event->selected) {
        for (std::size_t i = 0; i < event->plan.captures(); ++i) {
          event_captures_[i].present = false;
          event_captures_[i].byte_count = 0;
        }
      }
      if (!event->plan.run(cursor, state, event_captures_.data(), why)) {
        return fail(problem, event_at, "event `" + event->event_class->name + "`: " + why);
      }
    }
    if (cursor.position == event_at) {
      // Nothing read: the next event would be this one again, for ever.
      return fail(problem, event_at, "event `" + event->event_class->name + "` takes no bits: the packet cannot be walked");
    }
    if (state.clock >= latest) {
      latest = state.clock;
    } else if (!summary.step_back) {
      summary.step_back = PacketSummary::StepBack{summary.events, state.clock, latest};
    }
    ++summary.events;
    if (!summary.first_clock) summary.first_clock = state.clock;
    summary.clock_before_last = summary.last_clock;
    summary.last_clock = state.clock;
    if (event->selected) visitor->selected_event(*event, *stream, state.clock, event_captures_.data());
  }
  if (packet_bits > left) {
    return fail(problem, size_ * 8, packet + ": packet size " + std::to_string(packet_bits) + " bits runs " +
                                        std::to_string(packet_bits - left) + " bits past the end of the file");
  }
  offset_ += packet_bytes;
  return true;
}

}  // namespace tracesync::ctf
