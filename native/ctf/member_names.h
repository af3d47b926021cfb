// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string>

namespace tracesync::ctf {

// How CTF member names are compared, in one place: `bare` drops one
// leading underscore (FieldClass::member, the read plans' requests and
// variant labels, the metadata writers' names for what a member is for);
// the scanner's network and application plans compare a member's name with
// the names the decoders look for as babeltrace2's readers do:
// `compared_name` takes babeltrace2's name of the member (CTF 1.8 TSDL's
// escaping underscore dropped: `__seq` is `_seq`; CTF 2 names as written)
// and then one leading underscore less.
inline std::string bare(const std::string& name) {
  return !name.empty() && name.front() == '_' ? name.substr(1) : name;
}

inline std::string compared_name(const std::string& written, bool tsdl_names) {
  return bare(tsdl_names ? bare(written) : written);
}

}  // namespace tracesync::ctf
