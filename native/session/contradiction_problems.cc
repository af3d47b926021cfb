// SPDX-License-Identifier: EPL-2.0
#include "session/contradiction_problems.h"

namespace tracesync::session {
namespace {

std::string in_traces(const LinkEnd& end) {
  if (end.traces.empty()) return "";
  std::string out = " (in ";
  for (std::size_t i = 0; i < end.traces.size(); ++i) out += (i == 0 ? "" : " or ") + end.traces[i];
  return out + ")";
}

// "sent on A at X ns (in T) and received on B at Y ns (in U)"
std::string message_text(const hull::LinkMessage& m, const LinkEnd& a, const LinkEnd& b, bool with_traces) {
  const bool a_to_b = m.is_lower();
  const LinkEnd& sender = a_to_b ? a : b;
  const LinkEnd& receiver = a_to_b ? b : a;
  const model::Nanoseconds send = a_to_b ? m.point.x : m.point.y;
  const model::Nanoseconds receive = a_to_b ? m.point.y : m.point.x;
  return "sent on " + sender.host + " at " + std::to_string(send) + " ns" + (with_traces ? in_traces(sender) : "") +
         " and received on " + receiver.host + " at " + std::to_string(receive) + " ns" +
         (with_traces ? in_traces(receiver) : "");
}

}  // namespace

std::vector<v1::Problem> contradiction_problems(const std::string& quality, const LinkEnd& a, const LinkEnd& b,
                                                const std::vector<hull::Contradiction>& contradictions) {
  std::vector<v1::Problem> out;
  const std::string link = "link " + a.host + " / " + b.host;
  for (std::size_t i = 0; i < contradictions.size() && i < kShownContradictions; ++i) {
    const hull::Contradiction& c = contradictions[i];
    std::string text = link + " is " + quality + ": no line fits the message " + message_text(c.message, a, b, true);
    if (c.against.empty()) {
      text += " with the messages before it";
    } else {
      text += " with the messages that pin the lines before it (";
      for (std::size_t j = 0; j < c.against.size(); ++j) {
        text += (j == 0 ? "" : "; ") + message_text(c.against[j], a, b, false);
      }
      text += ")";
    }
    text += "; a damaged timestamp in one of these traces would do that (docs/bad-input.md, \"Damaged time\")";
    v1::Problem p;
    const LinkEnd& sender = c.message.is_lower() ? a : b;
    p.set_source(sender.traces.size() == 1 ? sender.traces.front() : link);
    p.set_message(text);
    out.push_back(std::move(p));
  }
  if (contradictions.size() > kShownContradictions) {
    v1::Problem p;
    p.set_source(link);
    p.set_message(link + ": " + std::to_string(contradictions.size() - kShownContradictions) +
                  " more messages contradict the ones before them");
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace tracesync::session
