// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.model;

import java.util.Locale;

/** Durations in nanoseconds, written with the unit that keeps their digits few: "850 ns", "12.5 us", "3.2 s". */
public final class NanosecondFormat {
  private NanosecondFormat() {}

  public static String format(double nanoseconds) {
    double magnitude = Math.abs(nanoseconds);
    if (magnitude < 1e3) return trim(nanoseconds) + " ns";
    if (magnitude < 1e6) return trim(nanoseconds / 1e3) + " us";
    if (magnitude < 1e9) return trim(nanoseconds / 1e6) + " ms";
    return trim(nanoseconds / 1e9) + " s";
  }

  /** At most three decimals, no trailing zeros, and "-0" read as "0". */
  private static String trim(double value) {
    String text = String.format(Locale.ROOT, "%.3f", value);
    text = text.contains(".") ? text.replaceAll("0+$", "").replaceAll("\\.$", "") : text;
    return text.equals("-0") ? "0" : text;
  }
}
