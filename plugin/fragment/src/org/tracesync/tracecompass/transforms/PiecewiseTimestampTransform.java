// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.transforms;

import org.eclipse.tracecompass.tmf.core.synchronization.ITmfTimestampTransform;
import org.eclipse.tracecompass.tmf.core.timestamp.ITmfTimestamp;
import org.eclipse.tracecompass.tmf.core.timestamp.TmfTimestamp;

/**
 * A tracesync transform of several pieces as Trace Compass applies transforms. Trace Compass keeps a trace's transform
 * in its supplementary files by Java serialization and reads it back in tmf.core
 * (TimestampTransformFactory.getTimestampTransform), whose ObjectInputStream resolves classes with tmf.core's class
 * loader: this class lives in a fragment of tmf.core so that it resolves there, across restarts.
 */
public final class PiecewiseTimestampTransform implements ITmfTimestampTransform {
  private static final long serialVersionUID = 1L;

  private final PiecewiseClock clock;

  public PiecewiseTimestampTransform(PiecewiseClock clock) {
    this.clock = clock;
  }

  public PiecewiseClock clock() {
    return clock;
  }

  @Override
  public ITmfTimestamp transform(ITmfTimestamp timestamp) {
    // As Trace Compass's own linear transforms: the value is taken as nanoseconds, the scale is kept.
    return TmfTimestamp.create(transform(timestamp.getValue()), timestamp.getScale());
  }

  @Override
  public long transform(long timestamp) {
    return clock.map(timestamp);
  }

  /**
   * This transform, whatever it is composed with: after the identity that is exact, and for any other kind it is what
   * Trace Compass's own linear transforms do with a kind they do not know. tracesync always maps a trace's raw
   * clock, so a new synchronization replaces the previous transform rather than composing with it.
   */
  @Override
  public ITmfTimestampTransform composeWith(ITmfTimestampTransform composeWith) {
    return this;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof PiecewiseTimestampTransform that && clock.equals(that.clock);
  }

  @Override
  public int hashCode() {
    return clock.hashCode();
  }

  @Override
  public String toString() {
    return "tracesync " + clock;
  }
}
