// SPDX-License-Identifier: EPL-2.0
#include "cli/cited_event_reading.h"

#include <filesystem>
#include <mutex>
#include <set>
#include <sstream>
#include <unordered_set>

#include "ingest/event_sink.h"
#include "ingest/experiment_matching.h"
#include "ingest/trace_discovery.h"
#include "verify/json_fields.h"

namespace tracesync::cli {
namespace {

using nlohmann::json;

// The same file, however the path was written.
std::string same_file(const std::string& path) {
  std::error_code error;
  const std::filesystem::path canonical = std::filesystem::weakly_canonical(path, error);
  return error ? path : canonical.string();
}

// The message key in words: equal for the two ends of one message, as the
// matcher's default key (a strict key adds addresses, which only makes
// equal keys rarer) or an application kind's exact key.
std::string key_text(const match::PacketEvent& e) {
  std::ostringstream out;
  if (e.kind == match::kTcpKind) {
    out << "TCP seq " << e.tcp.seq << " ack_seq " << e.tcp.ack_seq << " flags " << e.tcp.flags;
  } else {
    out << "message kind " << static_cast<unsigned>(e.kind) << " key";
    for (std::size_t i = 0; i < e.app.size; ++i) out << " " << std::hex << e.app.words[i] << std::dec;
  }
  return out.str();
}

// The instants cited on one trace, each direction apart.
struct WantedInstants {
  std::string name;  // the report's
  std::unordered_set<int64_t> sends, receives;
};

// Keeps the events at wanted instants; called from the readers' threads.
class CitedEventSink final : public ingest::EventSink {
 public:
  CitedEventSink(std::vector<const WantedInstants*> per_trace, CitedEventIndex& index)
      : per_trace_(std::move(per_trace)), stream_files_(per_trace_.size()), index_(index) {}

  // Each trace's own element: traces opened on several threads at once need no lock.
  void trace_opened(match::TraceIndex trace, const ingest::TraceInfo& info) override {
    if (trace < stream_files_.size()) stream_files_[trace] = info.stream_files;
  }
  void trace_closed(match::TraceIndex) override {}

  void trace_events(match::TraceIndex trace, std::span<const match::PacketEvent> events, model::Nanoseconds) override {
    const WantedInstants* wanted = per_trace_.at(trace);
    if (wanted == nullptr) return;
    for (const match::PacketEvent& e : events) {
      if (e.layout != match::Layout::kTcp) continue;  // no key: it cannot be one end of a message
      const bool send = e.direction == match::Direction::kSend;
      if ((send ? wanted->sends : wanted->receives).count(e.time) == 0) continue;
      const std::vector<std::string>& files = stream_files_[trace];
      std::string stream = e.stream < files.size() ? files[e.stream] : std::string();
      const std::lock_guard<std::mutex> lock(mutex_);
      index_.add(wanted->name, send, e.time, {wanted->name, key_text(e), std::move(stream)});
    }
  }

 private:
  std::vector<const WantedInstants*> per_trace_;
  std::vector<std::vector<std::string>> stream_files_;  // each trace's (TraceInfo::stream_files)
  CitedEventIndex& index_;
  std::mutex mutex_;
};

}  // namespace

const std::vector<verify::RecordedEvent>& CitedEventIndex::at(const std::string& trace, bool send,
                                                              int64_t time_ns) const {
  static const std::vector<verify::RecordedEvent> kNone;
  const auto found = events_.find({trace, send, time_ns});
  return found == events_.end() ? kNone : found->second;
}

void CitedEventIndex::add(const std::string& trace, bool send, int64_t time_ns, verify::RecordedEvent event) {
  events_[{trace, send, time_ns}].push_back(std::move(event));
  ++size_;
}

std::variant<CitedEventReading, std::string> read_cited_events(const std::vector<std::string>& paths,
                                                               const json& report,
                                                               const std::vector<verify::CitedMessage>& messages,
                                                               const ingest::ReadOptions& options,
                                                               verify::AllowedSides& sides) {
  // The instants each trace of the report must hold.
  std::map<std::string, WantedInstants> wanted;
  for (const verify::CitedMessage& m : messages) {
    for (const std::string& t : m.sender_traces) wanted[t].sends.insert(m.send_ns);
    for (const std::string& t : m.receiver_traces) wanted[t].receives.insert(m.receive_ns);
  }
  std::map<std::string, std::string> report_trace_at;  // same_file(path) -> name
  std::map<std::string, std::string> domain_of;        // the report's trace name -> its domain
  for (const json& t : verify::field(report, "traces", "report")) {
    const std::string name = verify::text(t, "name", "report trace");
    report_trace_at[same_file(verify::text(t, "path", "report trace " + name))] = name;
    domain_of[name] = verify::text(t, "domain", "report trace " + name);
  }

  ingest::Discovery discovery = ingest::discover_traces(paths);
  if (!discovery.problems.empty()) {
    return discovery.problems.front().source + ": " + discovery.problems.front().message;
  }
  std::vector<const WantedInstants*> per_trace(discovery.traces.size(), nullptr);
  std::vector<std::string> trace_domain(discovery.traces.size());  // empty: not the report's
  std::set<std::string> given;
  for (std::size_t i = 0; i < discovery.traces.size(); ++i) {
    const auto name = report_trace_at.find(same_file(discovery.traces[i].path));
    if (name == report_trace_at.end()) continue;  // not in the report: nothing is cited on it
    given.insert(name->second);
    trace_domain[i] = domain_of.at(name->second);
    if (const auto w = wanted.find(name->second); w != wanted.end()) {
      w->second.name = name->second;
      per_trace[i] = &w->second;
    }
  }
  for (const auto& [name, instants] : wanted) {
    if (!given.count(name)) {
      return "the report's trace " + name + ", where the certificate cites messages, is not among the traces given";
    }
  }

  CitedEventReading out;
  CitedEventSink sink(per_trace, out.events);
  // Every message between two traces of the report, to its link's sides;
  // the route of each pair of traces is found once.
  std::mutex sides_mutex;
  std::map<std::pair<match::TraceIndex, match::TraceIndex>, verify::AllowedSides::Route> routes;
  ingest::ExperimentOptions matching;
  matching.read = options;
  ingest::ExperimentCallbacks callbacks;
  callbacks.beside = &sink;
  callbacks.on_match = [&](const match::MatchedMessage& m) {
    const std::string& sender = trace_domain.at(m.send_trace);
    const std::string& receiver = trace_domain.at(m.receive_trace);
    if (sender.empty() || receiver.empty()) return;
    const std::lock_guard<std::mutex> lock(sides_mutex);
    auto [route, fresh] = routes.try_emplace({m.send_trace, m.receive_trace});
    if (fresh) route->second = sender == receiver ? verify::AllowedSides::Route{} : sides.route(sender, receiver);
    sides.check(route->second, m.send, m.receive);
  };
  const ingest::ExperimentReport read = ingest::match_experiment(discovery.traces, matching, callbacks).read;
  for (std::size_t i = 0; i < read.traces.size(); ++i) {
    if (per_trace[i] == nullptr) continue;
    const ingest::TraceReport& t = read.traces[i];
    if (t.status == ingest::TraceStatus::kSkipped) return "cannot read " + discovery.traces[i].path + ": " + t.problem;
    ++out.traces_read;
    if (t.status == ingest::TraceStatus::kPartial) out.partial.push_back(discovery.traces[i].path + ": " + t.problem);
    if (t.info.damaged_packets > 0) {
      out.partial.push_back(discovery.traces[i].path + ": " + ingest::time_damage_text(t.info));
    }
  }
  return out;
}

}  // namespace tracesync::cli
