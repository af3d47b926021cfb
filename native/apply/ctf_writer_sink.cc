// SPDX-License-Identifier: EPL-2.0
#include "apply/ctf_writer_sink.h"

#include <array>
#include <memory>
#include <new>
#include <optional>
#include <set>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "apply/clock_retimer.h"
#include "apply/ctf_stream_file.h"
#include "apply/trace_files.h"
#include "apply/trace_write_plan.h"
#include "apply/tsdl_metadata.h"

namespace tracesync::apply {
namespace {

namespace fs = std::filesystem;

constexpr const char* kBeforeOrigin = "a time maps before its clock's origin (cycle values cannot be negative)";

// One stream being copied: its file, and its clock's retimer (each stream
// keeps its own place in the transform).
struct StreamCopy {
  std::unique_ptr<CtfStreamFile> file;
  std::optional<ClockRetimer> retimer;
};

class Writer {
 public:
  explicit Writer(CtfWriterSettings* settings) : settings_(settings) {}

  std::vector<bt::MessageIteratorRef> upstream;  // null once ended

  // Each returns false with settings_->error set.
  bool take(const bt_message* m) {
    switch (bt_message_get_type(m)) {
      case BT_MESSAGE_TYPE_EVENT: {
        const bt_event* event = bt_message_event_borrow_event_const(m);
        StreamCopy& copy = stream(bt_event_borrow_stream_const(event));
        uint64_t cycles = 0;
        if (copy.retimer && !retimed(copy, bt_message_event_borrow_default_clock_snapshot_const(m), &cycles)) return false;
        if (!copy.file->write_event(event, cycles)) {
          return fail("an event of class '" +
                      std::string(bt_event_class_get_name(bt_event_borrow_class_const(event))) +
                      "' that the metadata did not have");
        }
        return true;
      }
      case BT_MESSAGE_TYPE_PACKET_BEGINNING: {
        const bt_packet* packet = bt_message_packet_beginning_borrow_packet_const(m);
        const bt_stream* s = bt_packet_borrow_stream_const(packet);
        StreamCopy& copy = stream(s);
        uint64_t cycles = 0;
        if (bt_stream_class_packets_have_beginning_default_clock_snapshot(bt_stream_borrow_class_const(s)) &&
            !retimed(copy, bt_message_packet_beginning_borrow_default_clock_snapshot_const(m), &cycles)) {
          return false;
        }
        copy.file->begin_packet(packet, cycles);
        return true;
      }
      case BT_MESSAGE_TYPE_PACKET_END: {
        const bt_stream* s = bt_packet_borrow_stream_const(bt_message_packet_end_borrow_packet_const(m));
        StreamCopy& copy = stream(s);
        uint64_t cycles = 0;
        if (bt_stream_class_packets_have_end_default_clock_snapshot(bt_stream_borrow_class_const(s)) &&
            !retimed(copy, bt_message_packet_end_borrow_default_clock_snapshot_const(m), &cycles)) {
          return false;
        }
        return succeeded(copy.file->end_packet(cycles));
      }
      case BT_MESSAGE_TYPE_STREAM_BEGINNING:
        return begin_stream(bt_message_stream_beginning_borrow_stream_const(m));
      case BT_MESSAGE_TYPE_STREAM_END: {
        StreamCopy& copy = stream(bt_message_stream_end_borrow_stream_const(m));
        if (copy.file->in_packet()) return fail("a stream ended inside a packet");
        return succeeded(copy.file->close());
      }
      case BT_MESSAGE_TYPE_DISCARDED_EVENTS: {
        uint64_t count = 1;
        bt_message_discarded_events_get_count(m, &count);
        stream(bt_message_discarded_events_borrow_stream_const(m)).file->count_discarded_events(count);
        return true;
      }
      case BT_MESSAGE_TYPE_DISCARDED_PACKETS: {
        uint64_t count = 1;
        bt_message_discarded_packets_get_count(m, &count);
        stream(bt_message_discarded_packets_borrow_stream_const(m)).file->count_discarded_packets(count);
        return true;
      }
      default:  // inactivity
        return true;
    }
  }

  // Every stream ended: the copy is whole.
  bool finish() {
    if (!started_) return fail("babeltrace2 found no stream in it");
    for (auto& [s, copy] : streams_) {
      if (!succeeded(copy.file->close())) return false;
    }
    return true;
  }

  bool fail(const std::string& why) {
    if (settings_->error.empty()) settings_->error = why;
    return false;
  }

 private:
  bool succeeded(const std::string& error) { return error.empty() || fail(error); }

  // The trace's first message: plan everything and write the metadata,
  // or refuse before anything is written.
  bool start(const bt_trace* trace) {
    started_ = true;
    std::string unsupported;
    const std::optional<std::string> metadata = tsdl_metadata(trace, &unsupported);
    plan_ = std::make_unique<TraceWritePlan>(bt_trace_borrow_class_const(trace));
    if (unsupported.empty()) unsupported = plan_->unsupported();
    if (!metadata || !unsupported.empty()) {
      return fail("tracesync's CTF writer does not support " + unsupported);
    }
    if (const uint8_t* uuid = bt_trace_get_uuid(trace)) {
      std::copy(uuid, uuid + 16, uuid_.begin());
      has_uuid_ = true;
    }
    std::error_code error;
    if (!fs::create_directories(settings_->output, error) && error) {
      return fail("cannot create " + settings_->output.string() + ": " + error.message());
    }
    return succeeded(write_file(settings_->output / "metadata", *metadata));
  }

  bool begin_stream(const bt_stream* s) {
    if (!started_ && !start(bt_stream_borrow_trace_const(s))) return false;
    const StreamWritePlan* plan = plan_->stream(bt_stream_borrow_class_const(s));
    if (plan == nullptr) return fail("a stream of a class the metadata did not have");
    StreamCopy& copy = streams_[s];
    copy.file = std::make_unique<CtfStreamFile>(settings_->output / file_name(s), s, *plan, plan_->fields(),
                                                has_uuid_ ? uuid_.data() : nullptr);
    if (const bt_clock_class* clock = bt_stream_class_borrow_default_clock_class_const(bt_stream_borrow_class_const(s))) {
      ClockOrigin origin{bt_clock_class_get_frequency(clock), 0, 0};
      bt_clock_class_get_offset(clock, &origin.offset_s, &origin.offset_cycles);
      copy.retimer.emplace(origin, *settings_->transform);
    }
    return succeeded(copy.file->open());
  }

  // The source's file name (src.ctf.fs names a stream by its file's path),
  // made unique; a numbered name when there is none.
  std::string file_name(const bt_stream* s) {
    const char* name = bt_stream_get_name(s);
    std::string base = name != nullptr ? fs::path(name).filename().string() : "";
    if (base.empty() || base == "metadata" || base == "index" || base == "." || base == "..") {
      base = "stream_" + std::to_string(bt_stream_class_get_id(bt_stream_borrow_class_const(s))) + "_" +
             std::to_string(bt_stream_get_id(s));
    }
    std::string unique = base;
    for (int n = 1; !file_names_.insert(unique).second; ++n) unique = base + "_" + std::to_string(n);
    return unique;
  }

  // Messages come in runs of one stream: the last one is kept at hand.
  StreamCopy& stream(const bt_stream* s) {
    if (s != last_stream_) {
      const auto it = streams_.find(s);
      if (it == streams_.end()) throw std::runtime_error("a message of a stream that had not begun");
      last_ = &it->second;
      last_stream_ = s;
    }
    return *last_;
  }

  bool retimed(StreamCopy& copy, const bt_clock_snapshot* snapshot, uint64_t* cycles) {
    return copy.retimer->map(bt_clock_snapshot_get_value(snapshot), cycles) || fail(kBeforeOrigin);
  }

  CtfWriterSettings* settings_;
  bool started_ = false;
  std::unique_ptr<TraceWritePlan> plan_;
  std::array<uint8_t, 16> uuid_{};
  bool has_uuid_ = false;
  std::unordered_map<const bt_stream*, StreamCopy> streams_;
  std::set<std::string> file_names_;
  const bt_stream* last_stream_ = nullptr;
  StreamCopy* last_ = nullptr;
};

Writer& writer_of(bt_self_component_sink* self) {
  return *static_cast<Writer*>(bt_self_component_get_data(bt_self_component_sink_as_self_component(self)));
}

bt_component_class_initialize_method_status sink_initialize(bt_self_component_sink* self,
                                                            bt_self_component_sink_configuration*, const bt_value*,
                                                            void* data) {
  auto* settings = static_cast<CtfWriterSettings*>(data);
  auto* writer = new (std::nothrow) Writer(settings);
  if (writer == nullptr) return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
  bt_self_component_set_data(bt_self_component_sink_as_self_component(self), writer);
  for (uint64_t i = 0; i < settings->inputs; ++i) {
    if (bt_self_component_sink_add_input_port(self, ("in" + std::to_string(i)).c_str(), nullptr, nullptr) !=
        BT_SELF_COMPONENT_ADD_PORT_STATUS_OK) {
      return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
    }
  }
  return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

void sink_finalize(bt_self_component_sink* self) {
  delete static_cast<Writer*>(bt_self_component_get_data(bt_self_component_sink_as_self_component(self)));
}

bt_component_class_sink_graph_is_configured_method_status sink_configured(bt_self_component_sink* self) {
  Writer& writer = writer_of(self);
  const uint64_t ports = bt_component_sink_get_input_port_count(
      bt_self_component_sink_as_component_sink(self));
  for (uint64_t i = 0; i < ports; ++i) {
    bt_message_iterator* iterator = nullptr;
    if (bt_message_iterator_create_from_sink_component(self, bt_self_component_sink_borrow_input_port_by_index(self, i),
                                                       &iterator) !=
        BT_MESSAGE_ITERATOR_CREATE_FROM_SINK_COMPONENT_STATUS_OK) {
      return BT_COMPONENT_CLASS_SINK_GRAPH_IS_CONFIGURED_METHOD_STATUS_ERROR;
    }
    writer.upstream.emplace_back(iterator);
  }
  return BT_COMPONENT_CLASS_SINK_GRAPH_IS_CONFIGURED_METHOD_STATUS_OK;
}

// Streams are independent in a CTF trace and each goes to its own file:
// take each port's messages in turn, each stream in its own order.
bt_component_class_sink_consume_method_status consume(Writer& writer) {
  bool any = false;
  for (bt::MessageIteratorRef& upstream : writer.upstream) {
    if (!upstream) continue;
    any = true;
    bt_message_array_const batch = nullptr;
    uint64_t n = 0;
    switch (bt_message_iterator_next(upstream.get(), &batch, &n)) {
      case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK:
        break;
      case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
        upstream.reset();
        continue;
      case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
        continue;
      case BT_MESSAGE_ITERATOR_NEXT_STATUS_MEMORY_ERROR:
        return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_MEMORY_ERROR;
      default:
        return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_ERROR;
    }
    bool ok = true;
    for (uint64_t i = 0; i < n; ++i) {
      if (ok) ok = writer.take(batch[i]);
      bt_message_put_ref(batch[i]);
    }
    if (!ok) return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_ERROR;
  }
  if (any) return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_OK;
  return writer.finish() ? BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_END
                         : BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_ERROR;
}

bt_component_class_sink_consume_method_status sink_consume(bt_self_component_sink* self) {
  Writer& writer = writer_of(self);
  // Nothing may unwind into babeltrace2's C frames.
  try {
    return consume(writer);
  } catch (const std::bad_alloc&) {
    writer.fail("out of memory");
    return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_MEMORY_ERROR;
  } catch (const std::exception& e) {
    writer.fail(e.what());
    return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_ERROR;
  }
}

}  // namespace

bt::SinkClassRef make_ctf_writer_sink_class() {
  bt::SinkClassRef sink(bt_component_class_sink_create("tracesync-ctf-writer", sink_consume));
  if (!sink) return nullptr;
  bt_component_class_sink_set_initialize_method(sink.get(), sink_initialize);
  bt_component_class_sink_set_finalize_method(sink.get(), sink_finalize);
  bt_component_class_sink_set_graph_is_configured_method(sink.get(), sink_configured);
  return sink;
}

}  // namespace tracesync::apply
