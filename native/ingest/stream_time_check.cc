// SPDX-License-Identifier: EPL-2.0
#include "ingest/stream_time_check.h"

namespace tracesync::ingest {

PacketVerdict StreamTimeCheck::begin_packet(uint64_t begin) {
  current_ = Packet{packets_++, begin, begin, begin};
  PacketVerdict verdict = PacketVerdict::kNone;
  if (waiting_) {
    if (may_follow(waiting_->last, begin)) {
      reference_last_ = waiting_->last;
      verdict = PacketVerdict::kUse;
    } else if (!reference_last_) {
      // Nothing before them to tell which of the two is wrong: neither is used.
      Packet blamed = *waiting_;
      damage(blamed, TimeDamage::kLaterPacketBeginsInside, blamed.last, begin);
      damage(current_, TimeDamage::kPacketBeforePrevious, begin, waiting_->last);
      verdict = drop(blamed);
    } else if (may_follow(*reference_last_, begin)) {
      // The two overlap, and this one follows the last good packet: the
      // waiting packet's times ran ahead.
      Packet blamed = *waiting_;
      damage(blamed, TimeDamage::kLaterPacketBeginsInside, blamed.last, begin);
      verdict = drop(blamed);
    } else {
      // This one begins before the waiting packet and before the good one
      // before it: it is the one out of order.
      reference_last_ = waiting_->last;
      verdict = PacketVerdict::kUse;
    }
    waiting_.reset();
  }
  if (current_.damage == TimeDamage::kNone && reference_last_ && !may_follow(*reference_last_, begin)) {
    damage(current_, TimeDamage::kPacketBeforePrevious, begin, *reference_last_);
  }
  return verdict;
}

PacketVerdict StreamTimeCheck::end_packet(uint64_t end) {
  current_.end = end;
  if (current_.damage == TimeDamage::kNone) {
    if (end < current_.begin) {
      damage(current_, TimeDamage::kPacketEndsBeforeBegin, end);
    } else if (current_.last > end) {
      damage(current_, TimeDamage::kEventAfterPacket, current_.last);
    }
  }
  if (current_.damage != TimeDamage::kNone) return drop(current_);
  waiting_ = current_;
  return PacketVerdict::kNone;
}

PacketVerdict StreamTimeCheck::end_stream() {
  if (!waiting_) return PacketVerdict::kNone;
  reference_last_ = waiting_->last;
  waiting_.reset();
  return PacketVerdict::kUse;
}

}  // namespace tracesync::ingest
