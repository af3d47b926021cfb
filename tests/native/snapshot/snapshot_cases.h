// SPDX-License-Identifier: EPL-2.0
#pragma once

// Snapshots the report and certificate writers are tested on (json_stream_test.cc,
// certificate_stream_test.cc): every field at random, and sessions of
// generated traffic.

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <google/protobuf/reflection.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "hull/estimator_factory.h"
#include "snapshot/tracesync.pb.h"

namespace tracesync::snapshot::cases {

// Fills a protobuf message with every field at random (some left absent,
// so that optional branches go both ways); a link's detail is a random
// LinkDetail, serialized.
class RandomFields {
 public:
  explicit RandomFields(uint64_t seed) : random_(seed) {}

  // Sets every field of `message`, down to `depth` levels of messages;
  // repeated fields get 0 to 3 entries.
  void fill(google::protobuf::Message& message, int depth) {
    const google::protobuf::Descriptor& d = *message.GetDescriptor();
    const google::protobuf::Reflection& r = *message.GetReflection();
    for (int f = 0; f < d.field_count(); ++f) {
      const google::protobuf::FieldDescriptor* field = d.field(f);
      if (random_() % 6 == 0) continue;  // some absent: optional branches both ways
      if (field->cpp_type() == google::protobuf::FieldDescriptor::CPPTYPE_MESSAGE && depth == 0) continue;
      const int n = field->is_repeated() ? static_cast<int>(random_() % 4) : 1;
      for (int i = 0; i < n; ++i) set(message, r, field, depth);
    }
  }

 private:
  void set(google::protobuf::Message& message, const google::protobuf::Reflection& r, const google::protobuf::FieldDescriptor* field, int depth) {
    const bool repeated = field->is_repeated();
    switch (field->cpp_type()) {
      case google::protobuf::FieldDescriptor::CPPTYPE_INT32: {
        const auto v = static_cast<int32_t>(random_());
        repeated ? r.AddInt32(&message, field, v) : r.SetInt32(&message, field, v);
        break;
      }
      case google::protobuf::FieldDescriptor::CPPTYPE_INT64: {
        const auto v = static_cast<int64_t>(random_()) >> (random_() % 64);
        repeated ? r.AddInt64(&message, field, v) : r.SetInt64(&message, field, v);
        break;
      }
      case google::protobuf::FieldDescriptor::CPPTYPE_UINT32: {
        const auto v = static_cast<uint32_t>(random_() >> (random_() % 64));
        repeated ? r.AddUInt32(&message, field, v) : r.SetUInt32(&message, field, v);
        break;
      }
      case google::protobuf::FieldDescriptor::CPPTYPE_UINT64: {
        const uint64_t v = random_() >> (random_() % 64);
        repeated ? r.AddUInt64(&message, field, v) : r.SetUInt64(&message, field, v);
        break;
      }
      case google::protobuf::FieldDescriptor::CPPTYPE_DOUBLE: {
        const double v = random_scalar_double();
        repeated ? r.AddDouble(&message, field, v) : r.SetDouble(&message, field, v);
        break;
      }
      case google::protobuf::FieldDescriptor::CPPTYPE_FLOAT: {
        // Within float's range: a double beyond it does not convert.
        const auto v = static_cast<float>(std::clamp(random_scalar_double(), -1e30, 1e30));
        repeated ? r.AddFloat(&message, field, v) : r.SetFloat(&message, field, v);
        break;
      }
      case google::protobuf::FieldDescriptor::CPPTYPE_BOOL: {
        const bool v = random_() % 2 == 0;
        repeated ? r.AddBool(&message, field, v) : r.SetBool(&message, field, v);
        break;
      }
      case google::protobuf::FieldDescriptor::CPPTYPE_ENUM: {
        const google::protobuf::EnumDescriptor& e = *field->enum_type();
        const int v = e.value(static_cast<int>(random_() % e.value_count()))->number();
        repeated ? r.AddEnumValue(&message, field, v) : r.SetEnumValue(&message, field, v);
        break;
      }
      case google::protobuf::FieldDescriptor::CPPTYPE_STRING: {
        const std::string v = string_for(field, depth);
        repeated ? r.AddString(&message, field, v) : r.SetString(&message, field, v);
        break;
      }
      case google::protobuf::FieldDescriptor::CPPTYPE_MESSAGE:
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

  std::string string_for(const google::protobuf::FieldDescriptor* field, int depth) {
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
    if (field->type() == google::protobuf::FieldDescriptor::TYPE_BYTES) {
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

// A session of generated traffic: three links, two islands (one domain's
// name not UTF-8), clocks true, drifting, wandering and stepping.
struct Generated {
  std::string name;
  hull::ClockModel model = hull::ClockModel::kPiecewise;
  std::optional<std::size_t> budget;  // the links' message budget
  int reversed = 0;                   // messages received before they were sent
};
v1::Snapshot generated_snapshot(const Generated& g);

// The shared fixtures' two real experiments (the LTTng 2.1 pair and the
// first django-vote run), each synchronized; none when the fixtures are
// absent (TRACESYNC_SHARED_DIR unset or without them: the test skips).
struct FixtureSnapshot {
  std::string experiment;
  std::string problem;  // why its traces could not be added; empty when they were
  v1::Snapshot snapshot;
};
std::vector<FixtureSnapshot> fixture_snapshots();

}  // namespace tracesync::snapshot::cases
