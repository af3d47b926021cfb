// SPDX-License-Identifier: EPL-2.0
#include "ingest/ctf_trace_reader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <new>
#include <system_error>

#include "base/scratch_pool.h"
#include "bt/error.h"
#include "bt/uuid_text.h"
#include "ingest/directory_listing.h"
#include "ingest/packet_locator.h"
#include "ingest/trace_being_read.h"
#include "ingest/traces_being_opened.h"
#include "ingest/trace_discovery.h"

namespace tracesync::ingest {

namespace fs = std::filesystem;

namespace {

// The fastest clock a trace may declare: a thousand ticks a nanosecond
// (real tracers tick once a nanosecond, or slower).
constexpr uint64_t kMaxClockFrequency = 1'000'000'000'000;
}  // namespace

// The sink component class's methods: babeltrace2 calls them with the
// component, whose user data is the reader.
struct SinkMethods {
  static CtfTraceReader& reader_of(bt_self_component_sink* self) {
    return *static_cast<CtfTraceReader*>(bt_self_component_get_data(bt_self_component_sink_as_self_component(self)));
  }
  static bt_component_class_initialize_method_status initialize(bt_self_component_sink* self,
                                                                     bt_self_component_sink_configuration*,
                                                                     const bt_value*, void* reader) {
    bt_self_component_set_data(bt_self_component_sink_as_self_component(self), reader);
    return static_cast<CtfTraceReader*>(reader)->initialize_sink(self);
  }
  static bt_component_class_sink_graph_is_configured_method_status graph_is_configured(bt_self_component_sink* self) {
    return reader_of(self).create_iterators(self);
  }
  static bt_component_class_sink_consume_method_status consume(bt_self_component_sink* self) {
    return reader_of(self).consume();
  }
};

namespace {

// Building and tearing down graphs touches the reference counts of the
// component classes every reader shares; babeltrace2 counts without atomics.
std::mutex& lifecycle_mutex() {
  static std::mutex mutex;
  return mutex;
}

struct SharedClasses {
  bt::PluginRef ctf_plugin;
  const bt_component_class_source* ctf_fs = nullptr;
  const bt_component_class_source* lttng_live = nullptr;  // null when this babeltrace2 has none
  bt::SinkClassRef sink;
  std::string problem;  // why they are missing
};

const SharedClasses& shared_classes() {
  static SharedClasses classes;
  static std::once_flag once;
  std::call_once(once, [] {
    const bt_plugin* plugin = nullptr;
    const auto found = bt_plugin_find("ctf", BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_FALSE, &plugin);
    if (found != BT_PLUGIN_FIND_STATUS_OK || plugin == nullptr) {
      // babeltrace2 skips a plugin it fails to load: when its file is there,
      // memory ran out (or the file is broken), which is not "not installed".
      std::error_code error;
      classes.problem = found == BT_PLUGIN_FIND_STATUS_MEMORY_ERROR ||
                                std::filesystem::exists(TRACESYNC_BT2_CTF_PLUGIN, error)
                            ? bt::take_bt_error(std::string(kOutOfMemory) + ": babeltrace2's `ctf` plugin (" +
                                                TRACESYNC_BT2_CTF_PLUGIN + ") could not be loaded")
                            : bt::take_bt_error("babeltrace2's `ctf` plugin is not installed (package babeltrace2)");
      return;
    }
    classes.ctf_plugin.reset(plugin);
    classes.ctf_fs = bt_plugin_borrow_source_component_class_by_name_const(plugin, "fs");
    if (classes.ctf_fs == nullptr) {
      classes.problem = "babeltrace2's `ctf` plugin has no `fs` source";
      return;
    }
    classes.lttng_live = bt_plugin_borrow_source_component_class_by_name_const(plugin, "lttng-live");
    bt_component_class_sink* sink = bt_component_class_sink_create("tracesync-reader", &SinkMethods::consume);
    if (sink == nullptr) {
      classes.problem = bt::take_bt_error("cannot create a babeltrace2 sink component class");
      return;
    }
    classes.sink.reset(sink);
    if (bt_component_class_sink_set_initialize_method(sink, &SinkMethods::initialize) != BT_COMPONENT_CLASS_SET_METHOD_STATUS_OK ||
        bt_component_class_sink_set_graph_is_configured_method(sink, &SinkMethods::graph_is_configured) !=
            BT_COMPONENT_CLASS_SET_METHOD_STATUS_OK) {
      classes.problem = bt::take_bt_error("cannot set up the babeltrace2 sink component class");
      classes.sink.reset();
    }
  });
  return classes;
}

// {inputs: [path]}, the parameters of src.ctf.fs and of its queries.
bt::ValueRef ctf_fs_parameters(const std::string& path) {
  bt::ValueRef params(bt_value_map_create());
  if (!params) return params;
  bt_value* inputs = nullptr;
  if (bt_value_map_insert_empty_array_entry(params.get(), "inputs", &inputs) != BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK ||
      bt_value_array_append_string_element(inputs, path.c_str()) != BT_VALUE_ARRAY_APPEND_ELEMENT_STATUS_OK) {
    params.reset();
  }
  return params;
}

// {inputs: [url], session-not-found-action: end}: src.ctf.lttng-live's
// parameters. `end`: the source ends once the session is destroyed (its
// default, `continue`, waits for it forever).
bt::ValueRef live_parameters(const std::string& url) {
  bt::ValueRef params = ctf_fs_parameters(url);
  if (params && bt_value_map_insert_string_entry(params.get(), "session-not-found-action", "end") !=
                    BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK) {
    params.reset();
  }
  return params;
}

std::optional<int64_t> integer_value(const bt_value* value) {
  if (value == nullptr) return std::nullopt;
  if (bt_value_get_type(value) == BT_VALUE_TYPE_SIGNED_INTEGER) return bt_value_integer_signed_get(value);
  if (bt_value_get_type(value) == BT_VALUE_TYPE_UNSIGNED_INTEGER) {
    return static_cast<int64_t>(bt_value_integer_unsigned_get(value));
  }
  return std::nullopt;
}

// Why babeltrace2 may have refused the metadata, in the words of a user.
std::string metadata_diagnosis(const fs::path& metadata) {
  std::ifstream in(metadata, std::ios::binary);
  if (!in) return "its `metadata` file cannot be opened";
  unsigned char head[8] = {};
  in.read(reinterpret_cast<char*>(head), sizeof head);
  const std::streamsize got = in.gcount();
  if (got == 0) return "its `metadata` file is empty";
  const bool packetized = got >= 4 && ((head[0] == 0x57 && head[1] == 0x1d && head[2] == 0xd1 && head[3] == 0x75) ||
                                       (head[0] == 0x75 && head[1] == 0xd1 && head[2] == 0x1d && head[3] == 0x57));
  if (packetized) return "its packetized `metadata` could not be decoded";
  if (got >= 6 && std::string_view(reinterpret_cast<const char*>(head), 6) == "/* CTF") {
    return "its `metadata` text could not be parsed";
  }
  return "its `metadata` file is not CTF metadata (neither packetized nor text starting with `/* CTF`)";
}

// babeltrace2's root cause when src.ctf.fs refuses a trace, made plainer.
std::string opening_problem(std::string cause, const std::string& trace) {
  if (cause.rfind("Cannot create trace for", 0) == 0) return metadata_diagnosis(fs::path(trace) / "metadata");
  if (cause.rfind("Failed to index CTF stream file", 0) == 0) {
    return cause + " (the file is truncated or corrupt: its packets do not parse)";
  }
  return cause;
}

// A stream's name in a live session's cut and gaps (StreamGap::stream):
// its id, with its class's (its channel's) above bit 32: the live source
// numbers streams by the tracer's instance ids, which may repeat from one
// channel to the next.
uint64_t stream_key(const bt_stream* stream) {
  return bt_stream_class_get_id(bt_stream_borrow_class_const(stream)) << 32 | (bt_stream_get_id(stream) & 0xffff'ffffu);
}

}  // namespace

CtfTraceReader::CtfTraceReader(TraceSource source, match::TraceIndex index, ReaderOptions options, EventSink& sink)
    : source_(std::move(source)), index_(index), options_(options), sink_(sink) {
  info_.path = source_.path;
  info_.name = source_.name;
  info_.app_census.assign(options_.selection.kinds().size(), AppEventTally{});
  std::tie(info_.domain_id, info_.domain_source) = choose_domain(source_, std::nullopt, "");
  tracks_live_ = options_.input == CtfInput::kLive;
}

void CtfTraceReader::resume_live_after(LiveCut given) {
  tracks_live_ = true;
  live_cut_ = given;
  resumed_cut_ = std::move(given);
}

CtfTraceReader::~CtfTraceReader() { close_graph(); }

void CtfTraceReader::close_graph() {
  if (!graph_ && cursors_.empty()) return;
  const std::lock_guard lock(lifecycle_mutex());
  cursors_.clear();
  graph_.reset();
}

void CtfTraceReader::fail(std::string problem) {
  problem_ = std::move(problem);
  state_ = State::kFailed;
  // What was read before the failure stands, as it did before time checks:
  // the events a packet still holds are used unless its times were already
  // seen to be damaged.
  for (StreamCursor& cursor : cursors_) {
    const std::size_t kept =
        cursor.time_check.holds_undamaged() ? cursor.pending.size() : std::min(cursor.trusted.value_or(0), cursor.pending.size());
    batch_.insert(batch_.end(), cursor.pending.begin(), cursor.pending.begin() + static_cast<std::ptrdiff_t>(kept));
    cursor.pending.clear();
  }
  update_progress();
  flush();
  held_.clear();  // read ahead of a stream that will never catch up
  close_graph();
  sink_.trace_closed(index_);
}

namespace {

// The batch buffers readers borrow for a step: as many as steps run at once
// (one per reading thread), not one per trace.
constinit base::ScratchPool<std::vector<match::PacketEvent>> batch_buffers;

// Lends a reader a batch buffer for one step. A step ends with its batch
// handed to the sink, or abandoned with its trace.
class BorrowedBatch {
 public:
  explicit BorrowedBatch(std::vector<match::PacketEvent>& batch) : batch_(batch), lent_(batch_buffers.borrow()) {
    batch_.swap(*lent_);
  }
  ~BorrowedBatch() {
    batch_.clear();
    batch_.swap(*lent_);
  }
  BorrowedBatch(const BorrowedBatch&) = delete;
  BorrowedBatch& operator=(const BorrowedBatch&) = delete;

 private:
  std::vector<match::PacketEvent>& batch_;
  const base::ScratchPool<std::vector<match::PacketEvent>>::Lease lent_;
};

}  // namespace

CtfTraceReader::State CtfTraceReader::step(std::size_t rounds) {
  const ReadingTrace marked(source_.path.c_str());
  // Nothing here may throw: an exception leaving a worker thread ends the
  // process. Out of memory, making a problem's words may fail too: problem()
  // then answers kOutOfMemoryProblem.
  try {
    const BorrowedBatch borrowed(batch_);
    return read_some(rounds);
  } catch (const std::bad_alloc&) {
    out_of_memory_ = true;
    problem_.clear();
  } catch (const std::exception& e) {
    if (!compose_problem(problem_, "internal error while reading: ", e.what())) out_of_memory_ = true;
  } catch (...) {
    if (!compose_problem(problem_, "internal error while reading", "")) out_of_memory_ = true;
  }
  abandon();
  return state_;
}

// Ends the trace after an exception (the sink threw, or memory ran out),
// problem_ said: like fail(), without trusting the sink to take more.
void CtfTraceReader::abandon() noexcept {
  state_ = State::kFailed;
  bt_current_thread_clear_error();
  close_graph();
  try {
    sink_.trace_closed(index_);
  } catch (...) {  // nothing more can be done for this trace
  }
}

// The problem of a trace whose reading ran out of memory, with babeltrace2's
// words when they say more. Marks the trace as not at fault.
std::string CtfTraceReader::memory_ran_out(const std::string& cause) {
  out_of_memory_ = true;
  std::string problem = kOutOfMemory;
  if (info_.events > 0) problem += " (after " + std::to_string(info_.events) + " events)";
  if (!cause.empty() && cause != kOutOfMemory) problem += ": " + cause;
  return problem;
}

CtfTraceReader::State CtfTraceReader::read_some(std::size_t rounds) {
  if (state_ == State::kNew) {
    if (!open()) return state_;
    state_ = State::kReading;
  }
  if (state_ != State::kReading) return state_;
  model::Nanoseconds began = progress_;  // INT64_MIN: no timestamp yet
  stalled_ = false;
  for (std::size_t round = 0; round < rounds; ++round) {
    model::Nanoseconds span = 0;
    if (began == INT64_MIN) {
      began = progress_;
    } else if (!__builtin_sub_overflow(progress_, began, &span) && span > options_.step_span) {
      break;  // far enough for one step (ReaderOptions::step_span)
    }
    const bt_graph_run_once_status status = bt_graph_run_once(graph_.get());
    if (status == BT_GRAPH_RUN_ONCE_STATUS_OK) continue;
    if (status == BT_GRAPH_RUN_ONCE_STATUS_AGAIN) {
      stalled_ = true;  // nothing new yet: the caller steps again later
      break;
    }
    if (status == BT_GRAPH_RUN_ONCE_STATUS_END) {
      bytes_read_.store(info_.bytes, std::memory_order_relaxed);
      if (!announced_) {
        fail(options_.input == CtfInput::kLive
                 ? "the relay does not have this session, or it ended before any of its streams began"
                 : "holds no stream file (nothing but metadata)");
        return state_;
      }
      state_ = State::kDone;
      flush_up_to(INT64_MAX);
      close_graph();
      sink_.trace_closed(index_);
      return state_;
    }
    std::string problem = bt::take_bt_error("unknown error");
    if (!own_problem_.empty()) problem = own_problem_;
    if (out_of_memory_) {
      fail(memory_ran_out(""));  // in our sink: babeltrace2's words only say the sink failed
    } else if (status == BT_GRAPH_RUN_ONCE_STATUS_MEMORY_ERROR || says_out_of_memory(problem)) {
      fail(memory_ran_out(problem));
    } else {
      fail("reading stopped after " + std::to_string(info_.events) + " events: " + problem);
    }
    return state_;
  }
  flush();
  return state_;
}

bool CtfTraceReader::open() {
  const SharedClasses& classes = shared_classes();
  if (!classes.problem.empty()) {
    if (says_out_of_memory(classes.problem)) out_of_memory_ = true;
    fail(classes.problem);
    return false;
  }
  const bool live = options_.input == CtfInput::kLive;
  if (live && classes.lttng_live == nullptr) {
    fail("babeltrace2's `ctf` plugin has no `lttng-live` source: it cannot follow live sessions");
    return false;
  }
  if (!live && !precheck()) return false;
  std::string problem;
  {
    const std::lock_guard lock(lifecycle_mutex());
    const OpeningTrace opening(source_.path);
    if (!live && options_.stream_ranges) problem = query_ranges();
    if (problem.empty()) problem = build_graph();
  }
  if (problem.empty()) return true;
  fail(std::move(problem));
  return false;
}

bool CtfTraceReader::precheck() {
  std::error_code error;
  const fs::path directory(source_.path);
  if (!fs::exists(directory, error)) {
    fail("does not exist");
    return false;
  }
  if (!fs::is_directory(directory, error)) {
    fail("is not a directory");
    return false;
  }
  const fs::file_status metadata = fs::status(directory / "metadata", error);
  if (!fs::is_regular_file(metadata)) {
    // As trace discovery says it: a directory or a link loop is no metadata.
    if (metadata.type() == fs::file_type::not_found) {
      fail("has no `metadata` file");
    } else if (error) {
      fail("its `metadata` cannot be read: " + error.message());
    } else {
      fail("its `metadata` is not a regular file: not a trace's metadata");
    }
    return false;
  }
  // list_directory, not std::filesystem's directory_iterator: memory
  // running out in that one ends the process.
  if (!list_directory(source_.path, error)) {
    fail("cannot be read: " + error.message());
    return false;
  }
  info_.bytes = stream_file_bytes(source_.path);
  return true;
}

// The time range of each stream, for the progress estimate. Called with the
// lifecycle lock held (the query references the shared source class).
// Returns a problem only when out of memory.
std::string CtfTraceReader::query_ranges() {
  const bt::ValueRef params = ctf_fs_parameters(source_.path);
  bt::QueryExecutorRef executor(bt_query_executor_create(
      bt_component_class_source_as_component_class_const(shared_classes().ctf_fs), "babeltrace.trace-infos",
      params.get()));
  if (!params || !executor) return memory_ran_out(bt::take_bt_error(""));
  bt_query_executor_set_logging_level(executor.get(), BT_LOGGING_LEVEL_NONE);
  const bt_value* result = nullptr;
  if (bt_query_executor_query(executor.get(), &result) != BT_QUERY_EXECUTOR_QUERY_STATUS_OK) {
    // The query's error says little; building the graph fails the same way
    // and says more. Without ranges, progress only counts finished streams.
    bt_current_thread_clear_error();
    return {};
  }
  const bt::ConstValueRef owned(result);
  if (bt_value_get_type(result) != BT_VALUE_TYPE_ARRAY) return {};
  for (uint64_t t = 0; t < bt_value_array_get_length(result); ++t) {
    const bt_value* trace = bt_value_array_borrow_element_by_index_const(result, t);
    if (bt_value_get_type(trace) != BT_VALUE_TYPE_MAP) continue;
    const bt_value* streams = bt_value_map_borrow_entry_value_const(trace, "stream-infos");
    if (streams == nullptr || bt_value_get_type(streams) != BT_VALUE_TYPE_ARRAY) continue;
    for (uint64_t s = 0; s < bt_value_array_get_length(streams); ++s) {
      const bt_value* stream = bt_value_array_borrow_element_by_index_const(streams, s);
      if (bt_value_get_type(stream) != BT_VALUE_TYPE_MAP) continue;
      const bt_value* port = bt_value_map_borrow_entry_value_const(stream, "port-name");
      const bt_value* range = bt_value_map_borrow_entry_value_const(stream, "range-ns");
      if (port == nullptr || range == nullptr || bt_value_get_type(port) != BT_VALUE_TYPE_STRING ||
          bt_value_get_type(range) != BT_VALUE_TYPE_MAP) {
        continue;
      }
      const auto begin = integer_value(bt_value_map_borrow_entry_value_const(range, "begin"));
      const auto end = integer_value(bt_value_map_borrow_entry_value_const(range, "end"));
      if (begin && end && *end > *begin) ranges_[bt_value_string_get(port)] = {*begin, *end};
    }
  }
  return {};
}

// Called with the lifecycle lock held.
std::string CtfTraceReader::build_graph() {
  const SharedClasses& classes = shared_classes();
  graph_.reset(bt_graph_create(0));
  const bool live = options_.input == CtfInput::kLive;
  const bt::ValueRef params = live ? live_parameters(source_.path) : ctf_fs_parameters(source_.path);
  if (!graph_ || !params) return memory_ran_out(bt::take_bt_error(""));
  const bt_component_source* source = nullptr;
  const bt_graph_add_component_status added =
      bt_graph_add_source_component(graph_.get(), live ? classes.lttng_live : classes.ctf_fs, "source", params.get(),
                                    BT_LOGGING_LEVEL_NONE, &source);
  if (added != BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
    std::string cause = bt::take_bt_error("unknown error");
    // Indexing a stream file maps it into memory: that failing is no damage.
    if (added == BT_GRAPH_ADD_COMPONENT_STATUS_MEMORY_ERROR || says_out_of_memory(cause)) {
      return memory_ran_out(cause);
    }
    if (live) return "cannot be followed: " + cause;
    return "cannot be opened: " + opening_problem(std::move(cause), source_.path);
  }
  const uint64_t ports = bt_component_source_get_output_port_count(source);
  for (uint64_t i = 0; i < ports; ++i) {
    port_names_.push_back(
        bt_port_get_name(bt_port_output_as_port_const(bt_component_source_borrow_output_port_by_index_const(source, i))));
  }
  const bt_component_sink* sink = nullptr;
  if (bt_graph_add_sink_component_with_initialize_method_data(graph_.get(), classes.sink.get(), "tracesync", nullptr,
                                                              this, BT_LOGGING_LEVEL_NONE,
                                                              &sink) != BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
    return bt::take_bt_error("cannot create the reading sink");
  }
  for (uint64_t i = 0; i < ports; ++i) {
    if (bt_graph_connect_ports(graph_.get(), bt_component_source_borrow_output_port_by_index_const(source, i),
                               bt_component_sink_borrow_input_port_by_index_const(sink, i),
                               nullptr) != BT_GRAPH_CONNECT_PORTS_STATUS_OK) {
      return bt::take_bt_error("cannot connect a stream");
    }
  }
  return {};
}

bt_component_class_initialize_method_status CtfTraceReader::initialize_sink(bt_self_component_sink* self) {
  for (std::size_t i = 0; i < port_names_.size(); ++i) {
    const std::string name = "in" + std::to_string(i);
    if (bt_self_component_sink_add_input_port(self, name.c_str(), nullptr, nullptr) !=
        BT_SELF_COMPONENT_ADD_PORT_STATUS_OK) {
      return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_ERROR;
    }
  }
  return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

bt_component_class_sink_graph_is_configured_method_status CtfTraceReader::create_iterators(
    bt_self_component_sink* self) {
  cursors_.clear();
  for (uint64_t i = 0; i < port_names_.size(); ++i) {
    bt_message_iterator* iterator = nullptr;
    if (bt_message_iterator_create_from_sink_component(self, bt_self_component_sink_borrow_input_port_by_index(self, i),
                                                       &iterator) !=
        BT_MESSAGE_ITERATOR_CREATE_FROM_SINK_COMPONENT_STATUS_OK) {
      return BT_COMPONENT_CLASS_SINK_GRAPH_IS_CONFIGURED_METHOD_STATUS_ERROR;
    }
    StreamCursor cursor;
    cursor.iterator.reset(iterator);
    cursor.port_name = port_names_[i];
    if (const auto range = ranges_.find(cursor.port_name); range != ranges_.end()) cursor.range = range->second;
    cursors_.push_back(std::move(cursor));
  }
  return BT_COMPONENT_CLASS_SINK_GRAPH_IS_CONFIGURED_METHOD_STATUS_OK;
}

bt_component_class_sink_consume_method_status CtfTraceReader::consume() {
  try {
    bool any_open = false;
    bool any_message = false;  // false with streams open: all said AGAIN (a live source waiting for data)
    // Only the streams furthest behind in time are read. Read in turn,
    // streams of different densities drift apart without bound (a sparse
    // CPU's batches span more time), and every event read ahead of the
    // slowest stream waits in the matcher: memory grew with the trace.
    model::Nanoseconds behind = INT64_MAX;
    for (const StreamCursor& cursor : cursors_) {
      if (!cursor.ended) behind = std::min(behind, cursor.reached);
    }
    for (StreamCursor& cursor : cursors_) {
      if (cursor.ended) continue;
      if (cursor.reached > behind) {
        any_open = true;
        continue;
      }
      bt_message_array_const messages = nullptr;
      uint64_t count = 0;
      switch (bt_message_iterator_next(cursor.iterator.get(), &messages, &count)) {
        case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK: {
          bool fine = true;
          for (uint64_t i = 0; i < count && fine; ++i) {
            // Events are nearly every message: their common case stays in this loop.
            const bt_message* message = messages[i];
            fine = bt_message_get_type(message) == BT_MESSAGE_TYPE_EVENT ? handle_event(cursor, message)
                                                                          : handle(cursor, message);
          }
          if (fine && options_.decode) fine = note_event_times(cursor, messages, count);
          for (uint64_t i = 0; i < count; ++i) bt_message_put_ref(messages[i]);
          if (!fine) return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_ERROR;
          any_open = true;
          any_message = true;
          break;
        }
        case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
          cursor.ended = true;
          cursor.iterator.reset();
          any_message = true;  // progress too
          break;
        case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
          any_open = true;
          break;
        default:
          return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_ERROR;
      }
      // src.ctf.fs may meet a damaged packet, record why as an error and
      // still answer OK or END. Any babeltrace2 call made while the thread
      // holds an error aborts the process (a precondition), so the error is
      // put back and the trace fails with it, keeping what was read.
      if (const bt_error* left = bt_current_thread_take_error()) {
        bt_current_thread_move_error(left);
        return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_ERROR;
      }
    }
    update_progress();
    if (batch_.size() >= options_.batch_events) flush();
    if (!any_open) return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_END;
    return any_message ? BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_OK : BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_AGAIN;
  } catch (const std::bad_alloc&) {
    out_of_memory_ = true;  // read_some() then says memory ran out
  } catch (const std::exception& e) {
    // Nothing may throw through babeltrace2's C frames.
    if (!compose_problem(own_problem_, "internal error while reading: ", e.what())) out_of_memory_ = true;
  } catch (...) {
    if (!compose_problem(own_problem_, "internal error while reading", "")) out_of_memory_ = true;
  }
  return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_ERROR;
}

bool CtfTraceReader::time_of(const bt_clock_snapshot* snapshot, model::Nanoseconds& out) {
  if (bt_clock_snapshot_get_ns_from_origin(snapshot, &out) == BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK) {
    return true;
  }
  own_problem_ = "a timestamp does not fit in 64-bit nanoseconds from the clock's origin";
  return false;
}

bool CtfTraceReader::handle(StreamCursor& cursor, const bt_message* message) {
  model::Nanoseconds time = 0;
  switch (bt_message_get_type(message)) {
    case BT_MESSAGE_TYPE_EVENT:
      return handle_event(cursor, message);  // consume() calls it directly
    case BT_MESSAGE_TYPE_STREAM_BEGINNING:
      return begin_stream(cursor, message);
    case BT_MESSAGE_TYPE_PACKET_BEGINNING: {
      if (!cursor.packets_have_time) return true;
      const bt_clock_snapshot* begin = bt_message_packet_beginning_borrow_default_clock_snapshot_const(message);
      if (!time_of(begin, time)) return false;
      cursor.reached = std::max(cursor.reached, time);
      if (resumed_cut_) {
        const bt_packet* packet = bt_message_packet_beginning_borrow_packet_const(message);
        const uint64_t stream = stream_key(bt_packet_borrow_stream_const(packet));
        if (streams_begun_again_.insert(stream).second && time > resumed_cut_->through) {
          gaps_.push_back({stream, resumed_cut_->through, time});
        }
      }
      if (cursor.checks_time) {
        judge_packet(cursor, cursor.time_check.begin_packet(bt_clock_snapshot_get_value(begin)));
        cursor.trusted.reset();
        cursor.pending_before_previous = 0;
      }
      return true;
    }
    case BT_MESSAGE_TYPE_PACKET_END:
      if (cursor.checks_time) {
        const bt_clock_snapshot* end = bt_message_packet_end_borrow_default_clock_snapshot_const(message);
        judge_packet(cursor, cursor.time_check.end_packet(bt_clock_snapshot_get_value(end)));
      }
      return true;
    case BT_MESSAGE_TYPE_STREAM_END:
      if (cursor.checks_time) judge_packet(cursor, cursor.time_check.end_stream());
      return true;
    case BT_MESSAGE_TYPE_DISCARDED_EVENTS: {
      uint64_t lost = 0;
      if (bt_message_discarded_events_get_count(message, &lost) == BT_PROPERTY_AVAILABILITY_AVAILABLE) {
        info_.discarded_events += lost;
      }
      return true;
    }
    case BT_MESSAGE_TYPE_MESSAGE_ITERATOR_INACTIVITY:
      if (!time_of(bt_message_message_iterator_inactivity_borrow_clock_snapshot_const(message), time)) return false;
      cursor.reached = std::max(cursor.reached, time);
      return true;
    default:
      return true;
  }
}

bool CtfTraceReader::begin_stream(StreamCursor& cursor, const bt_message* message) {
  const bt_stream* stream = bt_message_stream_beginning_borrow_stream_const(message);
  const bt_stream_class* stream_class = bt_stream_borrow_class_const(stream);
  const bt_clock_class* clock = bt_stream_class_borrow_default_clock_class_const(stream_class);
  if (clock == nullptr) {
    own_problem_ = "stream `" + cursor.port_name + "` has no clock: its events carry no time";
    return false;
  }
  cursor.has_clock = true;
  cursor.packets_have_time = bt_stream_class_packets_have_beginning_default_clock_snapshot(stream_class);
  cursor.clock = clock;
  cursor.checks_time = options_.check_time && options_.decode && cursor.packets_have_time &&
                       bt_stream_class_packets_have_end_default_clock_snapshot(stream_class);
  if (cursor.checks_time) {
    cursor.time_check = StreamTimeCheck::for_clock(kPacketStepBackTolerance, bt_clock_class_get_frequency(clock));
  }
  ++info_.streams;
  if (tracks_live_) {
    std::vector<uint64_t>& known = live_cut_.streams;
    const uint64_t id = stream_key(stream);
    const auto at = std::lower_bound(known.begin(), known.end(), id);
    if (at == known.end() || *at != id) known.insert(at, id);
  }
  note_recorded_events(stream_class);
  if (announced_) return true;

  info_.metadata_format = "CTF 1.8";  // babeltrace2 2.0 reads no other
  const bt_trace* trace = bt_stream_borrow_trace_const(stream);
  const bt_value* hostname = bt_trace_borrow_environment_entry_value_by_name_const(trace, "hostname");
  if (hostname != nullptr && bt_value_get_type(hostname) == BT_VALUE_TYPE_STRING) {
    info_.hostname = bt_value_string_get(hostname);
  }
  ClockInfo clock_info;
  const char* name = bt_clock_class_get_name(clock);
  clock_info.name = name == nullptr ? "" : name;
  if (const uint8_t* uuid = bt_clock_class_get_uuid(clock)) clock_info.uuid = bt::uuid_text(uuid);
  clock_info.frequency = bt_clock_class_get_frequency(clock);
  if (clock_info.frequency > kMaxClockFrequency) {
    // Every time would collapse into a few nanoseconds and every link fail,
    // with nothing to say why.
    own_problem_ = "its clock `" + clock_info.name + "` runs at " + std::to_string(clock_info.frequency) +
                   " Hz, over a thousand ticks a nanosecond, as no tracer's clock does (damaged metadata?): its "
                   "times in nanoseconds would be meaningless";
    return false;
  }
  bt_clock_class_get_offset(clock, &clock_info.offset_seconds, &clock_info.offset_cycles);
  clock_info.origin_is_unix_epoch = bt_clock_class_origin_is_unix_epoch(clock);
  info_.clock = clock_info;
  std::tie(info_.domain_id, info_.domain_source) = choose_domain(source_, info_.clock, info_.hostname);
  announced_ = true;
  sink_.trace_opened(index_, info_);
  return true;
}

// Which network and application events the tracer was told to record (their
// classes are in the metadata, events or not), and what each one lacks.
void CtfTraceReader::note_recorded_events(const bt_stream_class* stream_class) {
  const uint64_t classes = bt_stream_class_get_event_class_count(stream_class);
  for (uint64_t i = 0; i < classes; ++i) {
    const bt_event_class* event_class = bt_stream_class_borrow_event_class_by_index_const(stream_class, i);
    const char* name = bt_event_class_get_name(event_class);
    if (options_.offered_classes) {
      if (auto offered = AppEventDecoder::offered(event_class)) {
        const auto known = std::find_if(info_.offered_classes.begin(), info_.offered_classes.end(),
                                        [&](const OfferedEventClass& c) { return c.name == offered->name; });
        if (known == info_.offered_classes.end()) info_.offered_classes.push_back(std::move(*offered));
      }
    }
    if (const auto app = AppEventDecoder::for_class(event_class, options_.selection)) {
      AppEventTally& tally = info_.app_census.at(app->kind() - 1u);
      (app->direction() == match::Direction::kSend ? tally.send_recorded : tally.receive_recorded) = true;
      if (tally.problem.empty()) tally.problem = app->problem();
      continue;
    }
    const auto index = network_event_index(name == nullptr ? "" : name);
    if (!index || info_.network_census[*index].recorded) continue;
    NetworkEventTally& tally = info_.network_census[*index];
    tally.recorded = true;
    if (const auto decoder = NetworkEventDecoder::for_class(event_class)) tally.missing = decoder->missing();
  }
}

CtfTraceReader::LiveEvent CtfTraceReader::note_live_event(const bt_message* message) {
  model::Nanoseconds time = 0;
  if (!time_of(bt_message_event_borrow_default_clock_snapshot_const(message), time)) return LiveEvent::kBadTime;
  const uint64_t stream = stream_key(bt_event_borrow_stream_const(bt_message_event_borrow_event_const(message)));
  // A stream's events come in time order: its runs of equal times too.
  std::vector<std::pair<model::Nanoseconds, uint64_t>>& runs = read_at_[stream];
  if (runs.empty() || runs.back().first != time) runs.emplace_back(time, 0);
  const uint64_t nth_at_time = ++runs.back().second;
  if (!resumed_cut_ || time > resumed_cut_->through) return LiveEvent::kNew;
  // Before the cut every event was given; at it, the stream's first ones.
  if (time < resumed_cut_->through || nth_at_time <= resumed_cut_->given_at_through(stream)) {
    return LiveEvent::kGivenBefore;
  }
  return LiveEvent::kNew;
}

// A flush gave every event read up to `limit`: the cut moves there (a
// limit below it, a stream's packet still judged, gives nothing at the cut).
void CtfTraceReader::note_live_flush(model::Nanoseconds limit) {
  if (limit == INT64_MAX) return;  // every stream ended: nothing is left to resume
  const bool moves = limit >= live_cut_.through;
  if (limit > live_cut_.through) {
    live_cut_.through = limit;
    live_cut_.at_through.clear();
  }
  for (auto& [stream, runs] : read_at_) {
    const auto later = std::lower_bound(runs.begin(), runs.end(), limit,
                                        [](const auto& run, model::Nanoseconds t) { return run.first < t; });
    if (moves && later != runs.end() && later->first == limit) {
      // Read at the cut by this reading: the ones skipped as given before
      // are among them, so the count only grows.
      const std::pair<uint64_t, uint64_t> given{stream, 0};
      auto at = std::lower_bound(live_cut_.at_through.begin(), live_cut_.at_through.end(), given);
      if (at == live_cut_.at_through.end() || at->first != stream) at = live_cut_.at_through.insert(at, given);
      at->second = std::max(at->second, later->second);
    }
    runs.erase(runs.begin(), later);
  }
}

std::vector<uint64_t> CtfTraceReader::unserved() const {
  std::vector<uint64_t> streams;
  if (!resumed_cut_) return streams;
  for (const uint64_t stream : resumed_cut_->streams) {
    if (!streams_begun_again_.contains(stream)) streams.push_back(stream);
  }
  return streams;
}

bool CtfTraceReader::add_message_event(StreamCursor& cursor, const bt_message* message, const bt_event* event,
                                       const ClassDecoder& decoder) {
  model::Nanoseconds time = 0;
  if (!time_of(bt_message_event_borrow_default_clock_snapshot_const(message), time)) return false;
  cursor.reached = std::max(cursor.reached, time);
  ++info_.network_events;
  const uint64_t position = cursor.network_read++;
  // One a predecessor gave is decoded only to be counted in the census, as
  // an uncut reading counts it.
  const bool given_before = !resume_from_.empty() &&
                            resume_from_.delivered(static_cast<std::size_t>(&cursor - cursors_.data()), position, time);
  match::PacketEvent counted_only;
  match::PacketEvent& out = given_before ? counted_only : (cursor.checks_time ? cursor.pending : batch_).emplace_back();
  out.trace = index_;
  out.time = time;
  if (decoder.app) {
    decoder.app->decode(event, out);
    info_.app_census[out.kind - 1u].count(out);
    return true;
  }
  decoder.network->decode(event, out, options_.endpoints);
  info_.network_census[decoder.network->name_index()].count(out.layout);
  return true;
}

void CtfTraceReader::judge_packet(StreamCursor& cursor, PacketVerdict verdict) {
  if (verdict == PacketVerdict::kNone) return;
  if (verdict == PacketVerdict::kUse) {
    batch_.insert(batch_.end(), cursor.pending.begin(), cursor.pending.end());
  } else {
    const std::size_t kept = std::min(cursor.trusted.value_or(0), cursor.pending.size());
    batch_.insert(batch_.end(), cursor.pending.begin(), cursor.pending.begin() + static_cast<std::ptrdiff_t>(kept));
    ++info_.damaged_packets;
    info_.damaged_network_events += cursor.pending.size() - kept;
    if (info_.first_time_damage.empty()) {
      const auto ns = [&](uint64_t cycles) {
        int64_t out = 0;
        return bt_clock_class_cycles_to_ns_from_origin(cursor.clock, cycles, &out) ==
                       BT_CLOCK_CLASS_CYCLES_TO_NS_FROM_ORIGIN_STATUS_OK
                   ? out
                   : int64_t{0};
      };
      // babeltrace2 names the stream by its port: said as the scanner says
      // it (the file, and the packet's byte) where the port's file is found.
      const auto place = options_.input != CtfInput::kLive
                             ? locate_packet(source_.path, cursor.port_name, cursor.time_check.dropped_packet())
                             : std::nullopt;
      info_.first_time_damage = "stream `" + (place ? place->file : cursor.port_name) + "`, " +
                                cursor.time_check.what_was_wrong(ns) +
                                (place ? " (the packet at byte " + std::to_string(place->offset) + ")" : "");
    }
  }
  cursor.pending.clear();
}

bool CtfTraceReader::note_event_times(StreamCursor& cursor, const bt_message_array_const messages, uint64_t count) {
  // Most events are not network events and are never timed one by one: a
  // stream's events come in time order, so its first event and the last one
  // of each batch give the trace's span and the stream's progress (one
  // clock conversion per batch instead of one per event).
  const auto is_event = [](const bt_message* m) { return bt_message_get_type(m) == BT_MESSAGE_TYPE_EVENT; };
  const auto event_time = [&](const bt_message* m, model::Nanoseconds& out) {
    return time_of(bt_message_event_borrow_default_clock_snapshot_const(m), out);
  };
  uint64_t last = count;
  while (last > 0 && !is_event(messages[last - 1])) --last;
  if (last == 0) return true;
  model::Nanoseconds time = 0;
  if (!event_time(messages[last - 1], time)) return false;
  cursor.reached = std::max(cursor.reached, time);
  if (!info_.last_event || time > *info_.last_event) info_.last_event = time;
  if (!cursor.saw_event) {
    uint64_t first = 0;
    while (!is_event(messages[first])) ++first;
    if (!event_time(messages[first], time)) return false;
    if (!info_.first_event || time < *info_.first_event) info_.first_event = time;
    cursor.saw_event = true;
  }
  return true;
}

const CtfTraceReader::ClassDecoder* CtfTraceReader::decoder_on_miss(const bt_event_class* event_class,
                                                                    std::size_t slot) {
  auto found = decoders_.find(event_class);
  if (found == decoders_.end()) {
    std::optional<ClassDecoder> decoder;
    if (auto app = AppEventDecoder::for_class(event_class, options_.selection)) {
      decoder.emplace().app = std::move(app);
    } else if (auto network = NetworkEventDecoder::for_class(event_class)) {
      decoder.emplace().network = std::move(network);
    }
    found = decoders_.emplace(event_class, std::move(decoder)).first;
  }
  const ClassDecoder* decoder = found->second ? &*found->second : nullptr;
  // Half full at most, so that probes stay short and always end; classes
  // beyond that (metadata with hundreds of them) are found in the map.
  if (2 * (decoder_slots_used_ + 1) <= kDecoderSlots) {
    decoder_slots_[slot] = {event_class, decoder};
    ++decoder_slots_used_;
  }
  return decoder;
}

void CtfTraceReader::update_progress() {
  model::Nanoseconds slowest = INT64_MAX;
  double share = 0;
  for (const StreamCursor& cursor : cursors_) {
    if (cursor.ended) {
      share += 1;
      continue;
    }
    slowest = std::min(slowest, cursor.settled());
    if (cursor.range && cursor.reached != INT64_MIN) {
      const auto [begin, end] = *cursor.range;
      share += std::clamp(static_cast<double>(cursor.reached - begin) / static_cast<double>(end - begin), 0.0, 1.0);
    }
  }
  if (!cursors_.empty()) {
    const double read = static_cast<double>(info_.bytes) * share / static_cast<double>(cursors_.size());
    bytes_read_.store(static_cast<uint64_t>(read), std::memory_order_relaxed);
  }
  read_to_ = slowest;
  if (slowest == INT64_MAX || slowest == INT64_MIN) return;  // all ended, or a stream not started
  model::Nanoseconds promise = 0;
  if (__builtin_sub_overflow(slowest, options_.step_back_tolerance, &promise)) promise = INT64_MIN;
  progress_ = std::max(progress_, promise);
}

void CtfTraceReader::flush() { flush_up_to(read_to_); }

// Hands the sink the events not later than `limit`, holds back the rest.
void CtfTraceReader::flush_up_to(model::Nanoseconds limit) {
  if (!announced_) return;
  hold_back_after(batch_, held_, limit);
  if (tracks_live_) note_live_flush(limit);
  // Before the sink hears of them: a reading process sends it with them.
  last_flush_.through = limit;
  last_flush_.read.resize(cursors_.size());
  for (std::size_t s = 0; s < cursors_.size(); ++s) last_flush_.read[s] = cursors_[s].network_read;
  sink_.trace_events(index_, batch_, progress_);
  batch_.clear();
}

ResumePoint CtfTraceReader::resume_point() const {
  ResumePoint point = resume_from_;
  if (!last_flush_.read.empty()) point.add(last_flush_);
  return point;
}

}  // namespace tracesync::ingest
