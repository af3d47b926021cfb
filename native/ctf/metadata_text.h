// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace tracesync::ctf {

// The TSDL text of a CTF 1.8 `metadata` file: as it is when plain, the
// concatenated contents of its packets when packetized (CTF 1.8, section
// 7.1; LTTng writes it so). nullopt with `error` naming the file, the packet
// and its byte offset when the file cannot be read or a packet is damaged.
std::optional<std::string> read_metadata_text(const std::filesystem::path& file, std::string* error);

// The same, of the file's bytes; `name` is what errors call the file.
std::optional<std::string> metadata_text(const std::string& bytes, const std::string& name, std::string* error);

}  // namespace tracesync::ctf
