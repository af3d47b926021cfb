// SPDX-License-Identifier: EPL-2.0
// Names that are not UTF-8 (issue 20, item 4): a snapshot's strings are
// always UTF-8, as proto3 requires; the JSON report never throws; and the
// exact bytes of every name come back from the `*_raw` fields.

#include <gtest/gtest.h>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <google/protobuf/reflection.h>

#include <nlohmann/json.hpp>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "session/session.h"
#include "snapshot/base64.h"
#include "snapshot/exact_names.h"
#include "snapshot/json_report.h"
#include "snapshot/utf8.h"

namespace tracesync::session {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using nlohmann::json;

// Every string field of `message`, nested messages and map entries
// included, that is not UTF-8 ("Trace.name" and so on).
void find_invalid_strings(const Message& message, std::vector<std::string>& found) {
  const google::protobuf::Reflection& reflection = *message.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  reflection.ListFields(message, &fields);
  for (const FieldDescriptor* field : fields) {
    const std::string where = message.GetDescriptor()->name() + "." + field->name();
    if (field->type() == FieldDescriptor::TYPE_STRING) {
      const int n = field->is_repeated() ? reflection.FieldSize(message, field) : 1;
      for (int i = 0; i < n; ++i) {
        const std::string value = field->is_repeated() ? reflection.GetRepeatedString(message, field, i)
                                                       : reflection.GetString(message, field);
        if (!snapshot::is_utf8(value)) found.push_back(where);
      }
    } else if (field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      const int n = field->is_repeated() ? reflection.FieldSize(message, field) : 1;
      for (int i = 0; i < n; ++i) {
        find_invalid_strings(field->is_repeated() ? reflection.GetRepeatedMessage(message, field, i)
                                                  : reflection.GetMessage(message, field),
                             found);
      }
    }
  }
}

std::vector<std::string> invalid_strings(const Message& message) {
  std::vector<std::string> found;
  find_invalid_strings(message, found);
  return found;
}

// The exact bytes a JSON object gives for the name under `key`.
std::string exact(const json& object, const std::string& key) {
  if (!object.contains(key + "_raw")) return object.at(key).get<std::string>();
  const auto bytes = snapshot::from_base64(object.at(key + "_raw").get<std::string>());
  EXPECT_TRUE(bytes.has_value()) << object.at(key + "_raw");
  // The readable text is the bytes' readable text, whatever they are.
  EXPECT_EQ(object.at(key).get<std::string>(), snapshot::readable_text(bytes.value_or("")));
  return bytes.value_or("");
}

// Hosts that each exchange the hand-checked three messages with "hub".
Session session_of(const std::vector<std::string>& hosts, SessionOptions options = {}) {
  Session s(std::move(options));
  for (const std::string& host : hosts) {
    s.add_host_message("hub", 0, host, 10);
    s.add_host_message(host, 55, "hub", 50);
    s.add_host_message("hub", 100, host, 110);
  }
  return s;
}

TEST(ExactNames, ALatin1HostName) {
  const std::string latin1 = "h\xe9te";
  SessionOptions options;
  options.forced_references = {latin1};
  Session s = session_of({latin1}, options);
  v1::Problem problem;
  problem.set_source("/traces/" + latin1);
  problem.set_message("cannot read /traces/" + latin1);
  s.add_problem(problem);
  const v1::Snapshot snapshot = s.snapshot();
  EXPECT_EQ(invalid_strings(snapshot), std::vector<std::string>{});

  const v1::Trace& trace = snapshot.traces(1);
  EXPECT_EQ(trace.name(), "h\\xe9te");
  EXPECT_EQ(trace.name_raw(), latin1);
  EXPECT_EQ(trace.hostname_raw(), latin1);
  EXPECT_EQ(trace.domain_raw(), latin1);
  EXPECT_TRUE(trace.path().empty() && trace.path_raw().empty());
  EXPECT_EQ(snapshot.traces(0).name(), "hub");
  EXPECT_TRUE(snapshot.traces(0).name_raw().empty());  // UTF-8 names have none
  EXPECT_EQ(snapshot.links(0).b_raw(), latin1);
  EXPECT_EQ(snapshot.links(0).b_hostname_raw(), latin1);
  EXPECT_TRUE(snapshot.links(0).a_raw().empty());
  EXPECT_EQ(snapshot.islands(0).reference_raw(), latin1);  // forced
  ASSERT_EQ(snapshot.islands(0).domains_raw_size(), 2);
  EXPECT_EQ(snapshot.islands(0).domains_raw(0), "hub");
  EXPECT_EQ(snapshot.islands(0).domains_raw(1), latin1);
  EXPECT_EQ(snapshot.options().forced_references_raw(0), latin1);
  EXPECT_EQ(snapshot.problems(0).source_raw(), "/traces/" + latin1);
  EXPECT_EQ(snapshot.problems(0).message(), "cannot read /traces/h\\xe9te");

  // Valid proto3: protobuf refuses to parse strings that are not UTF-8.
  v1::Snapshot parsed;
  ASSERT_TRUE(parsed.ParseFromString(snapshot.SerializeAsString()));
  EXPECT_EQ(parsed.traces(1).name_raw(), latin1);

  const json report = json::parse(snapshot::to_json(snapshot));
  EXPECT_EQ(report["traces"][1]["name"], "h\\xe9te");
  EXPECT_EQ(report["traces"][1]["name_raw"], "aOl0ZQ==");
  EXPECT_EQ(exact(report["traces"][1], "hostname"), latin1);
  EXPECT_FALSE(report["traces"][0].contains("name_raw"));
  EXPECT_EQ(exact(report["links"][0], "b"), latin1);
  EXPECT_EQ(exact(report["links"][0], "b_hostname"), latin1);
  EXPECT_EQ(exact(report["islands"][0], "reference"), latin1);
  EXPECT_EQ(report["islands"][0]["domains_raw"], json::array({"aHVi", "aOl0ZQ=="}));
  EXPECT_EQ(report["options"]["forced_references_raw"], json::array({"aOl0ZQ=="}));
  EXPECT_EQ(exact(report["problems"][0], "source"), "/traces/" + latin1);
}

// Java cannot hold the bytes of a Latin-1 name: --reference (and
// Options.reference) also take the readable text the reports show.
TEST(ExactNames, AReferenceNamedByItsReadableText) {
  SessionOptions options;
  options.forced_references = {"h\\xe9te"};
  Session s = session_of({"h\xe9te"}, options);
  EXPECT_EQ(s.unresolved_references(), std::vector<std::string>{});
  const v1::Snapshot snapshot = s.snapshot();
  EXPECT_TRUE(snapshot.islands(0).forced());
  EXPECT_EQ(snapshot.islands(0).reference_raw(), "h\xe9te");
  // Readable text matches only names that are not UTF-8.
  SessionOptions escaped;
  escaped.forced_references = {"h\\xc3\\xa9te"};
  EXPECT_EQ(session_of({"h\xc3\xa9te"}, escaped).unresolved_references(), escaped.forced_references);
}

TEST(ExactNames, UTF8NamesComeOutAsTheyAre) {
  const std::vector<std::string> hosts = {"h\xc3\xb4te", "\xe5\x90\x8d\xe5\x89\x8d", "emoji-\xf0\x9f\x98\x80", "a\\xe9"};
  Session s = session_of(hosts);
  v1::Snapshot snapshot = s.snapshot();
  for (const v1::Trace& t : snapshot.traces()) {
    EXPECT_TRUE(t.name_raw().empty() && t.hostname_raw().empty() && t.domain_raw().empty()) << t.name();
  }
  EXPECT_EQ(snapshot.islands(0).domains_raw_size(), 0);
  const std::string report = snapshot::to_json(snapshot);
  EXPECT_EQ(report.find("_raw"), std::string::npos);
  EXPECT_NE(report.find("\"h\xc3\xb4te\""), std::string::npos);
  // Doing it again changes nothing.
  const std::string once = snapshot.SerializeAsString();
  snapshot::carry_exact_names(snapshot);
  EXPECT_EQ(snapshot.SerializeAsString(), once);
}

TEST(ExactNames, CarryingTwiceChangesNothing) {
  v1::Snapshot snapshot = session_of({"\xff", "x\xc3"}).snapshot();
  const std::string once = snapshot.SerializeAsString();
  snapshot::carry_exact_names(snapshot);
  EXPECT_EQ(snapshot.SerializeAsString(), once);
}

TEST(ExactNames, HistoryLinesCarryTheBytes) {
  Session s({});
  std::vector<std::string> lines;
  s.set_history_observer([&](uint64_t message, const v1::Link& link) {
    EXPECT_EQ(invalid_strings(link), std::vector<std::string>{});
    lines.push_back(snapshot::history_json_line(message, link));
  });
  s.add_host_message("a", 0, "b\xe9", 10);
  ASSERT_EQ(lines.size(), 1u);
  const json line = json::parse(lines[0]);
  EXPECT_EQ(exact(line, "b"), "b\xe9");
  EXPECT_EQ(line["a"], "a");
}

// A few hundred random byte strings as host names: the snapshot stays valid
// proto3, the JSON report is written, and every name comes back exactly.
TEST(ExactNames, RandomBytesAsHostNamesRoundTrip) {
  std::mt19937 random(4);
  std::set<std::string> names;
  while (names.size() < 300) {
    std::string name(1 + random() % 12, '\0');
    for (char& c : name) c = static_cast<char>(random() % 256);
    if (name != "hub") names.insert(name);
  }
  const std::vector<std::string> hosts(names.begin(), names.end());
  v1::Snapshot snapshot = session_of(hosts).snapshot();
  EXPECT_EQ(invalid_strings(snapshot), std::vector<std::string>{});
  v1::Snapshot parsed;
  ASSERT_TRUE(parsed.ParseFromString(snapshot.SerializeAsString()));

  std::string text;
  ASSERT_NO_THROW(text = snapshot::to_json(snapshot));
  const json report = json::parse(text);
  std::set<std::string> traces;
  std::set<std::string> domains;
  for (const json& t : report["traces"]) {
    traces.insert(exact(t, "name"));
    EXPECT_EQ(exact(t, "hostname"), exact(t, "name"));
    domains.insert(exact(t, "domain"));
  }
  names.insert("hub");
  EXPECT_EQ(traces, names);
  EXPECT_EQ(domains, names);
  std::set<std::string> linked;
  for (const json& l : report["links"]) {
    EXPECT_EQ(exact(l, "a_hostname"), exact(l, "a"));
    linked.insert(exact(l, "a"));
    linked.insert(exact(l, "b"));
  }
  EXPECT_EQ(linked, names);
  ASSERT_EQ(report["islands"].size(), 1u);
  const json& island = report["islands"][0];
  ASSERT_TRUE(island.contains("domains_raw"));
  std::set<std::string> in_island;
  for (const json& d : island["domains_raw"]) in_island.insert(snapshot::from_base64(d.get<std::string>()).value());
  EXPECT_EQ(in_island, names);
}

}  // namespace
}  // namespace tracesync::session
