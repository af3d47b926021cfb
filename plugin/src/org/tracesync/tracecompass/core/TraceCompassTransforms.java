// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.core;

import org.eclipse.tracecompass.tmf.core.synchronization.ITmfTimestampTransform;
import org.eclipse.tracecompass.tmf.core.synchronization.TimestampTransformFactory;
import org.tracesync.tracecompass.sync.TraceTransform;
import org.tracesync.tracecompass.transforms.PiecewiseClock;
import org.tracesync.tracecompass.transforms.PiecewiseTimestampTransform;

/** tracesync's exact transforms as Trace Compass timestamp transforms. */
public final class TraceCompassTransforms {
  private TraceCompassTransforms() {}

  /** The identity for the reference; otherwise a linear transform with the exact BigDecimal slope and offset. */
  public static ITmfTimestampTransform of(TraceTransform transform) {
    if (transform.isIdentity()) return TimestampTransformFactory.getDefaultTransform();
    TraceTransform forTraceCompass = transform.forTraceCompass();
    return TimestampTransformFactory.createLinear(forTraceCompass.slope(), forTraceCompass.offset());
  }

  /** A transform of several pieces, which Trace Compass persists and reads back through the transforms fragment. */
  public static ITmfTimestampTransform of(PiecewiseClock pieces) {
    return new PiecewiseTimestampTransform(pieces);
  }

  /**
   * True when two transforms put every given timestamp on the same nanosecond. Trace Compass's transforms do not all
   * define equals() (its identity does not), so transforms are compared by what they do to the trace's own instants.
   */
  public static boolean agreeOn(ITmfTimestampTransform a, ITmfTimestampTransform b, long... timestamps) {
    for (long t : timestamps) {
      if (a.transform(t) != b.transform(t)) return false;
    }
    return true;
  }
}
