// SPDX-License-Identifier: EPL-2.0
#include "snapshot_cases.h"

#include <filesystem>
#include <functional>

#include "session/session.h"
#include "session/synchronization.h"

namespace tracesync::snapshot::cases {
namespace {

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

}  // namespace

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

std::vector<FixtureSnapshot> fixture_snapshots() {
  const std::filesystem::path shared = TRACESYNC_SHARED_DIR;
  if (shared.empty() || !std::filesystem::is_directory(shared / "fixtures")) return {};
  std::vector<FixtureSnapshot> snapshots;
  for (const char* experiment : {"lttng-modules-2.1-addons", "lttng-modules-2.4-addons/django-vote-v1"}) {
    FixtureSnapshot& f = snapshots.emplace_back();
    f.experiment = experiment;
    session::Synchronization sync({}, {});
    f.problem = sync.add_trace_path((shared / "fixtures" / experiment).string());
    if (!f.problem.empty()) continue;
    sync.run({}, nullptr);
    f.snapshot = sync.snapshot();
  }
  return snapshots;
}

}  // namespace tracesync::snapshot::cases
