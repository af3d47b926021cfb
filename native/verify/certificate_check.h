// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/rational.h"
#include "verify/knot_bounds.h"

namespace tracesync::verify {

// A report or certificate that cannot be read as one (a missing field, a
// number that is not a decimal): bad input, not a disagreement.
class VerifyInputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A link segment whose bound is tighter than its cited messages allow, the
// same at both ends, as the engine's local envelope is: what checking it
// against every message of the segment needs (AllowedSides::check_envelopes).
struct EnvelopeClaim {
  std::string name;  // "link A / B segment k"
  std::string a, b;
  std::size_t segment = 0;
  int64_t first = 0, last = 0;
  model::Rational alpha, beta;  // the estimate, as printed
  // How fast the truth may leave the estimate: within the band the allowance
  // puts around the mean rates Lmin and Lmax prove, and within the rate limit.
  model::Rational cone_rate;
  double reported = 0;  // the bound at both ends
};

// A link's clock map built from local bands (a link of several segments
// under a clock-stability assumption): its knots' bounds are re-derived from
// every message of the link when the traces or the match file are given
// (knot_bounds.h), and are otherwise taken as reported.
struct KnotClaim {
  std::string name;  // "link A / B"
  std::string a, b;
  std::vector<ReportedKnot> knots;
  int64_t milli_ppm = 0;   // the assumed stability, in thousandths of a ppm
  bool verified = false;   // set by AllowedSides::check_knots: every knot checked
  std::size_t checked = 0;  // the knots it checked (a map's stretch outside every band instant is not)
};

// What checking a report against its certificate found.
struct Verdict {
  std::size_t link_segments = 0;    // segments whose lines were re-derived from their messages
  std::size_t messages = 0;         // messages cited for them
  std::size_t link_bounds = 0;      // segment-end bounds covering what the cited messages allow
  // Segments whose bounds are tighter than that, as the engine's local
  // envelope is (one bound for both ends): they rest on messages the
  // certificate does not cite, and are not verified (see below).
  std::size_t bounds_resting_on_stability = 0;
  // Those, for checking against every message when the traces or the match
  // file are given; and how many of them that check verified.
  std::vector<EnvelopeClaim> envelope_claims;
  std::size_t link_bounds_from_every_message = 0;
  // Clock maps from local bands, and (with the traces or the match file) how
  // many of their knots' bounds were re-derived, at how many instants.
  std::vector<KnotClaim> knot_claims;
  std::size_t knot_bounds = 0;
  std::size_t band_instants = 0;
  std::size_t trace_segments = 0;   // trace segments recomputed as exact compositions
  std::size_t trace_bounds = 0;     // trace segment-end bounds checked against their links'
  // With the traces given (verify REPORT CERTIFICATE TRACES...): the traces
  // re-read, and the cited messages found in them (every one, when agreed).
  bool traces_checked = false;
  std::size_t traces_read = 0;
  std::size_t messages_in_traces = 0;
  // Of their send and receive events, those the certificate places in a
  // stream file and that were found in that file.
  std::size_t events_in_cited_stream_files = 0;
  // Completeness, with the traces or a match file (AllowedSides): the
  // messages found on the allowed side of their segment's lines, those in
  // segments that are not ACCURATE, and those on no link of the report.
  bool sides_checked = false;
  std::size_t messages_on_allowed_side = 0;
  std::size_t messages_in_unbounded_segments = 0;
  std::size_t messages_on_no_link = 0;
  // The first disagreement, empty when everything agrees.
  std::string disagreement;
  // What the certificate cannot vouch for (a segment that is not ACCURATE,
  // a link without a bound), one line each.
  std::vector<std::string> unverified;
};

// Checks a JSON report (`tracesync sync --format json`) against its
// certificate (`--certificate`), in exact rational arithmetic, stopping at
// the first disagreement (docs/verify.md):
// - every ACCURATE link segment: its Lmin and Lmax re-derived from the cited
//   messages alone (not the engine's hull code), the cited pinning pairs
//   pinning them, every cited message on its allowed side, the report's
//   lines, alpha and beta equal to them up to the engine's quad rounding,
//   and the bound at both ends at least what the cited messages allow under
//   the clock-stability allowance (every line they allow, within the
//   allowance's slack; a bound tighter than that and the same at both ends
//   is the engine's local envelope, resting on messages the certificate
//   does not cite: counted as unverified);
// - every trace: its path a chain of tree links from its domain to its
//   island's reference, and every segment of its transform the exact
//   composition of the links' lines (alpha and beta as printed) or clock
//   maps along that path, rounded once, to the last printed digit; its bound
//   at each end the exact sum of its links' bounds along the path there,
//   grown by the allowance beyond their spans (TraceBounds), to the
//   double's rounding.
// Throws VerifyInputError when either document is malformed.
Verdict check_certificate(const nlohmann::json& report, const nlohmann::json& certificate);

// The "not verified" line of the bounds resting on messages the certificate
// does not cite, (re)written for verdict.bounds_resting_on_stability.
void say_unverified_envelopes(Verdict& verdict);

// The "not verified" lines of the clock maps whose knot bounds were not
// re-derived, (re)written from verdict.knot_claims.
void say_unverified_knots(Verdict& verdict);

}  // namespace tracesync::verify
