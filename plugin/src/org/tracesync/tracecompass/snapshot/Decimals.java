// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.snapshot;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Optional;
import org.tracesync.proto.Decimal;

/**
 * Reads the snapshot's exact decimals. The native side prints 34 significant digits (BigDecimal's DECIMAL128, as
 * Trace Compass uses); the double beside them is only for quick display.
 */
public final class Decimals {
  /** Enough digits to see a drift of a few parts per billion in a slope. */
  public static final MathContext DISPLAY = new MathContext(15, RoundingMode.HALF_EVEN);

  private Decimals() {}

  /** The exact value, or empty when the field was never set. */
  public static Optional<BigDecimal> exact(Decimal decimal) {
    if (decimal == null || decimal.getExact().isEmpty()) return Optional.empty();
    try {
      return Optional.of(new BigDecimal(decimal.getExact()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a decimal number: '" + decimal.getExact() + "'", e);
    }
  }

  /** The exact value; a missing one reads as {@code fallback}. */
  public static BigDecimal exactOr(Decimal decimal, BigDecimal fallback) {
    return exact(decimal).orElse(fallback);
  }

  /** A short rendering for tables: 15 significant digits, no exponent. */
  public static String display(BigDecimal value) {
    return value.round(DISPLAY).stripTrailingZeros().toPlainString();
  }
}
