// SPDX-License-Identifier: EPL-2.0
#include "ingest/live_trace_reader.h"

#include <charconv>

namespace tracesync::ingest {

namespace {

constexpr std::string_view kScheme = "net://";
constexpr std::string_view kDefaultLivePort = "5344";  // lttng-relayd's live port

bool valid_port(std::string_view text) {
  unsigned port = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), port);
  return error == std::errc() && end == text.data() + text.size() && port > 0 && port < 65536;
}

}  // namespace

std::optional<LiveSessionUrl> parse_live_session_url(std::string_view text, std::string& problem) {
  const std::string expected = "expected net://HOST[:PORT]/host/HOSTNAME/SESSION";
  if (text.substr(0, kScheme.size()) != kScheme) {
    problem = "'" + std::string(text) + "' is not a live session URL: " + expected;
    return std::nullopt;
  }
  const std::string_view rest = text.substr(kScheme.size());
  const std::size_t slash = rest.find('/');
  const std::string_view authority = rest.substr(0, slash);
  const std::string_view path = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
  LiveSessionUrl url;
  url.url = std::string(text);
  // An IPv6 address is in brackets: its port follows the closing one.
  const std::size_t bracket = authority.rfind(']');
  const std::size_t colon = authority.rfind(':');
  const bool has_port = colon != std::string_view::npos && (bracket == std::string_view::npos || colon > bracket);
  const std::string_view host = has_port ? authority.substr(0, colon) : authority;
  const std::string_view port = has_port ? authority.substr(colon + 1) : kDefaultLivePort;
  if (host.empty() || !valid_port(port)) {
    problem = "'" + std::string(text) + "' names no relay host and port: " + expected;
    return std::nullopt;
  }
  url.relay = std::string(kScheme) + std::string(host) + ":" + std::string(port);
  constexpr std::string_view kHost = "host/";
  const std::size_t session_slash = path.find('/', kHost.size());
  if (path.substr(0, kHost.size()) != kHost || session_slash == std::string_view::npos ||
      session_slash == kHost.size() || session_slash + 1 == path.size() ||
      path.find('/', session_slash + 1) != std::string_view::npos) {
    problem = "'" + std::string(text) + "' names no session: " + expected +
              " (`babeltrace2 -i lttng-live " + url.relay + "` lists the relay's sessions)";
    return std::nullopt;
  }
  url.hostname = std::string(path.substr(kHost.size(), session_slash - kHost.size()));
  url.session = std::string(path.substr(session_slash + 1));
  return url;
}

ReaderOptions LiveTraceReader::live_options(ReaderOptions options) {
  options.input = CtfInput::kLive;
  options.stream_ranges = false;    // a stream being written has no range yet
  options.step_back_tolerance = 0;  // the source muxes its streams by time
  return options;
}

LiveTraceReader::LiveTraceReader(const LiveSessionUrl& session, match::TraceIndex index, ReaderOptions options,
                                 EventSink& sink)
    : reader_(TraceSource{session.url, session.name(), std::nullopt}, index, live_options(options), sink) {}

}  // namespace tracesync::ingest
