// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.sync;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.tracesync.PiecewiseTransform;
import org.tracesync.proto.Trace;
import org.tracesync.tracecompass.transforms.PiecewiseClock;

/**
 * A trace's transform of several pieces (the piecewise clock model) as the clock Trace Compass applies. A trace of one
 * piece has none: its single line is applied as Trace Compass's own linear transform (TraceTransform).
 */
public final class TracePieces {
  private TracePieces() {}

  /**
   * The pieces of {@code trace}, when it has more than one.
   *
   * @throws IllegalStateException when the snapshot's segments are not a valid piecewise transform (the message says
   *     which and why)
   */
  public static Optional<PiecewiseClock> of(Trace trace) {
    if (trace.getSegmentsCount() < 2) return Optional.empty();
    PiecewiseTransform transform;
    try {
      transform = PiecewiseTransform.of(trace);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
    return Optional.of(clock(transform));
  }

  /** The same mapping, piece for piece. */
  public static PiecewiseClock clock(PiecewiseTransform transform) {
    List<PiecewiseClock.Piece> pieces = new ArrayList<>();
    for (PiecewiseTransform.Piece piece : transform.pieces()) {
      pieces.add(new PiecewiseClock.Piece(piece.first(), piece.transform().slope(), piece.transform().offset()));
    }
    return new PiecewiseClock(pieces);
  }
}
