// SPDX-License-Identifier: EPL-2.0
#include "session/signal_links.h"

#include <algorithm>
#include <map>

#include "session/signal_pairing.h"

namespace tracesync::session {

namespace {

v1::Problem problem(const std::string& source, const std::string& message) {
  v1::Problem p;
  p.set_source(source);
  p.set_message(message);
  return p;
}

// One clock domain's occurrences of one signal: its traces', merged.
struct DomainOccurrences {
  TraceIndex trace = 0;  // the first of its traces met: stands for the domain
  std::string host;
  std::vector<model::Nanoseconds> times;
};

std::string refusal_text(const v1::LinkSignal& s, const std::string& a, const std::string& b) {
  std::string out;
  auto add = [&](uint64_t count, const std::string& what) {
    if (count == 0) return;
    out += (out.empty() ? "" : ", ") + std::to_string(count) + " " + what;
  };
  add(s.unpaired_a(), "of " + a + " without a partner on " + b);
  add(s.unpaired_b(), "of " + b + " without a partner on " + a);
  add(s.ambiguous(), "ambiguous (several candidates)");
  add(s.not_aligned(), "met while the clocks were not aligned");
  add(s.cuts(), std::string(s.cuts() == 1 ? "cut" : "cuts") + " (the pairing started again)");
  return out;
}

// The session's first trace of `trace`'s clock domain: names the domain
// whichever of its traces delivered occurrences first.
TraceIndex first_of_domain(const Session& session, TraceIndex trace) {
  for (TraceIndex t = 0; t < trace; ++t) {
    if (session.same_domain(t, trace)) return t;
  }
  return trace;
}

// Folds the pairs of one pairing not folded before, in order, up to the
// first one not settled; returns how many pairs the link holds.
uint64_t fold(Session& session, SignalFolding& folding, std::size_t signal, TraceIndex one, TraceIndex other,
              const std::vector<SignalPair>& pairs, model::Nanoseconds jitter) {
  const TraceIndex first_one = first_of_domain(session, one), first_other = first_of_domain(session, other);
  const model::Nanoseconds one_until = folding.complete_until(one), other_until = folding.complete_until(other);
  uint64_t& held = folding.held[{signal, first_one, first_other}];
  for (const SignalPair& pair : pairs) {
    const model::Nanoseconds margin = settle_margin(pair.window);
    if (pair.a + margin > one_until || pair.b + margin > other_until) break;
    if (!folding.folded.insert({signal, first_one, first_other, pair.a, pair.b}).second) continue;
    session.add_signal_pair(one, pair.a, other, pair.b, jitter);
    ++held;
  }
  return held;
}

}  // namespace

SignalProblems add_signals(Session& session, const std::vector<ingest::SignalSpec>& signals, std::size_t first_kind,
                           const ingest::SignalOccurrences::ByTrace& occurrences,
                           const std::vector<ingest::TraceReport>& traces,
                           const std::vector<std::optional<TraceIndex>>& session_trace, SignalFolding* folding) {
  SignalProblems out;
  for (std::size_t s = 0; s < signals.size(); ++s) {
    const ingest::SignalSpec& spec = signals[s];
    const std::string said = "signal '" + spec.name + "': ";
    const std::size_t census = first_kind - 1 + s;
    bool recorded = false, any_read = false;
    for (const ingest::TraceReport& t : traces) {
      if (t.status == ingest::TraceStatus::kSkipped) continue;
      any_read = true;
      if (census >= t.info.app_census.size()) continue;
      const ingest::AppEventTally& tally = t.info.app_census[census];
      recorded = recorded || tally.send_recorded;
      if (!tally.problem.empty()) {
        out.input.push_back(problem(t.info.path, said + tally.problem + " (the filter's field)"));
      }
    }
    if (!any_read) continue;
    if (!recorded) {
      out.input.push_back(problem("", said + "no trace records its event " + spec.event + " (its spec: '" +
                                          spec.text + "')"));
      continue;
    }
    // Per domain, the occurrences that pass the filter.
    std::vector<DomainOccurrences> domains;
    std::vector<std::string> mismatched;
    for (const auto& [key, list] : occurrences) {
      if (key.second != s || key.first >= session_trace.size() || !session_trace[key.first]) continue;
      const TraceIndex trace = *session_trace[key.first];
      auto domain = std::find_if(domains.begin(), domains.end(),
                                 [&](const DomainOccurrences& d) { return session.same_domain(d.trace, trace); });
      if (domain == domains.end()) {
        domain = domains.insert(domains.end(), DomainOccurrences{trace, {}, {}});
        const ingest::TraceInfo& info = traces[key.first].info;
        domain->host = info.hostname.empty() ? info.domain_id : info.hostname;
      }
      bool mismatch = false;
      for (const ingest::SignalOccurrence& o : list) {
        if (spec.passes(o.key, &mismatch)) domain->times.push_back(o.time);
      }
      if (mismatch) mismatched.push_back(traces[key.first].info.path);
    }
    for (const std::string& path : mismatched) {
      out.input.push_back(problem(path, said + "the filter value '" + spec.filter_value + "' is not of the type of " +
                                            spec.event + "'s field `" + spec.filter_field->text() +
                                            "`: no occurrence can pass it"));
    }
    std::erase_if(domains, [](const DomainOccurrences& d) { return d.times.empty(); });
    if (domains.size() < 2) {
      out.input.push_back(problem(
          "", said + (domains.empty() ? std::string("no occurrence passes the filter in any trace")
                                      : "only " + domains.front().host +
                                            " records occurrences: a signal relates the clocks of two hosts or more")));
      continue;
    }
    for (DomainOccurrences& d : domains) {
      std::sort(d.times.begin(), d.times.end());
      d.times.erase(std::unique(d.times.begin(), d.times.end()), d.times.end());
      if (folding != nullptr) {  // only what is complete
        const model::Nanoseconds until = folding->complete_until(d.trace);
        d.times.erase(std::lower_bound(d.times.begin(), d.times.end(), until), d.times.end());
      }
    }
    const model::Nanoseconds jitter = pair_jitter(spec.jitter);
    for (std::size_t i = 0; i < domains.size(); ++i) {
      for (std::size_t k = i + 1; k < domains.size(); ++k) {
        const DomainOccurrences& one = domains[i];
        const DomainOccurrences& other = domains[k];
        const AlignmentSource from_messages = [&](model::Nanoseconds at) -> std::optional<Alignment> {
          const auto offset = session.message_offset(one.trace, other.trace, at);
          if (!offset) return std::nullopt;
          return Alignment{offset->first, offset->second};
        };
        const PairingOutcome paired = pair_signal(one.times, other.times, jitter, from_messages, spec.clocks_within);
        uint64_t pairs = paired.pairs.size();
        if (folding != nullptr) {
          pairs = fold(session, *folding, s, one.trace, other.trace, paired.pairs, jitter);
        } else {
          for (const SignalPair& pair : paired.pairs) session.add_signal_pair(one.trace, pair.a, other.trace, pair.b, jitter);
        }
        v1::LinkSignal report;
        report.set_name(spec.name);
        report.set_pairs(pairs);
        report.set_unpaired_a(paired.unpaired_a);
        report.set_unpaired_b(paired.unpaired_b);
        report.set_ambiguous(paired.ambiguous);
        report.set_cuts(paired.cuts);
        report.set_not_aligned(paired.not_aligned);
        report.set_aligned_by(paired.aligned_by);
        report.set_pair_jitter_ns(jitter);
        const std::string refused = refusal_text(report, one.host, other.host);
        if (!refused.empty()) {
          std::string notes;
          for (const std::string& n : paired.notes) notes += (notes.empty() ? "" : "; ") + n;
          out.pairing.push_back(problem("", said + one.host + " and " + other.host + ": " +
                                                std::to_string(paired.pairs.size()) + " pairs; occurrences left out: " +
                                                refused + (notes.empty() ? "" : " (" + notes + ", on " + one.host +
                                                                                    "'s clock)")));
        }
        if (pairs > 0) session.add_link_signal(one.trace, other.trace, std::move(report));
      }
    }
  }
  return out;
}

SignalProblems add_stream_signals(Session& session, const std::vector<ingest::SignalSpec>& signals,
                                  const StreamSignals& lines, const std::string& source) {
  SignalProblems out;
  // The stream as an experiment of one trace a host, each recording the
  // signals it has lines of (the census add_signals reads).
  std::vector<ingest::SignalSpec> usable;
  for (const ingest::SignalSpec& spec : signals) {
    if (!spec.filter_field) {
      usable.push_back(spec);
      continue;
    }
    out.input.push_back(problem(source, "signal '" + spec.name + "': a match stream's signal lines carry no " +
                                            "fields: filter=" + spec.filter_field->text() + "==" + spec.filter_value +
                                            " cannot apply (its spec: '" + spec.text + "')"));
  }
  std::map<std::string, std::size_t> host_index;
  std::vector<ingest::TraceReport> traces;
  std::vector<std::optional<TraceIndex>> session_trace;
  ingest::SignalOccurrences::ByTrace occurrences;
  for (std::size_t s = 0; s < usable.size(); ++s) {
    const auto named = lines.find(usable[s].event);
    if (named == lines.end()) continue;
    for (const auto& [host, times] : named->second) {
      auto [at, inserted] = host_index.try_emplace(host, traces.size());
      if (inserted) {
        ingest::TraceReport& t = traces.emplace_back();
        t.info.path = source;
        t.info.hostname = host;
        t.info.domain_id = host;
        t.info.app_census.resize(usable.size());
        session_trace.push_back(session.add_host(host));
      }
      traces[at->second].info.app_census[s].send_recorded = true;
      std::vector<ingest::SignalOccurrence>& list = occurrences[{static_cast<match::TraceIndex>(at->second), s}];
      for (const model::Nanoseconds t : times) list.push_back({t, {}});
    }
  }
  if (traces.empty() && !usable.empty()) {  // add_signals says nothing where nothing was read
    ingest::TraceReport& t = traces.emplace_back();
    t.info.path = source;
    session_trace.push_back(std::nullopt);
  }
  SignalProblems paired = add_signals(session, usable, 1, occurrences, traces, session_trace);
  for (auto* list : {&paired.input, &paired.pairing}) {
    std::vector<v1::Problem>& to = list == &paired.input ? out.input : out.pairing;
    for (v1::Problem& p : *list) to.push_back(std::move(p));
  }
  return out;
}

}  // namespace tracesync::session
