// SPDX-License-Identifier: EPL-2.0
#include "ingest/growing_trace_reader.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <new>
#include <system_error>

#include "ingest/resumable_trace_reader.h"
#include "ingest/trace_chunks.h"
#include "ingest/trace_discovery.h"

namespace tracesync::ingest {

namespace fs = std::filesystem;

// What a chunk's reader delivers goes on to the real sink as the followed
// trace's: opened once, its events as they come, but neither its promises
// (a chunk's reader ends each chunk as if the trace ended) nor its close.
class GrowingTraceReader::StagedSink final : public EventSink {
 public:
  explicit StagedSink(GrowingTraceReader& reader) : reader_(reader) {}

  void trace_opened(match::TraceIndex, const TraceInfo& info) override {
    if (reader_.opened_) return;
    reader_.opened_ = true;
    TraceInfo opened = info;
    opened.path = reader_.trace_dir_;
    opened.name = reader_.info_.name;
    reader_.info_.hostname = info.hostname;
    reader_.info_.domain_id = info.domain_id;
    reader_.info_.domain_source = info.domain_source;
    reader_.info_.clock = info.clock;
    reader_.sink_.trace_opened(reader_.index_, opened);
  }
  void trace_events(match::TraceIndex, std::span<const match::PacketEvent> events, model::Nanoseconds) override {
    if (!events.empty()) reader_.sink_.trace_events(reader_.index_, events, INT64_MIN);
  }
  void trace_closed(match::TraceIndex) override {}

 private:
  GrowingTraceReader& reader_;
};

namespace {

// Copies bytes [from, to) of `source` to the end of `target`; false with errno.
bool copy_range(int source, int target, uint64_t from, uint64_t to) {
  std::vector<char> buffer(1 << 20);
  while (from < to) {
    const std::size_t want = static_cast<std::size_t>(std::min<uint64_t>(buffer.size(), to - from));
    const ssize_t got = ::pread(source, buffer.data(), want, static_cast<off_t>(from));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      if (got == 0) errno = EIO;  // the file shrank under us
      return false;
    }
    for (ssize_t done = 0; done < got;) {
      const ssize_t put = ::write(target, buffer.data() + done, static_cast<std::size_t>(got - done));
      if (put < 0 && errno == EINTR) continue;
      if (put < 0) return false;
      done += put;
    }
    from += static_cast<uint64_t>(got);
  }
  return true;
}

std::string read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A clock value in ns from origin, rounded down (as the reader's own times
// are within a nanosecond).
model::Nanoseconds ns_from_origin(const ClockInfo& clock, uint64_t cycles) {
  const __int128 total = static_cast<__int128>(clock.offset_cycles) + cycles;
  const __int128 ns = static_cast<__int128>(clock.offset_seconds) * 1'000'000'000 +
                      total * 1'000'000'000 / static_cast<__int128>(clock.frequency);
  return static_cast<model::Nanoseconds>(std::clamp<__int128>(ns, INT64_MIN + 1, INT64_MAX));
}

}  // namespace

GrowingTraceReader::GrowingTraceReader(TraceSource folder, match::TraceIndex index, ReaderOptions options,
                                       EventSink& sink, std::chrono::milliseconds quiet_end)
    : folder_(std::move(folder)), index_(index), options_(std::move(options)), sink_(sink), quiet_end_(quiet_end) {
  options_.input = CtfInput::kFolder;
  options_.stream_ranges = false;
  info_.path = folder_.path;
  info_.name = folder_.name;
}

GrowingTraceReader::~GrowingTraceReader() = default;

std::string GrowingTraceReader::end_words() const {
  if (!end_words_.empty()) return end_words_;
  return "nothing was written to it for " + std::to_string(quiet_end_.count()) + " ms: taken as ended";
}

void GrowingTraceReader::fail(std::string problem) {
  problem_ = std::move(problem);
  state_ = State::kFailed;
  sink_.trace_closed(index_);
}

bool GrowingTraceReader::find_trace() {
  // A session that rotated before it was followed: from its first chunk
  // that holds the trace (the chunks archived before the first traced
  // program registered hold none).
  std::string root = folder_.path;
  if (has_rotated(folder_.path)) {
    // Resumed: the chunk that was being read.
    std::optional<uint64_t> number = resume_ ? std::optional(resume_->chunk) : first_trace_chunk(folder_.path);
    std::optional<TraceChunkPlace> place = number ? find_trace_chunk(folder_.path, *number) : std::nullopt;
    while (!resume_ && place && place->archived && discover_traces({place->root}).traces.empty()) {
      place = find_trace_chunk(folder_.path, ++*number);
    }
    if (!place) {
      fail("no trace chunk of '" + folder_.path + "' holds a trace yet");
      return false;
    }
    rotating_ = true;
    chunk_ = *number;
    root = place->root;
  }
  const Discovery found = discover_traces({root});
  if (found.traces.size() == 1) {
    trace_dir_ = found.traces.front().path;
    if (rotating_) chunk_trace_ = fs::path(trace_dir_).lexically_relative(root).string();
    info_.path = trace_dir_;
    if (info_.name.empty()) info_.name = found.traces.front().name;
    return true;
  }
  if (found.traces.empty()) {
    std::error_code ignored;
    const std::string hint =
        fs::is_directory(folder_.path, ignored) ? " (LTTng writes a session's trace when its first traced program registers)" : "";
    fail((found.problems.empty() ? "no trace in '" + folder_.path + "' yet" : found.problems.front().message) + hint);
    return false;
  }
  std::string names;
  for (const TraceSource& t : found.traces) names += (names.empty() ? "'" : ", '") + t.path + "'";
  fail("'" + folder_.path + "' holds " + std::to_string(found.traces.size()) + " traces (" + names +
       "): follow each trace directory on its own");
  return false;
}

TraceReader::State GrowingTraceReader::step(std::size_t) {
  if (state_ == State::kDone || state_ == State::kFailed) return state_;
  try {
    if (state_ == State::kNew) {
      if (!find_trace()) return state_;
      if (resume_) {
        // The figures and order of what was read before go on here; where
        // the trace is and its name are this reader's own (a cut in the
        // first look carries none).
        TraceInfo before = resume_->info;
        before.path = info_.path;
        before.name = info_.name;
        info_ = std::move(before);
        opened_ = info_.clock.has_value();
        chunk_ = resume_->chunk;
        last_packets_ = resume_->last_packets;
        finished_bytes_ = resume_->finished_bytes;
        metadata_bytes_ = resume_->metadata_bytes;
      }
      state_ = State::kReading;
      last_growth_ = std::chrono::steady_clock::now();
    }
    waiting_ = !read_more();
    if (state_ != State::kReading) return state_;
    if (!resume_) commit();
    const auto now = std::chrono::steady_clock::now();
    if (!waiting_) {
      last_growth_ = now;
    } else if (now - last_growth_ >= quiet_end_) {
      state_ = State::kDone;
      sink_.trace_closed(index_);
    }
  } catch (const std::bad_alloc&) {
    out_of_memory_ = true;
    problem_ = kOutOfMemoryProblem;
    state_ = State::kFailed;
    sink_.trace_closed(index_);
  } catch (const std::exception& e) {
    fail(trace_dir_ + ": " + e.what());
  }
  return state_;
}

bool GrowingTraceReader::read_more() {
  if (!rotating_ && has_rotated(folder_.path)) {
    // The first rotation: the trace read so far is chunk 0.
    rotating_ = true;
    chunk_trace_ = fs::path(trace_dir_).lexically_relative(folder_.path).string();
  }
  if (!rotating_) return read_new_packets(trace_dir_);
  const std::optional<TraceChunkPlace> place = find_trace_chunk(folder_.path, chunk_);
  if (!place) return false;  // being moved to archives/, or not begun yet
  if (read_new_packets((fs::path(place->root) / chunk_trace_).string())) return true;
  if (!place->archived || state_ != State::kReading || resume_) return false;
  // Every packet of the chunk is read, and nothing more will be written to it.
  if (!trace_chunk_after(folder_.path, chunk_)) {
    // Its last chunk: the session was destroyed.
    end_words_ = "its trace chunk " + std::to_string(chunk_) + " was archived with none after it: the session ended";
    state_ = State::kDone;
    sink_.trace_closed(index_);
    return true;
  }
  next_chunk();
  return true;
}

bool GrowingTraceReader::position_streams(const std::string& dir) {
  for (const auto& [name, count] : resume_->packets) {
    if (count == 0) continue;
    const std::string stream_path = (fs::path(dir) / name).string();
    const std::string index_path = (fs::path(dir) / "index" / (name + ".idx")).string();
    StreamBeingWritten& stream = streams_.try_emplace(name, stream_path, index_path).first->second;
    std::vector<WrittenPacket> read_before;
    std::string problem;
    if (!stream.poll(read_before, UINT64_MAX, problem, count)) {
      fail(problem);
      return false;
    }
    if (stream.packets() == count) continue;
    if (stream.stream_fd() < 0) {  // moving (a rotation): from the start at the next look
      streams_.clear();
      return false;
    }
    fail(stream_path + ": holds " + std::to_string(stream.packets()) + " whole packets, where " +
         std::to_string(count) + " were read before its reading process died");
    return false;
  }
  streams_positioned_ = true;
  if (resume_->look.empty()) resume_.reset();
  promise();  // what the packets read before promised
  return true;
}

FolderPosition GrowingTraceReader::position() const {
  if (resume_) return *resume_;  // not reached yet: that one still holds
  FolderPosition at = committed_;
  at.look = look_;
  at.look_metadata_bytes = look_metadata_bytes_;
  if (staged_ != nullptr) at.look_delivered = staged_->resume_point();
  return at;
}

void GrowingTraceReader::resume_at(FolderPosition position) {
  if (position.empty()) return;
  committed_ = position;
  committed_.look.clear();
  committed_.look_metadata_bytes = 0;
  committed_.look_delivered = ResumePoint();
  resume_ = std::move(position);
}

void GrowingTraceReader::commit() {
  committed_.chunk = chunk_;
  committed_.packets.clear();
  for (const auto& [name, stream] : streams_) committed_.packets[name] = stream.packets();
  committed_.last_packets = last_packets_;
  committed_.finished_bytes = finished_bytes_;
  committed_.metadata_bytes = metadata_bytes_;
  committed_.info = info_;
  look_.clear();
  look_metadata_bytes_ = 0;
}

void GrowingTraceReader::next_chunk() {
  for (const auto& [name, stream] : streams_) {
    if (stream.any()) finished_bytes_ += stream.last().offset + stream.last().size;
  }
  streams_.clear();
  metadata_bytes_ = 0;
  ++chunk_;
}

bool GrowingTraceReader::check_order(const std::string& dir, const std::string& name,
                                     const std::vector<WrittenPacket>& packets) {
  const auto before = last_packets_.find(name);
  if (before != last_packets_.end() && info_.clock && info_.clock->frequency != 0) {
    const model::Nanoseconds end = ns_from_origin(*info_.clock, before->second.timestamp_end);
    const model::Nanoseconds begin = ns_from_origin(*info_.clock, packets.front().timestamp_begin);
    if (begin < end - kPacketStepBackTolerance) {
      fail((fs::path(dir) / name).string() + ": the packet from byte " + std::to_string(packets.front().offset) +
           " begins at " + std::to_string(begin) + " ns, " + std::to_string(end - begin) +
           " ns before the end of the packet before it in the stream: its time is damaged, and following the "
           "trace further could not keep the order promised so far (what was read before stands)");
      return false;
    }
  }
  WrittenPacket& last = last_packets_[name];
  last = packets.back();
  return true;
}

bool GrowingTraceReader::read_new_packets(const std::string& dir) {
  const std::string metadata_path = (fs::path(dir) / "metadata").string();
  std::string metadata = read_whole(metadata_path);
  std::string problem;
  uint64_t whole = whole_metadata_bytes(metadata, problem);
  if (!problem.empty()) {
    fail(metadata_path + ": " + problem);
    return false;
  }
  if (whole == 0) return false;  // the first packet is not written yet
  if (resume_ && !streams_positioned_ && !position_streams(dir)) return false;
  // A resumed look stages what the look under way staged, no more.
  const bool redo = resume_ && !resume_->look.empty();
  if (redo) {
    if (whole < resume_->look_metadata_bytes) {
      fail(metadata_path + ": holds " + std::to_string(whole) + " whole bytes, where " +
           std::to_string(resume_->look_metadata_bytes) + " were read before its reading process died");
      return false;
    }
    whole = resume_->look_metadata_bytes;
  }
  metadata.resize(static_cast<std::size_t>(whole));
  const bool metadata_grew = whole != metadata_bytes_;
  metadata_bytes_ = whole;

  // The stream files now (a channel enabled later adds some). The
  // directory may move away meanwhile (a rotation): the files already open
  // are read on.
  std::vector<std::string> names;
  std::error_code error;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    std::error_code ignored;
    if (name == "metadata" || name.empty() || name.front() == '.' || !it->is_regular_file(ignored)) continue;
    names.push_back(name);
  }
  for (const auto& [name, stream] : streams_) names.push_back(name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  std::map<std::string, std::vector<WrittenPacket>> packets;
  uint64_t budget = kStepBytes;
  for (const std::string& name : names) {
    const std::string stream_path = (fs::path(dir) / name).string();
    const std::string index_path = (fs::path(dir) / "index" / (name + ".idx")).string();
    const auto it = streams_.try_emplace(name, stream_path, index_path).first;
    it->second.moved_to(stream_path, index_path);
    std::vector<WrittenPacket> whole_packets;
    uint64_t until = UINT64_MAX;
    if (redo) {
      const auto in_look = resume_->look.find(name);
      if (in_look == resume_->look.end()) continue;
      until = it->second.packets() + in_look->second;
    }
    if (!it->second.poll(whole_packets, redo ? UINT64_MAX : budget, problem, until)) {
      fail(problem);
      return false;
    }
    if (redo && it->second.packets() != until) {
      fail(stream_path + ": holds " + std::to_string(it->second.packets()) + " whole packets, where " +
           std::to_string(until) + " were read before its reading process died");
      return false;
    }
    for (const WrittenPacket& p : whole_packets) budget -= std::min(budget, p.size);
    if (whole_packets.empty()) continue;
    if (!check_order(dir, name, whole_packets)) return false;
    packets.emplace(name, std::move(whole_packets));
  }
  if (packets.empty()) return metadata_grew;
  for (const auto& [name, list] : packets) look_[name] = list.size();
  look_metadata_bytes_ = whole;
  ResumePoint delivered;
  if (redo) delivered = std::move(resume_->look_delivered);
  resume_.reset();
  read_staged(dir, metadata, packets, std::move(delivered));
  if (state_ != State::kReading) return true;
  commit();  // before the promise: a process dying after it gave the look resumes after the look
  promise();
  return true;
}

void GrowingTraceReader::read_staged(const std::string& dir, const std::string& metadata,
                                    const std::map<std::string, std::vector<WrittenPacket>>& packets,
                                    ResumePoint delivered) {
  if (!staging_) {
    const char* tmp = std::getenv("TMPDIR");
    const std::string parent =
        !staging_parent_.empty() ? staging_parent_ : tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
    std::string problem;
    staging_ = StagingDirectory::make(parent, problem);
    if (!staging_) {
      fail(problem);
      return;
    }
  }
  const fs::path chunk = fs::path(staging_->path()) / "chunk";
  fs::remove_all(chunk);
  fs::create_directory(chunk);
  {
    std::ofstream out(chunk / "metadata", std::ios::binary);
    out.write(metadata.data(), static_cast<std::streamsize>(metadata.size()));
    if (!out.flush()) {
      fail("cannot write the staging copy of " + trace_dir_ + "'s metadata in '" + staging_->path() + "'");
      return;
    }
  }
  for (const auto& [name, list] : packets) {
    const std::string from = (fs::path(dir) / name).string();
    const int source = streams_.at(name).stream_fd();  // open: the file may have moved since
    const int target = ::open((chunk / name).c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    const bool copied =
        source >= 0 && target >= 0 && copy_range(source, target, list.front().offset, list.back().offset + list.back().size);
    const std::string why = std::strerror(errno);
    if (target >= 0) ::close(target);
    if (!copied) {
      fail("cannot copy the whole packets of '" + from + "' to the staging directory '" + staging_->path() + "': " +
           why);
      return;
    }
  }

  StagedSink staged_sink(*this);
  const std::unique_ptr<ResumableTraceReader> reader =
      make_trace_reader(TraceSource{chunk.string(), info_.name, folder_.domain_override}, index_, options_, staged_sink);
  reader->resume_after(std::move(delivered));
  staged_ = reader.get();
  struct Unstages {
    const ResumableTraceReader*& staged;
    ~Unstages() { staged = nullptr; }
  } unstages{staged_};
  while (reader->state() == State::kNew || reader->state() == State::kReading) reader->step(64);
  if (reader->state() == State::kFailed) {
    std::string why = reader->problem();
    for (std::size_t at; (at = why.find(chunk.string())) != std::string::npos;) why.replace(at, chunk.string().size(), dir);
    out_of_memory_ = reader->out_of_memory();
    std::string where;
    for (const auto& [name, list] : packets) {
      where += (where.empty() ? "" : ", ") + name + " from byte " + std::to_string(list.front().offset);
    }
    fail("reading the packets just written (" + where + "): " + why);
    return;
  }
  add_staged_info(reader->info());
  fs::remove_all(chunk);
}

void GrowingTraceReader::add_staged_info(const TraceInfo& chunk) {
  info_.reader = chunk.reader;
  info_.reader_reason = chunk.reader_reason;
  info_.offered_classes = chunk.offered_classes;
  add_read_figures(info_, chunk);
  // The stream files' figures come from their indexes: the tracer's lost
  // events count from each stream's start, and on across a rotation's
  // chunks (it ends the chunk's files, not the streams).
  info_.streams = last_packets_.size();
  info_.bytes = finished_bytes_;
  info_.discarded_events = 0;
  for (const auto& [name, stream] : streams_) {
    if (stream.any()) info_.bytes += stream.last().offset + stream.last().size;
  }
  for (const auto& [name, last] : last_packets_) info_.discarded_events += last.discarded_events;
  bytes_read_.store(info_.bytes, std::memory_order_relaxed);
}

void GrowingTraceReader::promise() {
  if (!info_.clock || info_.clock->frequency == 0 || streams_.empty()) return;
  model::Nanoseconds oldest = INT64_MAX;
  for (const auto& [name, stream] : streams_) {
    if (!stream.any()) return;  // it promises nothing yet
    oldest = std::min(oldest, ns_from_origin(*info_.clock, stream.last().timestamp_end));
  }
  // Less the step-back tolerance (check_order holds the next packets to
  // it), and a nanosecond for the rounding of cycles to nanoseconds.
  const model::Nanoseconds back = kPacketStepBackTolerance + 1;
  if (oldest <= INT64_MIN + back) return;
  const model::Nanoseconds promised = oldest - back;
  if (promised <= progress_) return;
  progress_ = promised;
  sink_.trace_events(index_, {}, progress_);
}

}  // namespace tracesync::ingest
