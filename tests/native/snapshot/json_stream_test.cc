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

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <google/protobuf/reflection.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "session/session.h"
#include "session/synchronization.h"
#include "snapshot/json_report.h"
#include "snapshot/json_report_reference.h"
#include "snapshot/json_stream.h"

namespace tracesync::snapshot {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
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

class RandomFields {
 public:
  explicit RandomFields(uint64_t seed) : random_(seed) {}

  // Sets every field of `message`, down to `depth` levels of messages;
  // repeated fields get 0 to 3 entries.
  void fill(Message& message, int depth) {
    const google::protobuf::Descriptor& d = *message.GetDescriptor();
    const google::protobuf::Reflection& r = *message.GetReflection();
    for (int f = 0; f < d.field_count(); ++f) {
      const FieldDescriptor* field = d.field(f);
      if (random_() % 6 == 0) continue;  // some absent: optional branches both ways
      if (field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE && depth == 0) continue;
      const int n = field->is_repeated() ? static_cast<int>(random_() % 4) : 1;
      for (int i = 0; i < n; ++i) set(message, r, field, depth);
    }
  }

 private:
  void set(Message& message, const google::protobuf::Reflection& r, const FieldDescriptor* field, int depth) {
    const bool repeated = field->is_repeated();
    switch (field->cpp_type()) {
      case FieldDescriptor::CPPTYPE_INT32: {
        const auto v = static_cast<int32_t>(random_());
        repeated ? r.AddInt32(&message, field, v) : r.SetInt32(&message, field, v);
        break;
      }
      case FieldDescriptor::CPPTYPE_INT64: {
        const auto v = static_cast<int64_t>(random_()) >> (random_() % 64);
        repeated ? r.AddInt64(&message, field, v) : r.SetInt64(&message, field, v);
        break;
      }
      case FieldDescriptor::CPPTYPE_UINT32: {
        const auto v = static_cast<uint32_t>(random_() >> (random_() % 64));
        repeated ? r.AddUInt32(&message, field, v) : r.SetUInt32(&message, field, v);
        break;
      }
      case FieldDescriptor::CPPTYPE_UINT64: {
        const uint64_t v = random_() >> (random_() % 64);
        repeated ? r.AddUInt64(&message, field, v) : r.SetUInt64(&message, field, v);
        break;
      }
      case FieldDescriptor::CPPTYPE_DOUBLE: {
        const double v = random_scalar_double();
        repeated ? r.AddDouble(&message, field, v) : r.SetDouble(&message, field, v);
        break;
      }
      case FieldDescriptor::CPPTYPE_FLOAT: {
        // Within float's range: a double beyond it does not convert.
        const auto v = static_cast<float>(std::clamp(random_scalar_double(), -1e30, 1e30));
        repeated ? r.AddFloat(&message, field, v) : r.SetFloat(&message, field, v);
        break;
      }
      case FieldDescriptor::CPPTYPE_BOOL: {
        const bool v = random_() % 2 == 0;
        repeated ? r.AddBool(&message, field, v) : r.SetBool(&message, field, v);
        break;
      }
      case FieldDescriptor::CPPTYPE_ENUM: {
        const google::protobuf::EnumDescriptor& e = *field->enum_type();
        const int v = e.value(static_cast<int>(random_() % e.value_count()))->number();
        repeated ? r.AddEnumValue(&message, field, v) : r.SetEnumValue(&message, field, v);
        break;
      }
      case FieldDescriptor::CPPTYPE_STRING: {
        const std::string v = string_for(field, depth);
        repeated ? r.AddString(&message, field, v) : r.SetString(&message, field, v);
        break;
      }
      case FieldDescriptor::CPPTYPE_MESSAGE:
        fill(repeated ? *r.AddMessage(&message, field) : *r.MutableMessage(&message, field), depth - 1);
        break;
    }
  }

  double random_scalar_double() {
    static const std::vector<double> special = {0.0, -0.0, 1.0, 0.1, 1e-9, -3.5e12, 2.5e-310, 1e308,
                                                std::numeric_limits<double>::quiet_NaN()};
    if (random_() % 3 == 0) return special[random_() % special.size()];
    return std::ldexp(static_cast<double>(static_cast<int64_t>(random_() % 2000001) - 1000000),
                      static_cast<int>(random_() % 120) - 60);
  }

  std::string string_for(const FieldDescriptor* field, int depth) {
    // A link's detail is a serialized LinkDetail: one, filled at random.
    if (field->name() == "detail" && field->containing_type()->name() == "Link") {
      v1::LinkDetail detail;
      fill(detail, depth);
      return detail.SerializeAsString();
    }
    // The writer looks at the algorithm's name.
    if (field->name() == "algorithm") {
      static const std::vector<std::string> names = {"hull", "linreg", "window-replace", ""};
      return names[random_() % names.size()];
    }
    // Exact bytes: anything, UTF-8 or not.
    if (field->type() == FieldDescriptor::TYPE_BYTES) {
      std::string bytes(random_() % 6, '\0');
      for (char& c : bytes) c = static_cast<char>(random_());
      return bytes;
    }
    // Text fields are UTF-8 (exact_names.h), escapes and all.
    static const std::vector<std::string> texts = {"", "host-1", "a \"quoted\" \\ name", "line\nbreak\ttab",
                                                   "\xc3\xa9t\xc3\xa9", "\x7f\x01", "0.999999999999999999999999999999991"};
    return texts[random_() % texts.size()];
  }

  std::mt19937_64 random_;
};

TEST(JsonStreamReport, IsTheDocumentsReportOnSnapshotsWithEveryFieldAtRandom) {
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    RandomFields fields(seed);
    v1::Snapshot snapshot;
    fields.fill(snapshot, 4);
    expect_same_report(snapshot, "random snapshot " + std::to_string(seed));
  }
}

// --- Sessions of generated traffic -----------------------------------------

constexpr model::Nanoseconds kSecond = 1'000'000'000;

// A host's clock at true time t (ns from the start).
using Clock = std::function<double(double)>;

// Messages both ways between each pair, `rate` a second each way for
// `seconds`, delays 20 to 120 us on the true time; `reversed` messages
// arrive before they leave (a contradiction).
void exchange(session::Session& s, const std::string& a, const Clock& ca, const std::string& b, const Clock& cb,
              int seconds, int rate, std::mt19937_64& random, int reversed = 0) {
  std::uniform_real_distribution<double> delay(20'000.0, 120'000.0);
  for (int i = 0; i < seconds * rate; ++i) {
    const double t = 5.0 * kSecond + static_cast<double>(i) * kSecond / rate;
    const double d1 = delay(random), d2 = delay(random);
    s.add_host_message(a, static_cast<model::Nanoseconds>(ca(t)), b, static_cast<model::Nanoseconds>(cb(t + d1)));
    const double u = t + 0.3 * kSecond / rate;
    s.add_host_message(b, static_cast<model::Nanoseconds>(cb(u)), a, static_cast<model::Nanoseconds>(ca(u + d2)));
  }
  for (int i = 0; i < reversed; ++i) {
    const double t = 7.0 * kSecond + i * 1000.0;
    s.add_host_message(a, static_cast<model::Nanoseconds>(ca(t)), b, static_cast<model::Nanoseconds>(cb(t - 5e6)));
  }
}

const Clock kTrue = [](double t) { return t; };
const Clock kDrifting = [](double t) { return 3e9 + t * (1 + 40e-6); };
// Bends: its rate wanders a few ppm around 1 every minute or so.
const Clock kWandering = [](double t) { return 7e9 + t * (1 - 20e-6) + 2e4 * std::sin(t / 9.0e9); };
// Steps: 30 ppm faster after 2 minutes.
const Clock kStepping = [](double t) {
  const double knee = 120.0 * kSecond;
  return -2e9 + (t < knee ? t : knee + (t - knee) * (1 + 30e-6));
};

struct Generated {
  std::string name;
  hull::ClockModel model = hull::ClockModel::kPiecewise;
  std::optional<std::size_t> budget;
  int reversed = 0;
};

v1::Snapshot generated_snapshot(const Generated& g) {
  session::SessionOptions options;
  options.estimator.clock_model = g.model;
  options.estimator.link_budget = g.budget;
  session::Session s(options);
  s.set_matching_options("tcp", 2 * kSecond, 1);
  std::mt19937_64 random(7);
  exchange(s, "ref", kTrue, "wander", kWandering, 150, 8, random);
  exchange(s, "ref", kTrue, "steps", kStepping, 180, 4, random, g.reversed);
  exchange(s, "drift", kDrifting, "h\xff\xfe", kTrue, 60, 5, random);  // a second island; a name not UTF-8
  s.finish();
  return s.snapshot();
}

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
  const std::filesystem::path shared = TRACESYNC_SHARED_DIR;
  if (shared.empty() || !std::filesystem::is_directory(shared / "fixtures")) {
    GTEST_SKIP() << "no shared fixtures: configure with -DTRACESYNC_SHARED_DIR=/work/shared (docs/testing.md)";
  }
  for (const char* experiment : {"lttng-modules-2.1-addons", "lttng-modules-2.4-addons/django-vote-v1"}) {
    session::Synchronization sync({}, {});
    ASSERT_EQ(sync.add_trace_path((shared / "fixtures" / experiment).string()), "") << experiment;
    sync.run({}, nullptr);
    const v1::Snapshot snapshot = sync.snapshot();
    ASSERT_GE(snapshot.traces_size(), 2) << experiment;
    ASSERT_GE(snapshot.links_size(), 1) << experiment;
    expect_same_report(snapshot, experiment);
  }
}

}  // namespace
}  // namespace tracesync::snapshot
