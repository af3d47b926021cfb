// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.export;

import java.util.List;

/** What `tracesync apply` printed on its standard error, as the user of the export is shown it. */
public final class ApplyStderr {
  private ApplyStderr() {}

  /** The hint the command line adds under an error; the user of the export typed no command, so it is left out. */
  private static final String HELP_HINT = "Try 'tracesync ";

  /** The last {@code max} lines that say something, without the command line's hint at its --help. */
  public static String forUser(List<String> lines, int max) {
    List<String> kept = lines.stream().filter(line -> !line.isBlank() && !line.startsWith(HELP_HINT)).toList();
    return String.join("\n", kept.subList(Math.max(0, kept.size() - max), kept.size())).strip();
  }
}
