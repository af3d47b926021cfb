// SPDX-License-Identifier: EPL-2.0
#include "session/breach_problems.h"

#include <sstream>

namespace tracesync::session {
namespace {

std::string ppm_text(double ppm) {
  std::ostringstream out;
  out << ppm << " ppm";
  return out.str();
}

std::string seconds_text(model::Nanoseconds ns) {
  std::ostringstream out;
  out.precision(3);
  out << std::fixed << static_cast<double>(ns) / 1e9 << " s";
  return out.str();
}

}  // namespace

std::vector<v1::Problem> breach_problems(const LinkEnd& a, const LinkEnd& b, double stability_ppm,
                                         const std::vector<hull::Breach>& breaches) {
  std::vector<v1::Problem> out;
  const std::string link = "link " + a.host + " / " + b.host;
  for (std::size_t i = 0; i < breaches.size() && i < kShownBreaches; ++i) {
    const hull::Breach& breach = breaches[i];
    std::string text = link + " is APPROXIMATE: from " + std::to_string(breach.span.first) + " to " +
                       std::to_string(breach.span.last) + " ns of " + a.host + "'s clock (" +
                       seconds_text(breach.span.last - breach.span.first) + "), its messages contradict " +
                       "--clock-stability " + ppm_text(stability_ppm) + ": ";
    if (breach.needed_ppm > 0) {
      text += "they need " + ppm_text(breach.needed_ppm) + " there, and its bound there rests on that";
    } else {
      text += "no stability up to twice the rate limit fits them (a clock that stepped, or a damaged timestamp); "
              "its map bridges that span";
    }
    text += " (docs/local-band.md, \"Breaches\")";
    v1::Problem p;
    p.set_source(link);
    p.set_message(text);
    out.push_back(std::move(p));
  }
  if (breaches.size() > kShownBreaches) {
    v1::Problem p;
    p.set_source(link);
    p.set_message(link + ": " + std::to_string(breaches.size() - kShownBreaches) +
                  " more spans where its messages contradict --clock-stability (the report's \"breaches\" lists them)");
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace tracesync::session
