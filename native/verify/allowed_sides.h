// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "verify/certificate_check.h"
#include "verify/message_lines.h"

namespace tracesync::verify {

// Completeness (docs/verify.md): the certificate cites only the messages on
// each segment's hull, so that its lines follow from them; that no other
// message contradicts those lines is checked against every message of the
// traces (or of a match file). Each message must lie in a segment of its
// link (a segment spans its first to its last message on a's clock) and,
// when that segment is ACCURATE, on the allowed side of both its Lmin and
// its Lmax (an a -> b message on or above them, a b -> a one on or below).
// Then every message allows both lines, so the lines the cited messages pin
// are the ones all the messages pin: adding messages can only remove lines,
// and these two stay. Exact: orientations in integers.
class AllowedSides {
 public:
  // The links and their ACCURATE segments' lines through the pairs the
  // certificate cites for them (which check_certificate found to be the
  // report's). Throws VerifyInputError when the certificate is malformed.
  explicit AllowedSides(const nlohmann::json& certificate);

  // A message's link and direction, found once for a pair of domains.
  struct Route {
    int link = -1;  // -1: the two domains have no link in the certificate
    bool a_to_b = true;
  };
  Route route(std::string_view sender, std::string_view receiver) const;

  // Checks one message sent at `send` (sender's clock) and received at
  // `receive`; the first one on the wrong side, or in no segment, is the
  // disagreement, in words naming its link, times and what it contradicts.
  void check(const Route& route, int64_t send, int64_t receive);
  void check(std::string_view sender, int64_t send, std::string_view receiver, int64_t receive) {
    check(route(sender, receiver), send, receive);
  }

  // Keeps the messages of the segments these claims are about (before the
  // messages are checked), so that check_envelopes can use them.
  void keep_messages_for(const std::vector<EnvelopeClaim>& claims);
  // After every message: each claimed envelope bound must cover the
  // envelope of every message kept for its segment (cone_envelope.h),
  // within the printed double's rounding; each that does moves from
  // verdict.bounds_resting_on_stability to link_bounds_from_every_message.
  // The first that does not is the disagreement, named with both numbers.
  std::string check_envelopes(Verdict& verdict) const;

  // Keeps every message of the links these clock maps are about, whatever
  // its segment, so that check_knots can re-derive their local bands.
  void keep_messages_for(const std::vector<KnotClaim>& claims);
  // After every message: each claimed clock map's knot bounds re-derived from
  // every message of its link (knot_bounds.h); each map that agrees is marked
  // verified and counted in verdict.knot_bounds and band_instants. The first
  // that does not is the disagreement, naming the link and the knot.
  std::string check_knots(Verdict& verdict);

  std::size_t on_their_side() const { return on_their_side_; }
  // Messages in a segment that is not ACCURATE (no line to be on a side of).
  std::size_t in_unbounded_segments() const { return in_unbounded_segments_; }
  // Messages between two domains the certificate has no link for, or
  // within one domain.
  std::size_t on_no_link() const { return on_no_link_; }
  const std::string& disagreement() const { return disagreement_; }

 private:
  struct Segment {
    int64_t first = 0, last = 0;
    bool accurate = false;
    // Lmin and Lmax, each through an a -> b point and a b -> a point.
    std::pair<MessagePoint, MessagePoint> lmin, lmax;
    bool keep = false;  // for check_envelopes
    std::vector<MessagePoint> a_to_b, b_to_a;
  };
  struct Link {
    std::string name;
    std::vector<Segment> segments;  // in time order
    bool keep = false;              // for check_knots: every message, a -> b and b -> a
    std::vector<MessagePoint> a_to_b, b_to_a;
  };

  std::string where(const Link& link, bool a_to_b, int64_t send, int64_t receive) const;

  std::map<std::pair<std::string, std::string>, Route> routes_;
  std::vector<Link> links_;
  std::size_t on_their_side_ = 0, in_unbounded_segments_ = 0, on_no_link_ = 0;
  std::string disagreement_;
};

}  // namespace tracesync::verify
