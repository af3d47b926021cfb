// SPDX-License-Identifier: EPL-2.0
// The JSON report written as a stream (snapshot/json_stream.h, write_json)
// is byte for byte the report the pre-s38 writer built as one nlohmann
// document and dumped (json_report_reference.cc): on random documents, on
// snapshots with every field set at random, on sessions of generated
// traffic (piecewise and linear, bending clocks, past the link budget,
// contradictions, two islands, names that are not UTF-8) and on the
// shared fixtures' traces. Pretty (the report), one line (`--history`'s
// and `tracesync live`'s), and other indents.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "snapshot/json_report.h"
#include "snapshot/json_report_reference.h"
#include "snapshot/json_stream.h"
#include "snapshot_cases.h"

namespace tracesync::snapshot {
namespace {

using cases::Generated;
using cases::RandomFields;
using cases::generated_snapshot;
using nlohmann::ordered_json;

constexpr int kIndents[] = {2, -1, 0, 4};

// What a writer gives: its text, or the error it threw.
template <typename Write>
std::string outcome(Write write) {
  try {
    return write();
  } catch (const std::exception& e) {
    return std::string("threw: ") + e.what();
  }
}

void expect_same_report(const v1::Snapshot& s, const std::string& what) {
  for (const int indent : kIndents) {
    const std::string old_text = outcome([&] { return reference::to_json(s, indent); });
    const std::string new_text = outcome([&] { return to_json(s, indent); });
    ASSERT_EQ(new_text, old_text) << what << ", indent " << indent;
    EXPECT_FALSE(old_text.starts_with("threw")) << what << ": " << old_text;
  }
}

// --- JsonStream on random documents ---------------------------------------

ordered_json random_scalar(std::mt19937_64& random) {
  static const std::vector<std::string> strings = {"", "a", "quote \" back \\ slash", "tab\tnew\nline\r",
                                                   "\x01\x1f control", "\xc3\xa9t\xc3\xa9 \xe2\x9c\x93", "/"};
  static const std::vector<double> doubles = {0.0, -0.0, 1.5, -2.25e-308, 1e300, 0.1, 123456789.123456789,
                                              std::numeric_limits<double>::quiet_NaN(),
                                              std::numeric_limits<double>::infinity()};
  switch (random() % 7) {
    case 0: return nullptr;
    case 1: return random() % 2 == 0;
    case 2: return static_cast<int64_t>(random());
    case 3: return static_cast<uint64_t>(random());
    case 4: return doubles[random() % doubles.size()];
    case 5: return std::ldexp(static_cast<double>(random() % 100000) - 50000.0, static_cast<int>(random() % 80) - 40);
    default: return strings[random() % strings.size()];
  }
}

ordered_json random_document(std::mt19937_64& random, int depth) {
  if (depth == 0 || random() % 4 == 0) return random_scalar(random);
  const std::size_t size = random() % 4;  // empty containers too
  if (random() % 2 == 0) {
    ordered_json array = ordered_json::array();
    for (std::size_t i = 0; i < size; ++i) array.push_back(random_document(random, depth - 1));
    return array;
  }
  ordered_json object = ordered_json::object();
  for (std::size_t i = 0; i < size; ++i) object["k" + std::to_string(i) + (i == 1 ? "\"\n" : "")] = random_document(random, depth - 1);
  return object;
}

// Writes `v` through the stream, each container opened and closed on the
// stream or handed over whole, as `random` says.
void stream_document(JsonStream& out, const ordered_json& v, std::mt19937_64& random) {
  if (!v.is_structured() || random() % 3 == 0) {
    out.value(v);
  } else if (v.is_array()) {
    out.begin_array();
    for (const ordered_json& element : v) stream_document(out, element, random);
    out.end_array();
  } else {
    out.begin_object();
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (random() % 4 == 0) {
        out.members(ordered_json{{it.key(), it.value()}});
      } else {
        out.key(it.key());
        stream_document(out, it.value(), random);
      }
    }
    out.end_object();
  }
}

TEST(JsonStream, WritesWhatDumpWritesOnRandomDocuments) {
  std::mt19937_64 random(31);
  for (int i = 0; i < 400; ++i) {
    const ordered_json document = random_document(random, 5);
    for (const int indent : kIndents) {
      std::ostringstream text;
      JsonStream out(text, indent);
      stream_document(out, document, random);
      ASSERT_EQ(text.str(), document.dump(indent)) << "document " << i << ", indent " << indent;
    }
  }
}

// --- Snapshots with every field set at random -----------------------------

TEST(JsonStreamReport, IsTheDocumentsReportOnSnapshotsWithEveryFieldAtRandom) {
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    RandomFields fields(seed);
    v1::Snapshot snapshot;
    fields.fill(snapshot, 4);
    expect_same_report(snapshot, "random snapshot " + std::to_string(seed));
  }
}

// --- Sessions of generated traffic -----------------------------------------

TEST(JsonStreamReport, IsTheDocumentsReportOnGeneratedSessions) {
  const std::vector<Generated> cases = {
      {"piecewise", hull::ClockModel::kPiecewise, std::nullopt, 0},
      {"piecewise past a budget of 1,000 messages", hull::ClockModel::kPiecewise, 1000, 0},
      {"piecewise with contradictions", hull::ClockModel::kPiecewise, std::nullopt, 3},
      {"linear", hull::ClockModel::kLinear, std::nullopt, 0},
      {"linear with contradictions", hull::ClockModel::kLinear, std::nullopt, 3},
  };
  for (const Generated& g : cases) {
    const v1::Snapshot snapshot = generated_snapshot(g);
    expect_same_report(snapshot, g.name);
    // The case has what it claims to test.
    ASSERT_EQ(snapshot.links_size(), 3) << g.name;
    int knots = 0;
    for (const v1::Link& link : snapshot.links()) {
      v1::LinkDetail detail;
      ASSERT_TRUE(detail.ParseFromString(link.detail())) << g.name;
      knots += detail.clock_map_size();
    }
    if (g.model == hull::ClockModel::kPiecewise) {
      EXPECT_GT(knots, 100) << g.name;
    }
    if (g.reversed > 0) {
      EXPECT_GT(snapshot.problems_size(), 0) << g.name;
    }
  }
}

// --- The shared fixtures' traces -------------------------------------------

TEST(JsonStreamReport, IsTheDocumentsReportOnTheFixturesTraces) {
  const std::vector<cases::FixtureSnapshot> fixtures = cases::fixture_snapshots();
  if (fixtures.empty()) {
    GTEST_SKIP() << "no shared fixtures: configure with -DTRACESYNC_SHARED_DIR=/work/shared (docs/testing.md)";
  }
  for (const cases::FixtureSnapshot& f : fixtures) {
    ASSERT_EQ(f.problem, "") << f.experiment;
    ASSERT_GE(f.snapshot.traces_size(), 2) << f.experiment;
    ASSERT_GE(f.snapshot.links_size(), 1) << f.experiment;
    expect_same_report(f.snapshot, f.experiment);
  }
}

}  // namespace
}  // namespace tracesync::snapshot
