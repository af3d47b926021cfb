// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.stats;

/**
 * The entry names of Trace Compass's Synchronization view. The first ones are the names Trace Compass gives its own
 * convex-hull algorithm's statistics, so that a link synchronized by tracesync reads like one synchronized by Trace
 * Compass; the last ones are tracesync's own.
 */
public final class StatisticNames {
  private StatisticNames() {}

  // Trace Compass's names.
  public static final String T0 = "T0";
  public static final String T1 = "T1";
  public static final String QUALITY = "Quality";
  public static final String ALPHA = "Alpha";
  public static final String BETA = "Beta";
  public static final String UPPER_HULL = "Number of points in upper hull";
  public static final String LOWER_HULL = "Number of points in lower hull";
  public static final String ACCURACY = "Accuracy";
  public static final String MATCHED_PACKETS = "Number of matching packets received";
  public static final String ACCURATE_PACKETS = "Number of accurate packets";
  public static final String T0_FORMULA = "C_T0(t)";
  public static final String T1_FORMULA = "C_T1(t)";
  public static final String NOT_AVAILABLE = "N/A";

  // tracesync's own.
  public static final String UNCERTAINTY = "Uncertainty";
  public static final String IN_TREE = "In spanning tree";
  public static final String REFERENCE = "Reference";

  /** The key of one link's group: its two ends, as Trace Compass writes "T0 <==> T1". */
  public static String linkKey(String t0, String t1) {
    return t0 + " <==> " + t1;
  }
}
