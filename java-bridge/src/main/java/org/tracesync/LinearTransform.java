// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Objects;
import org.tracesync.proto.Decimal;
import org.tracesync.proto.Trace;

/**
 * A trace's clock mapped onto its island's reference clock: {@code t_ref = slope * t + offset},
 * nanoseconds in, nanoseconds out. The engine writes slope and offset as exact decimals of 34
 * significant digits; this class keeps them as {@link BigDecimal} and maps with exact arithmetic,
 * so a timestamp of 1.7e18 ns is mapped to the nanosecond (a double cannot even hold it).
 *
 * <p>Immutable. Two transforms are equal when their slopes and offsets are numerically equal.
 */
public final class LinearTransform {
  /** t_ref = t. */
  public static final LinearTransform IDENTITY = new LinearTransform(BigDecimal.ONE, BigDecimal.ZERO);

  private final BigDecimal slope;
  private final BigDecimal offset;

  private LinearTransform(BigDecimal slope, BigDecimal offset) {
    this.slope = slope;
    this.offset = offset;
  }

  /**
   * The transform of a trace of a snapshot onto its island's reference.
   *
   * @throws IllegalArgumentException when the trace's slope or offset is not a decimal number
   */
  public static LinearTransform of(Trace trace) {
    Objects.requireNonNull(trace, "trace");
    String where = " of trace '" + trace.getName() + "'";
    return of(parse(trace.getSlope(), "slope" + where), parse(trace.getOffset(), "offset" + where));
  }

  /**
   * From decimal strings, as the snapshot's {@code Decimal.exact} holds them.
   *
   * @throws IllegalArgumentException when either is not a decimal number or the slope is not
   *     positive
   */
  public static LinearTransform of(String slope, String offset) {
    return of(parse(slope, "slope"), parse(offset, "offset"));
  }

  /**
   * @throws IllegalArgumentException when the slope is not positive (a clock runs forwards)
   */
  public static LinearTransform of(BigDecimal slope, BigDecimal offset) {
    Objects.requireNonNull(slope, "slope");
    Objects.requireNonNull(offset, "offset");
    if (slope.signum() <= 0) {
      throw new IllegalArgumentException("the slope of a clock transform must be positive, not " + slope);
    }
    return new LinearTransform(slope, offset);
  }

  public BigDecimal slope() {
    return slope;
  }

  public BigDecimal offset() {
    return offset;
  }

  /** {@code slope * t + offset}, exactly. */
  public BigDecimal applyExact(long t) {
    return slope.multiply(BigDecimal.valueOf(t)).add(offset);
  }

  /**
   * {@code slope * t + offset} rounded to the nearest nanosecond, ties to even.
   *
   * @throws ArithmeticException when the result does not fit in a long
   */
  public long apply(long t) {
    return applyExact(t).setScale(0, RoundingMode.HALF_EVEN).longValueExact();
  }

  /**
   * The transform that undoes this one, {@code t = (t_ref - offset) / slope}, with its slope and
   * offset rounded to {@code context} (the engine's own precision is {@link
   * MathContext#DECIMAL128}).
   */
  public LinearTransform inverse(MathContext context) {
    Objects.requireNonNull(context, "context");
    return new LinearTransform(
        BigDecimal.ONE.divide(slope, context), offset.negate().divide(slope, context));
  }

  /** {@code this.after(inner)}: first {@code inner}, then this; exact. */
  public LinearTransform after(LinearTransform inner) {
    Objects.requireNonNull(inner, "inner");
    return new LinearTransform(
        slope.multiply(inner.slope), slope.multiply(inner.offset).add(offset));
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof LinearTransform)) {
      return false;
    }
    LinearTransform that = (LinearTransform) other;
    return slope.compareTo(that.slope) == 0 && offset.compareTo(that.offset) == 0;
  }

  @Override
  public int hashCode() {
    return Objects.hash(slope.stripTrailingZeros(), offset.stripTrailingZeros());
  }

  @Override
  public String toString() {
    return "t_ref = " + slope.toPlainString() + " * t + " + offset.toPlainString();
  }

  private static BigDecimal parse(Decimal decimal, String what) {
    return parse(decimal.getExact(), what);
  }

  private static BigDecimal parse(String text, String what) {
    Objects.requireNonNull(text, what);
    try {
      return new BigDecimal(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "the " + what + " is not a decimal number: '" + text + "'", e);
    }
  }
}
