// SPDX-License-Identifier: EPL-2.0
// Base64 as the JSON files carry the exact bytes of names (RFC 4648).

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "snapshot/base64.h"

namespace tracesync::snapshot {
namespace {

TEST(Base64, Rfc4648TestVectors) {
  const std::vector<std::pair<std::string, std::string>> vectors = {
      {"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},         {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"}, {"h\xe9te", "aOl0ZQ=="},
      {"\xff\xfe\xfd", "//79"}};
  for (const auto& [bytes, text] : vectors) {
    EXPECT_EQ(to_base64(bytes), text);
    EXPECT_EQ(from_base64(text), bytes) << text;
  }
}

TEST(Base64, RefusesWhatIsNotPaddedStandardBase64) {
  for (const std::string text : {"Zg", "Zg=", "Z===", "Zm9v=", "Zm=v", "Zg==Zg==", "Zm9-", "Zm9_", "Zm 9v", "Zh==",
                                 "Zm9=", "===="}) {
    EXPECT_EQ(from_base64(text), std::nullopt) << text;
  }
}

TEST(Base64, RandomBytesRoundTrip) {
  std::mt19937 random(20);
  for (int round = 0; round < 500; ++round) {
    std::string bytes(random() % 40, '\0');
    for (char& c : bytes) c = static_cast<char>(random() % 256);
    EXPECT_EQ(from_base64(to_base64(bytes)), bytes);
  }
}

}  // namespace
}  // namespace tracesync::snapshot
