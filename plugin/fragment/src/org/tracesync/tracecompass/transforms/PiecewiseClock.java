// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.transforms;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.List;

/**
 * A trace's clock mapped onto its island's reference in pieces, t_ref = slope * t + offset within each, as the
 * bridge's PiecewiseTransform maps it: the piece is the last one starting at or before t (the first piece before the
 * span), and the exact result is rounded to the nanosecond, ties to even. Only java.base types, so that it
 * serializes into a trace's supplementary files and reads back in any class loader that can see this class.
 *
 * <p>Results beyond the range of a long (only for times far outside any trace, such as Trace Compass's "end of time"
 * Long.MAX_VALUE) are clamped to Long.MIN_VALUE or Long.MAX_VALUE instead of failing.
 */
public final class PiecewiseClock implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
  private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

  /** One piece: from {@code first} (ns of the trace's clock) on, t_ref = slope * t + offset. */
  public record Piece(long first, BigDecimal slope, BigDecimal offset) {}

  private final long[] firsts;
  private final BigDecimal[] slopes;
  private final BigDecimal[] offsets;

  /** @throws IllegalArgumentException when there is no piece, a slope is not positive, or pieces are out of order */
  public PiecewiseClock(List<Piece> pieces) {
    int n = pieces.size();
    firsts = new long[n];
    slopes = new BigDecimal[n];
    offsets = new BigDecimal[n];
    for (int i = 0; i < n; i++) {
      Piece piece = pieces.get(i);
      firsts[i] = piece.first();
      slopes[i] = piece.slope();
      offsets[i] = piece.offset();
    }
    check();
  }

  public int pieceCount() {
    return firsts.length;
  }

  /** t on the reference clock, rounded to the nanosecond (ties to even), clamped to the range of a long. */
  public long map(long t) {
    int i = pieceIndex(t);
    BigInteger rounded = slopes[i].multiply(BigDecimal.valueOf(t)).add(offsets[i])
        .setScale(0, RoundingMode.HALF_EVEN).toBigIntegerExact();
    if (rounded.compareTo(LONG_MAX) > 0) return Long.MAX_VALUE;
    if (rounded.compareTo(LONG_MIN) < 0) return Long.MIN_VALUE;
    return rounded.longValue();
  }

  /** The last piece whose first is at or before t, or the first piece. */
  private int pieceIndex(long t) {
    int found = Arrays.binarySearch(firsts, t);
    if (found >= 0) {
      // Pieces meet where one ends and the next starts; firsts are strictly increasing, so this is the later one.
      return found;
    }
    int insertion = -found - 1;
    return Math.max(0, insertion - 1);
  }

  private void check() {
    if (firsts.length == 0) throw new IllegalArgumentException("a piecewise clock needs at least one piece");
    for (int i = 0; i < firsts.length; i++) {
      if (slopes[i] == null || offsets[i] == null) throw new IllegalArgumentException("piece " + i + " is incomplete");
      if (slopes[i].signum() <= 0) {
        throw new IllegalArgumentException("piece " + i + " has slope " + slopes[i] + ": a clock runs forwards");
      }
      if (i > 0 && firsts[i] <= firsts[i - 1]) {
        throw new IllegalArgumentException("piece " + i + " starts at " + firsts[i] + ", not after piece " + (i - 1)
            + " (" + firsts[i - 1] + ")");
      }
    }
  }

  /** A damaged or forged supplementary file must not give a clock that breaks map(). */
  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    if (firsts == null || slopes == null || offsets == null || slopes.length != firsts.length
        || offsets.length != firsts.length) {
      throw new InvalidObjectException("a piecewise clock's arrays are missing or of different lengths");
    }
    try {
      check();
    } catch (IllegalArgumentException e) {
      throw new InvalidObjectException(e.getMessage());
    }
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof PiecewiseClock that)) return false;
    if (!Arrays.equals(firsts, that.firsts)) return false;
    for (int i = 0; i < firsts.length; i++) {
      if (slopes[i].compareTo(that.slopes[i]) != 0 || offsets[i].compareTo(that.offsets[i]) != 0) return false;
    }
    return true;
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(firsts);
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("PiecewiseClock[");
    for (int i = 0; i < firsts.length; i++) {
      if (i > 0) s.append(", ");
      s.append("from ").append(firsts[i]).append(": ").append(slopes[i].toPlainString()).append(" * t + ")
          .append(offsets[i].toPlainString());
    }
    return s.append(']').toString();
  }
}
