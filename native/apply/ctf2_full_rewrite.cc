// SPDX-License-Identifier: EPL-2.0
#include "apply/ctf2_full_rewrite.h"

#include <fstream>
#include <system_error>

#include "apply/full_rewrite_copy.h"
#include "ctf/ctf2_writer.h"
#include "ctf/trace_metadata.h"
#include "ctf/tsdl_writer.h"

namespace tracesync::apply {

namespace fs = std::filesystem;

namespace {

bool write_file(const fs::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  return static_cast<bool>(out);
}

// A directory removed, with what it holds, when it goes out of scope.
struct RemovedAfter {
  fs::path path;
  ~RemovedAfter() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

}  // namespace

std::string write_ctf2_full_rewrite_copy(const fs::path& from, const fs::path& to, const PiecewiseTransform& transform,
                                         bool* bad_input) {
  std::string error;
  const auto metadata = ctf::read_trace_metadata(from / "metadata", &error);
  *bad_input = true;
  if (!metadata) return "its CTF 2 metadata cannot be read: " + error;
  const auto tsdl = ctf::write_tsdl(metadata->trace, &error);
  if (!tsdl) {
    return "the full rewrite reads through babeltrace2 2.0, which needs CTF 1.8 metadata, and its CTF 2 metadata "
           "has no CTF 1.8 form: " + error;
  }
  *bad_input = false;
  // The view: the stream files as they are, the metadata as CTF 1.8.
  const RemovedAfter view{to.parent_path() / ("." + to.filename().string() + ".ctf18-view")};
  std::error_code ec;
  fs::create_directories(view.path, ec);
  if (ec) return "cannot make the CTF 1.8 view of it at " + view.path.string() + ": " + ec.message();
  for (const fs::directory_entry& entry : fs::directory_iterator(from, ec)) {
    const std::string name = entry.path().filename().string();
    if (name == "metadata" || name.empty() || name.front() == '.' || !entry.is_regular_file()) continue;
    fs::create_symlink(fs::absolute(entry.path()), view.path / name, ec);
    if (ec) return "cannot link " + entry.path().string() + " into its CTF 1.8 view: " + ec.message();
  }
  if (ec) return "cannot list " + from.string() + ": " + ec.message();
  if (!write_file(view.path / "metadata", *tsdl)) return "cannot write its CTF 1.8 view's metadata in " + view.path.string();
  if (std::string e = write_full_rewrite_copy(view.path, to, transform); !e.empty()) return e;
  // The copy as CTF 2, as the trace was.
  auto fail = [&](const std::string& what) {
    fs::remove_all(to, ec);
    return what;
  };
  const auto written = ctf::read_trace_metadata(to / "metadata", &error);
  if (!written) return fail("its rewritten copy's metadata cannot be read back: " + error);
  const auto ctf2 = ctf::write_ctf2(written->trace, &error);
  if (!ctf2) return fail("its rewritten copy's metadata cannot be said in CTF 2: " + error);
  if (!write_file(to / "metadata", *ctf2)) return fail("cannot write the CTF 2 metadata of " + to.string());
  return "";
}

}  // namespace tracesync::apply
