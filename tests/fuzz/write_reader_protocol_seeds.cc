// SPDX-License-Identifier: EPL-2.0
// write_reader_protocol_seeds DIR: one input per frame type of
// reader_protocol_fuzzer (its type byte, then the frame), encoded by this
// build's encoders. Made at build time, so the fuzzer always starts from
// frames of the current protocol version: committed frames go stale each
// time a layout changes (the committed corpus holds version-1 frames, which
// now only reach the version refusal).

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "ingest/reader_protocol.h"

namespace protocol = tracesync::ingest::reader_protocol;
using tracesync::ingest::TraceInfo;

namespace {

bool write(const std::string& path, uint8_t type, const std::vector<std::byte>& frame) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.put(static_cast<char>(type));
  out.write(reinterpret_cast<const char*>(frame.data()), static_cast<std::streamsize>(frame.size()));
  if (!out) std::perror(path.c_str());
  return static_cast<bool>(out);
}

TraceInfo a_trace() {
  TraceInfo info;
  info.path = "/traces/host1/kernel";
  info.name = "host1/kernel";
  info.hostname = "host1";
  info.domain_id = "host1";
  info.clock = tracesync::ingest::ClockInfo{"monotonic", "", 1'000'000'000, 1, 500, true};
  info.first_event = 100;
  info.last_event = 9'000;
  info.streams = 2;
  info.events = 40;
  info.network_events = 12;
  info.network_census[0] = {true, "", 6, 0, 0};
  info.network_census[1] = {true, "", 6, 0, 0};
  return info;
}

tracesync::ingest::ResumePoint a_resume_point() {
  tracesync::ingest::ResumePoint point;
  point.add({5'000, {3, 4}});
  return point;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: write_reader_protocol_seeds DIR\n");
    return 2;
  }
  const std::string dir = argv[1];

  protocol::OpenRequest open;
  open.parent_pid = 1234;
  open.index = 2;
  open.source = {"/traces/host1/kernel", "host1/kernel", std::nullopt};
  open.resume = a_resume_point();

  // A folder followed while it is recorded (`tracesync live`).
  protocol::OpenRequest followed = open;
  followed.resume = {};
  followed.follow = {protocol::FollowedSource::Kind::kFolder, 10'000, "/tmp/tracesync-followed-1"};

  // A live session attached again after its reading process died.
  protocol::OpenRequest attached_again = open;
  attached_again.source = {"net://127.0.0.1:5344/host/host1/s", "host1/s", std::nullopt};
  attached_again.resume = {};
  attached_again.follow = {protocol::FollowedSource::Kind::kLiveSession, 0, ""};
  attached_again.live_cut = {5'000, {{1, 2}, {4, 1}}, {0, 1, 4}};

  protocol::StepReport report;
  report.state = tracesync::ingest::TraceReader::State::kReading;
  report.progress = 6'000;
  report.bytes_read = 4'096;
  report.info = a_trace();
  report.delivered = a_resume_point();

  protocol::StepReport waited = report;  // a followed source's step that found nothing new
  waited.delivered = {};
  waited.waiting = true;

  protocol::StepReport live_report = report;  // an attachment again that found gaps
  live_report.delivered = {};
  live_report.gaps = {{4, 5'000, 7'000}};
  live_report.unserved = {0};

  protocol::EventsHeader header;
  header.promise = 6'000;
  header.events_read = 30;
  header.delivered = a_resume_point();
  std::vector<std::byte> events = protocol::encode(header);
  for (int i = 0; i < 2; ++i) {
    tracesync::match::PacketEvent event;
    event.time = 1'000 * (i + 1);
    event.trace = 2;
    event.tcp.seq = 77 + static_cast<uint32_t>(i);
    const auto* raw = reinterpret_cast<const std::byte*>(&event);
    events.insert(events.end(), raw, raw + sizeof event);
  }

  const std::vector<std::byte> rounds = protocol::encode_rounds(3);
  const bool ok = write(dir + "/open", 0, protocol::encode(open)) &&
                  write(dir + "/open_followed", 0, protocol::encode(followed)) &&
                  write(dir + "/open_attached_again", 0, protocol::encode(attached_again)) &&
                  write(dir + "/step_report_attached_again", 2, protocol::encode(live_report)) &&
                  write(dir + "/trace_info", 1, protocol::encode(a_trace())) &&
                  write(dir + "/step_report", 2, protocol::encode(report)) &&
                  write(dir + "/step_report_waiting", 2, protocol::encode(waited)) && write(dir + "/rounds", 3, rounds) &&
                  write(dir + "/events", 4, events) && write(dir + "/addressed", 5, protocol::addressed(2, rounds));
  return ok ? 0 : 1;
}
