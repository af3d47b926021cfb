// SPDX-License-Identifier: EPL-2.0
#pragma once

// proto3 strings must be UTF-8 (protobuf-java refuses a snapshot whose
// strings are not), but names are bytes from the input. A snapshot carries
// a name that is not UTF-8 twice: readable text in its string field and the
// exact bytes in the field's `*_raw` sibling (tracesync.proto, at the top).

#include <string>

#include "snapshot/tracesync.pb.h"

namespace tracesync::snapshot {

// Makes every string of `snapshot` UTF-8: a name field that is not gets its
// readable text (readable_text()) and its bytes in its `*_raw` sibling;
// prose that is not gets its readable text. Session::snapshot() ends with
// this; doing it again changes nothing.
void carry_exact_names(v1::Snapshot& snapshot);
// The same for one link (the lines of `--history`).
void carry_exact_names(v1::Link& link);

// The exact bytes of a name field: its `*_raw` sibling when set, else its text.
inline const std::string& exact_name(const std::string& text, const std::string& raw) {
  return raw.empty() ? text : raw;
}

}  // namespace tracesync::snapshot
