#pragma once

#include <babeltrace2/babeltrace.h>

#include <utility>

namespace tracesync::simulate {

// An owned babeltrace2 reference: puts it when it goes out of scope.
template <typename T, void (*Put)(const T*)>
class BtRef {
 public:
  BtRef() = default;
  explicit BtRef(T* owned) : ptr_(owned) {}
  BtRef(const BtRef&) = delete;
  BtRef& operator=(const BtRef&) = delete;
  BtRef(BtRef&& other) noexcept : ptr_(std::exchange(other.ptr_, nullptr)) {}
  BtRef& operator=(BtRef&& other) noexcept {
    if (this != &other) reset(std::exchange(other.ptr_, nullptr));
    return *this;
  }
  ~BtRef() { reset(); }

  T* get() const { return ptr_; }
  explicit operator bool() const { return ptr_ != nullptr; }
  void reset(T* owned = nullptr) {
    if (ptr_ != nullptr) Put(ptr_);
    ptr_ = owned;
  }

 private:
  T* ptr_ = nullptr;
};

using FieldClassRef = BtRef<bt_field_class, bt_field_class_put_ref>;
using RangeSetRef = BtRef<bt_integer_range_set_unsigned, bt_integer_range_set_unsigned_put_ref>;
using TraceClassRef = BtRef<bt_trace_class, bt_trace_class_put_ref>;
using StreamClassRef = BtRef<bt_stream_class, bt_stream_class_put_ref>;
using ClockClassRef = BtRef<bt_clock_class, bt_clock_class_put_ref>;
using EventClassRef = BtRef<bt_event_class, bt_event_class_put_ref>;
using TraceRef = BtRef<bt_trace, bt_trace_put_ref>;
using StreamRef = BtRef<bt_stream, bt_stream_put_ref>;
using PacketRef = BtRef<bt_packet, bt_packet_put_ref>;
using ValueRef = BtRef<bt_value, bt_value_put_ref>;
using GraphRef = BtRef<bt_graph, bt_graph_put_ref>;
using PluginRef = BtRef<const bt_plugin, bt_plugin_put_ref>;
using SourceClassRef = BtRef<bt_component_class_source, bt_component_class_source_put_ref>;
using IteratorClassRef = BtRef<bt_message_iterator_class, bt_message_iterator_class_put_ref>;

}  // namespace tracesync::simulate
