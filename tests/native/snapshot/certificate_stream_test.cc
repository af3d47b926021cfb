// SPDX-License-Identifier: EPL-2.0
// The certificate written as a stream (snapshot::write_certificate) is byte
// for byte the certificate the pre-s39 writer built as one nlohmann
// document and dumped (certificate_reference.cc): on snapshots with every
// field set at random, on sessions of generated traffic (bending clocks,
// past the link budget, contradictions, two islands), on the shared
// fixtures' traces and on link details cut short; with and without the
// events' traces and stream files cited; pretty (what `sync --certificate`
// writes), one line, and other indents. That `verify` accepts what it
// writes: cli_exact_test.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "certificate_reference.h"
#include "snapshot/certificate.h"
#include "snapshot_cases.h"

namespace tracesync::snapshot {
namespace {

constexpr int kIndents[] = {2, -1, 0, 4};

// Cites every event somewhere, from its time alone: a trace of the sending
// or receiving domain (or none), a stream file (or none, or a name to escape).
CitedEvents cite_by_time(const std::vector<std::string>& senders, int64_t send_ns,
                         const std::vector<std::string>& receivers, int64_t receive_ns) {
  const auto trace = [](const std::vector<std::string>& traces, int64_t t) {
    const auto n = static_cast<uint64_t>(t);
    return traces.empty() || n % 5 == 0 ? std::string() : traces[n % traces.size()];
  };
  const auto stream = [](int64_t t) {
    const auto n = static_cast<uint64_t>(t) % 4;
    return n == 0 ? std::string() : n == 1 ? "channel0_" + std::to_string(t % 3) : "odd \"name\"\t" + std::to_string(n);
  };
  return {trace(senders, send_ns), stream(send_ns), trace(receivers, receive_ns), stream(receive_ns + 1)};
}

// What a writer gives: its text, or the error it threw.
template <typename Write>
std::string outcome(Write write) {
  try {
    return write();
  } catch (const std::exception& e) {
    return std::string("threw: ") + e.what();
  }
}

void expect_same_certificate(const v1::Snapshot& s, const std::string& what) {
  for (const bool citing : {false, true}) {
    const EventCitation cite = citing ? EventCitation(cite_by_time) : EventCitation();
    for (const int indent : kIndents) {
      const std::string old_text = outcome([&] { return reference::certificate_json(s, indent, cite); });
      const std::string new_text = outcome([&] { return certificate_json(s, indent, cite); });
      ASSERT_EQ(new_text, old_text) << what << ", indent " << indent << (citing ? ", cited" : "");
      EXPECT_FALSE(old_text.starts_with("threw")) << what << ": " << old_text;
    }
  }
}

// The number of segments the certificate holds, and of those that name the
// messages pinning Lmin.
std::pair<std::size_t, std::size_t> segments_and_pinned(const std::string& certificate) {
  std::size_t segments = 0, pinned = 0;
  const nlohmann::json document = nlohmann::json::parse(certificate);
  for (const auto& link : document["links"]) {
    for (const auto& segment : link["segments"]) {
      ++segments;
      if (segment.contains("lmin")) ++pinned;
    }
  }
  return {segments, pinned};
}

TEST(CertificateStream, IsTheDocumentsCertificateOnSnapshotsWithEveryFieldAtRandom) {
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    cases::RandomFields fields(seed);
    v1::Snapshot snapshot;
    fields.fill(snapshot, 4);
    expect_same_certificate(snapshot, "random snapshot " + std::to_string(seed));
  }
}

TEST(CertificateStream, IsTheDocumentsCertificateOnGeneratedSessions) {
  const std::vector<cases::Generated> generated = {
      {"piecewise past a budget of 1,000 messages", hull::ClockModel::kPiecewise, 1000, 0},
      {"piecewise with contradictions", hull::ClockModel::kPiecewise, std::nullopt, 3},
      {"linear", hull::ClockModel::kLinear, std::nullopt, 0},
  };
  for (const cases::Generated& g : generated) {
    const v1::Snapshot snapshot = cases::generated_snapshot(g);
    expect_same_certificate(snapshot, g.name);
    // The case has what it claims to test: segments, pinned lines, paths.
    const auto [segments, pinned] = segments_and_pinned(certificate_json(snapshot));
    EXPECT_GE(segments, g.model == hull::ClockModel::kPiecewise ? 4U : 3U) << g.name;
    EXPECT_GE(pinned, 2U) << g.name;
    EXPECT_EQ(nlohmann::json::parse(certificate_json(snapshot))["paths"].size(), 5U) << g.name;
  }
}

// The writer reads a link's segments alone from its serialized detail; on
// a detail that is not well formed it gives what the whole parse gave.
TEST(CertificateStream, IsTheDocumentsCertificateOnDetailsCutShort) {
  const v1::Snapshot whole = cases::generated_snapshot({"piecewise", hull::ClockModel::kPiecewise, std::nullopt, 3});
  ASSERT_GE(segments_and_pinned(certificate_json(whole)).first, 4U);
  for (const double cut : {0.0, 0.1, 0.37, 0.5, 0.83, 0.999}) {
    v1::Snapshot s = whole;
    for (v1::Link& link : *s.mutable_links()) {
      link.mutable_detail()->resize(static_cast<std::size_t>(cut * static_cast<double>(link.detail().size())));
    }
    expect_same_certificate(s, "details cut at " + std::to_string(cut));
  }
}

TEST(CertificateStream, IsTheDocumentsCertificateOnTheFixturesTraces) {
  const std::vector<cases::FixtureSnapshot> fixtures = cases::fixture_snapshots();
  if (fixtures.empty()) {
    GTEST_SKIP() << "no shared fixtures: configure with -DTRACESYNC_SHARED_DIR=/work/shared (docs/testing.md)";
  }
  for (const cases::FixtureSnapshot& f : fixtures) {
    ASSERT_EQ(f.problem, "") << f.experiment;
    ASSERT_GE(f.snapshot.links_size(), 1) << f.experiment;
    expect_same_certificate(f.snapshot, f.experiment);
    EXPECT_GE(segments_and_pinned(certificate_json(f.snapshot)).second, 1U) << f.experiment;
  }
}

}  // namespace
}  // namespace tracesync::snapshot
