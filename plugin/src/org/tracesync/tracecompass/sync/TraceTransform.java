// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.sync;

import java.math.BigDecimal;
import java.math.RoundingMode;
import org.tracesync.proto.Trace;
import org.tracesync.tracecompass.snapshot.Decimals;

/**
 * One trace's transform onto its island's reference, t_ref = slope * t + offset, as exact decimals (the offset is
 * absolute, DESIGN.md), and the form in which Trace Compass takes it.
 */
public record TraceTransform(BigDecimal slope, BigDecimal offset) {
  public static final TraceTransform IDENTITY = new TraceTransform(BigDecimal.ONE, BigDecimal.ZERO);

  public static TraceTransform of(Trace trace) {
    return new TraceTransform(Decimals.exactOr(trace.getSlope(), BigDecimal.ONE),
        Decimals.exactOr(trace.getOffset(), BigDecimal.ZERO));
  }

  /** True when the transform changes no timestamp (the reference's own traces). */
  public boolean isIdentity() {
    return slope.compareTo(BigDecimal.ONE) == 0 && offset.signum() == 0;
  }

  /**
   * The (slope, offset) to hand to Trace Compass's TimestampTransformFactory.createLinear(BigDecimal, BigDecimal).
   * That factory turns a slope equal to BigDecimal.ONE into a pure offset with offset.longValueExact(), which throws
   * on a fractional offset (an INCOMPLETE link's estimate can fall half-way between two nanoseconds), and compares
   * with equals(), which sees "1.000" as different from "1". So a slope of one becomes exactly BigDecimal.ONE and its
   * offset is rounded to the nanosecond, half to even; any other slope is kept as it is.
   */
  public TraceTransform forTraceCompass() {
    if (slope.compareTo(BigDecimal.ONE) != 0) return this;
    return new TraceTransform(BigDecimal.ONE, offset.setScale(0, RoundingMode.HALF_EVEN));
  }

  /** t_ref for a raw timestamp, exact. */
  public BigDecimal apply(long timestampNs) {
    return slope.multiply(BigDecimal.valueOf(timestampNs)).add(offset);
  }
}
