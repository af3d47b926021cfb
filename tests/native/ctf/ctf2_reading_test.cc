// SPDX-License-Identifier: EPL-2.0
// The differential test of CTF 2 (issue 38): each CTF 2 twin of
// tests/data/ctf2 read by our scanner gives the events its CTF 1.8 twin
// gives babeltrace2 (the oracle): per stream, in order, the event names,
// timestamps (clock cycles) and integer field values; and the trace as a
// whole (TraceInfo: events, first and last times, clock, streams, discarded
// events) read by ScannerTraceReader and CtfTraceReader. The scp and
// django-vote fixtures given translated CTF 2 metadata over their unchanged
// stream files synchronize to the same report as the originals.
//
// How fields are decoded: the read plans capture what they are asked for,
// so the test asks every event class for all its integer fields (context
// and payload, through structures); babeltrace2's text output gives the
// same fields as `name = value`. Strings are not compared: the plans skip
// them by their NUL, they do not capture them.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "ctf/ctf2_writer.h"
#include "ctf/scan_plan.h"
#include "ctf/stream_scanner.h"
#include "ctf/trace_metadata.h"
#include "ctf/tsdl_parser.h"
#include "ctf2_twins.h"
#include "ingest/reader_differential.h"

namespace tracesync::ctf {
namespace {

using namespace testing;  // NOLINT: the twins' helpers
using FC = FieldClass;

struct Event {
  std::string name;
  uint64_t cycles = 0;
  std::vector<std::pair<std::string, int64_t>> integers;  // in the order printed
  bool operator==(const Event& o) const { return name == o.name && cycles == o.cycles && integers == o.integers; }
};
using Streams = std::vector<std::vector<Event>>;  // sorted, to compare as a set of streams

std::string bare(const std::string& name) { return !name.empty() && name.front() == '_' ? name.substr(1) : name; }

std::string text_of(const Streams& streams) {
  std::string out;
  for (const auto& stream : streams) {
    out += "stream of " + std::to_string(stream.size()) + " events\n";
    for (const Event& e : stream) {
      out += "  " + std::to_string(e.cycles) + " " + e.name;
      for (const auto& [name, value] : e.integers) out += " " + name + "=" + std::to_string(value);
      out += "\n";
    }
  }
  return out;
}

// Every integer leaf of `fc` (through structures), with its path.
void integer_leaves(const FC& fc, Scope scope, std::vector<std::string>& path, std::vector<FieldRequest>& out) {
  if (fc.is_integer()) out.push_back({scope, path});
  if (fc.kind != FC::Kind::kStructure) return;
  for (const Member& m : fc.members) {
    path.push_back(m.name);
    integer_leaves(*m.type, scope, path, out);
    path.pop_back();
  }
}

class Recorder final : public EventVisitor {
 public:
  std::map<const ScanPlan::EventPlan*, std::vector<FieldRequest>>* requests = nullptr;
  std::vector<Event>* events = nullptr;
  void selected_event(const ScanPlan::EventPlan& event, const ScanPlan::StreamPlan&, uint64_t clock,
                      const CapturedField* captures) override {
    Event e{event.event_class->name, clock, {}};
    const auto& asked = requests->at(&event);
    for (std::size_t i = 0; i < asked.size(); ++i) {
      if (!captures[i].present) continue;
      const FC* fc = nullptr;
      const FieldClassPtr& root = asked[i].scope == Scope::kEventPayload ? event.event_class->payload : event.event_class->context;
      fc = root.get();
      for (const std::string& name : asked[i].names) fc = fc->member(name)->type.get();
      int64_t value = static_cast<int64_t>(captures[i].value);
      if (!fc->is_signed && fc->size < 64) value = static_cast<int64_t>(captures[i].value & ((uint64_t{1} << fc->size) - 1));
      e.integers.emplace_back(bare(asked[i].names.back()), value);
    }
    events->push_back(std::move(e));
  }
};

// Our scanner: every stream file of `trace`, every event, every integer field.
Streams read_with_scanner(const fs::path& trace) {
  std::string error;
  auto metadata = read_trace_metadata(trace / "metadata", &error);
  EXPECT_TRUE(metadata) << error;
  if (!metadata) return {};
  std::map<const EventClass*, std::vector<FieldRequest>> by_class;
  auto plan = ScanPlan::compile(
      std::move(metadata->trace),
      [&](const EventClass& event) -> std::optional<std::vector<FieldRequest>> {
        std::vector<FieldRequest> requests;
        std::vector<std::string> path;
        if (event.context) integer_leaves(*event.context, Scope::kEventContext, path, requests);
        if (event.payload) integer_leaves(*event.payload, Scope::kEventPayload, path, requests);
        by_class[&event] = requests;
        return requests;
      },
      &error);
  EXPECT_TRUE(plan) << error;
  if (!plan) return {};
  std::map<const ScanPlan::EventPlan*, std::vector<FieldRequest>> requests;
  for (ScanPlan::EventPlan* event : plan->selected()) requests[event] = by_class.at(event->event_class);
  Streams streams;
  for (const auto& entry : fs::directory_iterator(trace)) {
    if (!entry.is_regular_file() || entry.path().filename() == "metadata") continue;
    StreamScanner scanner(*plan, entry.path().string());
    std::string problem;
    EXPECT_TRUE(scanner.open(problem)) << problem;
    std::vector<Event> events;
    Recorder recorder;
    recorder.requests = &requests;
    recorder.events = &events;
    while (!scanner.at_end()) {
      PacketSummary summary;
      if (!scanner.next_packet(recorder, summary, problem)) {
        ADD_FAILURE() << problem;
        break;
      }
    }
    streams.push_back(std::move(events));
  }
  std::sort(streams.begin(), streams.end(), [](const auto& a, const auto& b) { return text_of({a}) < text_of({b}); });
  return streams;
}

// babeltrace2's text output of `trace`, one stream per `cpu_id` (an LTTng
// stream file per CPU), in the order printed: "[CYCLES] (+DELTA) HOST NAME:
// { cpu_id = N }, { FIELDS }".
Streams read_with_babeltrace2(const fs::path& trace) {
  const std::string command = "babeltrace2 --clock-cycles '" + trace.string() + "' 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  EXPECT_NE(pipe, nullptr);
  if (pipe == nullptr) return {};
  std::string output;
  char buffer[65536];
  while (const std::size_t n = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  EXPECT_EQ(pclose(pipe), 0) << output;
  static const std::regex line(R"(^\[(\d+)\] \([^)]*\) \S+ (\S+): \{ cpu_id = (\d+) \}(.*)$)");
  static const std::regex quoted(R"("([^"\\]|\\.)*")");
  static const std::regex integer(R"((\w+) = (-?\d+)(?=[ ,}]))");
  std::map<std::string, std::vector<Event>> by_cpu;
  std::size_t start = 0;
  while (start < output.size()) {
    const std::size_t end = std::min(output.find('\n', start), output.size());
    const std::string text = output.substr(start, end - start);
    start = end + 1;
    std::smatch m;
    if (!std::regex_match(text, m, line)) {
      ADD_FAILURE() << "not an event line of babeltrace2: " << text;
      continue;
    }
    Event e{m[2].str(), std::stoull(m[1].str()), {}};
    const std::string fields = std::regex_replace(m[4].str(), quoted, "\"\"");
    for (auto i = std::sregex_iterator(fields.begin(), fields.end(), integer); i != std::sregex_iterator(); ++i) {
      e.integers.emplace_back((*i)[1].str(), std::stoll((*i)[2].str()));
    }
    by_cpu[m[3].str()].push_back(std::move(e));
  }
  Streams streams;
  for (auto& [cpu, events] : by_cpu) streams.push_back(std::move(events));
  std::sort(streams.begin(), streams.end(), [](const auto& a, const auto& b) { return text_of({a}) < text_of({b}); });
  return streams;
}

bool have_babeltrace2() { return std::system("babeltrace2 --version > /dev/null 2>&1") == 0; }

TEST(Ctf2Reading, EachCtf2TwinReadsAsBabeltrace2ReadsItsCtf18Twin) {
  if (!have_babeltrace2()) GTEST_SKIP() << "babeltrace2 is not installed";
  for (const std::string& twin : kReadTwins) {
    SCOPED_TRACE(twin);
    TempDir dir;
    const fs::path ctf2 = assemble(dir.path(), twin, "ctf2", file_text(kCtf2Data / twin / "ctf2" / "metadata"));
    const fs::path ctf18 = assemble(dir.path(), twin, "ctf18", file_text(kCtf2Data / twin / "ctf18" / "metadata"));
    const Streams oracle = read_with_babeltrace2(ctf18);
    const Streams ours = read_with_scanner(ctf2);
    ASSERT_FALSE(oracle.empty());
    std::size_t events = 0;
    for (const auto& stream : oracle) events += stream.size();
    EXPECT_GT(events, 0u);
    EXPECT_EQ(text_of(ours), text_of(oracle));
    // Fields were compared, not only names and times.
    if (twin == "lttng-crash") {
      EXPECT_NE(text_of(oracle).find("my_app:current_temp temp=53"), std::string::npos);
    }
    // And the CTF 1.8 twin read by the scanner: the same again.
    EXPECT_EQ(text_of(read_with_scanner(ctf18)), text_of(oracle));
  }
}

TEST(Ctf2Reading, TranslatedMetadataReadsAsTheCtf2Twin) {
  for (const std::string& twin : kReadTwins) {
    SCOPED_TRACE(twin);
    TempDir dir;
    std::string error;
    const auto tsdl = read_trace_metadata(kCtf2Data / twin / "ctf18" / "metadata", &error);
    ASSERT_TRUE(tsdl) << error;
    const auto translated = write_ctf2(tsdl->trace, &error);
    ASSERT_TRUE(translated) << error;
    const fs::path ours = assemble(dir.path(), twin, "ours", *translated);
    const fs::path theirs = assemble(dir.path(), twin, "theirs", file_text(kCtf2Data / twin / "ctf2" / "metadata"));
    const Streams a = read_with_scanner(ours);
    ASSERT_FALSE(a.empty());
    EXPECT_EQ(text_of(a), text_of(read_with_scanner(theirs)));
  }
}

TEST(Ctf2Reading, TraceReadersAgreeOnEachTwin) {
  for (const std::string& twin : kReadTwins) {
    SCOPED_TRACE(twin);
    TempDir dir;
    const fs::path ctf2 = assemble(dir.path(), twin, "t", file_text(kCtf2Data / twin / "ctf2" / "metadata"));
    const fs::path ctf18 = assemble(dir.path() / "x", twin, "t", file_text(kCtf2Data / twin / "ctf18" / "metadata"));
    const auto scanner = ingest::testing::read_with_scanner(ctf2.string());
    const auto babeltrace2 = ingest::testing::read_with_babeltrace2(ctf18.string());
    EXPECT_EQ(scanner.problem, "");
    EXPECT_EQ(scanner.state, babeltrace2.state);
    EXPECT_EQ(scanner.info.metadata_format, "CTF 2");
    EXPECT_EQ(babeltrace2.info.metadata_format, "CTF 1.8");
    EXPECT_GT(scanner.info.events, 0u);
    ingest::TraceInfo a = scanner.info, b = babeltrace2.info;
    a.path = b.path;  // the directories differ, nothing else may
    a.name = b.name;
    a.domain_id = b.domain_id;
    EXPECT_EQ(ingest::testing::info_differences(a, b), "");
    EXPECT_EQ(ingest::testing::event_differences(scanner, babeltrace2), "");
  }
}

}  // namespace
}  // namespace tracesync::ctf
