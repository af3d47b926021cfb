// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/point.h"
#include "simulate/true_clock.h"

namespace tracesync::simulate {

// A truth file that cannot be read or a report that does not fit it; the
// message names the file and what is wrong.
class TruthError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct TruthHost {
  uint32_t index = 0;
  std::string name;
  std::string domain;  // the clock UUID, the domain id of its trace
  TrueClock clock;
};

// A transmitted segment, as far as the truth checker needs it.
struct TruthMessage {
  uint32_t sender = 0;
  uint32_t receiver = 0;
  model::Nanoseconds send_local_ns = 0;
  std::optional<model::Nanoseconds> receive_local_ns;  // none when lost
};

// What truth.json (format tracesync-truth/2, truth_writer.h) says.
struct Truth {
  model::Nanoseconds start_ns = 0;
  model::Nanoseconds end_ns = 0;
  std::vector<TruthHost> hosts;
  std::vector<std::pair<model::Nanoseconds, model::Nanoseconds>> gaps;  // true time, [begin, end)
  bool has_messages = false;
  std::vector<TruthMessage> messages;

  // The host whose domain, or else whose name, is `id`; null if none.
  const TruthHost* host(std::string_view id) const;
};

// Throw TruthError naming `source` (a file name) and the problem.
Truth parse_truth(std::string_view text, const std::string& source);
Truth read_truth(const std::string& path);

}  // namespace tracesync::simulate
