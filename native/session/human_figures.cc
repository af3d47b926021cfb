// SPDX-License-Identifier: EPL-2.0
#include "session/human_figures.h"

#include <map>
#include <string>

#include "model/quad.h"

namespace tracesync::session {
namespace {

model::Quad value_of(const v1::Decimal& d) { return model::parse_decimal(d.exact()).value_or(d.approx()); }

}  // namespace

void add_human_figures(v1::Snapshot& s) {
  std::map<std::string, std::string> hostname;
  for (v1::Trace& t : *s.mutable_traces()) {
    const model::Quad slope = value_of(t.slope());
    const model::Quad offset = value_of(t.offset());
    // In quad precision: slope * t of a 1.7e18 ns timestamp loses the shift in a double.
    const model::Quad first = static_cast<model::Quad>(t.first_ns());
    t.set_drift_ppm(static_cast<double>((slope - 1) * 1'000'000));
    t.set_shift_ns(static_cast<double>((slope - 1) * first + offset));
    if (!t.hostname().empty()) hostname.emplace(t.domain(), t.hostname());
  }
  for (v1::Link& l : *s.mutable_links()) {
    if (const auto a = hostname.find(l.a()); a != hostname.end()) l.set_a_hostname(a->second);
    if (const auto b = hostname.find(l.b()); b != hostname.end()) l.set_b_hostname(b->second);
  }
}

}  // namespace tracesync::session
