// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.live;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What the user asks the view to follow, as typed in the "Follow Live" dialog: LTTng live session URLs
 * ({@code net://HOST[:PORT]/host/HOSTNAME/SESSION}, as {@code babeltrace2 -i lttng-live net://HOST} lists them) and
 * absolute trace folders being written, separated by spaces or new lines.
 */
public final class LiveSources {
  private LiveSources() {}

  /**
   * The sources in {@code text}, in order, each once.
   *
   * @throws IllegalArgumentException naming the entry that is neither a live session URL nor an absolute folder, or
   *     when there is none
   */
  public static List<String> parse(String text) {
    List<String> sources = new ArrayList<>();
    for (String entry : text.trim().split("\\s+")) {
      if (entry.isEmpty() || sources.contains(entry)) continue;
      if (entry.contains("://")) {
        if (!entry.startsWith("net://")) {
          throw new IllegalArgumentException("'" + entry + "' is not a live session URL: expected "
              + "net://HOST[:PORT]/host/HOSTNAME/SESSION");
        }
      } else if (!Path.of(entry).isAbsolute()) {
        throw new IllegalArgumentException("'" + entry + "' is not an absolute folder: give the trace folder's "
            + "whole path, or a live session URL net://HOST[:PORT]/host/HOSTNAME/SESSION");
      }
      sources.add(entry);
    }
    if (sources.isEmpty()) {
      throw new IllegalArgumentException("give the live sessions (net://HOST[:PORT]/host/HOSTNAME/SESSION) or the "
          + "trace folders being written to follow");
    }
    return List.copyOf(sources);
  }
}
