// SPDX-License-Identifier: EPL-2.0
package org.tracesync.bench;

import java.util.Arrays;

/** Order statistics of timings in nanoseconds, printed in microseconds or seconds. */
final class Medians {
  private Medians() {}

  static double percentile(long[] nanos, double p) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return sorted[(int) Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  }

  static double medianMicros(long[] nanos) {
    return percentile(nanos, 0.5) / 1e3;
  }

  static double medianSeconds(long[] nanos) {
    return percentile(nanos, 0.5) / 1e9;
  }
}
