// SPDX-License-Identifier: EPL-2.0
#include "ingest/process_followed_reader.h"

#include <cstdlib>
#include <filesystem>

namespace tracesync::ingest {

namespace {

namespace protocol = reader_protocol;

// A private directory for a followed folder's staging, or empty when none
// can be made (the process then stages in $TMPDIR, as in-process).
std::string make_staging_parent() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/tracesync-followed-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) return {};
  return pattern;
}

}  // namespace

ProcessFollowedReader::ProcessFollowedReader(std::vector<std::string> reading_command, const LiveSessionUrl& session,
                                             match::TraceIndex index, ReaderOptions options, EventSink& sink)
    : ProcessFollowedReader(std::move(reading_command), TraceSource{session.url, session.name(), std::nullopt}, index,
                            options, sink, {protocol::FollowedSource::Kind::kLiveSession, 0, {}}) {}

ProcessFollowedReader::ProcessFollowedReader(std::vector<std::string> reading_command, const std::string& folder,
                                             match::TraceIndex index, ReaderOptions options, EventSink& sink,
                                             std::chrono::milliseconds quiet_end)
    : ProcessFollowedReader(std::move(reading_command), TraceSource{folder, {}, std::nullopt}, index, options, sink,
                            {protocol::FollowedSource::Kind::kFolder, quiet_end.count(), make_staging_parent()}) {}

ProcessFollowedReader::ProcessFollowedReader(std::vector<std::string> reading_command, TraceSource source,
                                             match::TraceIndex index, ReaderOptions options, EventSink& sink,
                                             protocol::FollowedSource follow)
    : staging_(follow.staging_parent), lane_(std::make_unique<ReadingLane>(std::move(reading_command))) {
  reader_ = std::make_unique<ProcessTraceReader>(std::move(source), index, options, *lane_, 0, sink);
  reader_->follow(std::move(follow));
}

ProcessFollowedReader::~ProcessFollowedReader() {
  reader_.reset();
  lane_.reset();  // the process is killed and reaped: nothing writes in staging_ any more
  if (staging_.empty()) return;
  std::error_code ignored;
  std::filesystem::remove_all(staging_, ignored);
}

}  // namespace tracesync::ingest
