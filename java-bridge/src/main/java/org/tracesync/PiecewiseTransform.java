// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.tracesync.proto.Segment;
import org.tracesync.proto.Trace;

/**
 * A trace's clock mapped onto its island's reference clock in pieces, as a snapshot's {@code
 * Trace.segments} give it: within a piece {@code t_ref = slope * t + offset}, and the truth at
 * {@code t} lies within the linear interpolation of the piece's two uncertainties. Pieces cover the
 * trace's span in time order, each starting where the previous one ends; the map is continuous and
 * strictly increasing, so no event of a trace is ever reordered.
 *
 * <p>Slopes and offsets are the engine's exact decimals of 34 significant digits ({@link
 * java.math.MathContext#DECIMAL128}), kept as {@link BigDecimal}: mapping multiplies and adds
 * exactly, so a timestamp of 1.7e18 ns maps to the nanosecond.
 *
 * <p><b>Outside the span</b> the end pieces continue: a time before the first piece maps through
 * the first piece, one after the last through the last, and {@link #uncertaintyAt(long)} gives the
 * bound at that end. No message says anything about those times, so that bound is not guaranteed
 * there; {@link #covers(long)} tells which times are inside.
 *
 * <p>Immutable.
 */
public final class PiecewiseTransform {
  /** One piece: over {@code [first, last]} of the trace's clock. */
  public static final class Piece {
    private final long first;
    private final long last;
    private final LinearTransform transform;
    private final double uncertaintyFirst;
    private final double uncertaintyLast;

    private Piece(long first, long last, LinearTransform transform, double uncertaintyFirst,
        double uncertaintyLast) {
      this.first = first;
      this.last = last;
      this.transform = transform;
      this.uncertaintyFirst = uncertaintyFirst;
      this.uncertaintyLast = uncertaintyLast;
    }

    public long first() {
      return first;
    }

    public long last() {
      return last;
    }

    public LinearTransform transform() {
      return transform;
    }

    /** The bound at {@code first}, ns of the reference clock. */
    public double uncertaintyFirst() {
      return uncertaintyFirst;
    }

    /** The bound at {@code last}, ns of the reference clock. */
    public double uncertaintyLast() {
      return uncertaintyLast;
    }

    /** The bound at {@code t}, interpolated linearly (extrapolated beyond the piece). */
    double uncertaintyAt(long t) {
      if (last == first || uncertaintyFirst == uncertaintyLast) {
        return Math.max(uncertaintyFirst, uncertaintyLast);
      }
      double share = (double) (t - first) / (double) (last - first);
      return uncertaintyFirst + (uncertaintyLast - uncertaintyFirst) * share;
    }

    @Override
    public String toString() {
      return "[" + first + ", " + last + "] " + transform + " +- " + uncertaintyFirst + ".."
          + uncertaintyLast + " ns";
    }
  }

  private final List<Piece> pieces;

  private PiecewiseTransform(List<Piece> pieces) {
    this.pieces = Collections.unmodifiableList(pieces);
  }

  /**
   * The transform of a trace of a snapshot.
   *
   * @throws IllegalArgumentException when the trace has no segments, a segment's slope or offset
   *     is not a decimal number or its slope is not positive, or the segments are not contiguous
   *     and in time order; the message names the trace and the segment
   */
  public static PiecewiseTransform of(Trace trace) {
    Objects.requireNonNull(trace, "trace");
    return of(trace.getSegmentsList(), "trace '" + trace.getName() + "'");
  }

  /**
   * From segments as a snapshot's {@code Trace.segments} holds them.
   *
   * @param what names their owner in error messages
   * @throws IllegalArgumentException as {@link #of(Trace)}
   */
  public static PiecewiseTransform of(List<Segment> segments, String what) {
    Objects.requireNonNull(segments, "segments");
    if (segments.isEmpty()) {
      throw new IllegalArgumentException(what + " has no segments");
    }
    List<Piece> pieces = new ArrayList<>(segments.size());
    for (int i = 0; i < segments.size(); i++) {
      Segment s = segments.get(i);
      String where = " of segment " + i + " of " + what;
      if (s.getLastNs() < s.getFirstNs()) {
        throw new IllegalArgumentException(
            "segment " + i + " of " + what + " ends (" + s.getLastNs() + ") before it starts ("
                + s.getFirstNs() + ")");
      }
      if (i > 0 && s.getFirstNs() != segments.get(i - 1).getLastNs()) {
        throw new IllegalArgumentException(
            "segment " + i + " of " + what + " starts at " + s.getFirstNs()
                + " but the previous one ends at " + segments.get(i - 1).getLastNs());
      }
      LinearTransform transform;
      try {
        transform = LinearTransform.of(s.getSlope().getExact(), s.getOffset().getExact());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(e.getMessage() + where, e);
      }
      pieces.add(new Piece(s.getFirstNs(), s.getLastNs(), transform, s.getUncertaintyFirstNs(),
          s.getUncertaintyLastNs()));
    }
    return new PiecewiseTransform(pieces);
  }

  /** The pieces in time order. */
  public List<Piece> pieces() {
    return pieces;
  }

  /** The first time of the span the pieces cover. */
  public long first() {
    return pieces.get(0).first;
  }

  /** The last time of the span the pieces cover. */
  public long last() {
    return pieces.get(pieces.size() - 1).last;
  }

  /** Whether {@code t} lies in the span, where the bound holds. */
  public boolean covers(long t) {
    return t >= first() && t <= last();
  }

  /**
   * The piece that maps {@code t}: the one whose span holds it (the later one where two meet,
   * both giving the same time there), the first before the span, the last after it.
   */
  public Piece pieceAt(long t) {
    int low = 0;
    int high = pieces.size() - 1;
    // The last piece whose first <= t (or the first piece).
    while (low < high) {
      int mid = (low + high + 1) >>> 1;
      if (pieces.get(mid).first <= t) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    return pieces.get(low);
  }

  /** {@code t} on the reference clock, exactly. */
  public BigDecimal map(long t) {
    return pieceAt(t).transform.applyExact(t);
  }

  /**
   * {@code t} on the reference clock rounded to the nearest nanosecond, ties to even.
   *
   * @throws ArithmeticException when the result does not fit in a long
   */
  public long mapRounded(long t) {
    return map(t).setScale(0, RoundingMode.HALF_EVEN).longValueExact();
  }

  /**
   * The bound at {@code t} in ns of the reference clock: the truth lies within it of {@link
   * #map(long)}. Linear within a piece; outside the span, the bound at the nearest end (not
   * guaranteed there: see the class comment).
   */
  public double uncertaintyAt(long t) {
    if (t < first()) {
      return pieces.get(0).uncertaintyFirst;
    }
    if (t > last()) {
      return pieces.get(pieces.size() - 1).uncertaintyLast;
    }
    return pieceAt(t).uncertaintyAt(t);
  }

  /** The largest bound over the span. */
  public double worstUncertainty() {
    double worst = 0;
    for (Piece p : pieces) {
      worst = Math.max(worst, Math.max(p.uncertaintyFirst, p.uncertaintyLast));
    }
    return worst;
  }

  @Override
  public String toString() {
    return "PiecewiseTransform" + pieces;
  }
}
