// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.snapshot;

import org.tracesync.proto.Quality;

/** The words Trace Compass's Synchronization view uses for link qualities. */
public final class QualityNames {
  private QualityNames() {}

  public static String of(Quality quality) {
    switch (quality) {
      case ABSENT:
        return "Absent";
      case INCOMPLETE:
        return "Incomplete";
      case ACCURATE:
        return "Accurate";
      case APPROXIMATE:
        return "Approximate";
      case FAIL:
        return "Fail";
      default:
        return "Unknown";
    }
  }
}
