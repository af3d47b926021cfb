// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.model;

/** A count with its noun in the right number, for every message the plugin shows: "1 problem", "2 problems". */
public final class CountFormat {
  private CountFormat() {}

  /** {@code count} and the noun, plural made by adding "s" ("trace", "link", "problem"). */
  public static String of(long count, String singular) {
    return of(count, singular, singular + "s");
  }

  /** {@code count} and the noun, for a plural not made by adding "s" ("copy", "copies"). Zero takes the plural. */
  public static String of(long count, String singular, String plural) {
    return count + " " + (count == 1 ? singular : plural);
  }
}
