// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.export;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What `tracesync apply` says it wrote, read from its tracesync-manifest.json: the copy of each input trace, and the
 * traces that have none, with the reason.
 */
public record ExportManifest(List<Copy> copies, List<String> withoutCopy) {
  /** One written copy: the input trace folder and the copy's folder (absolute). */
  public record Copy(String input, Path output, String hostname) {}

  public static ExportManifest read(Path manifest) throws IOException {
    String text = Files.readString(manifest, StandardCharsets.UTF_8);
    try {
      return parse(text, manifest.getParent());
    } catch (IllegalArgumentException | ClassCastException e) {
      throw new IOException(manifest + ": not a tracesync manifest: " + e.getMessage(), e);
    }
  }

  static ExportManifest parse(String text, Path folder) {
    if (!(Json.parse(text) instanceof Map<?, ?> root)) throw new IllegalArgumentException("not a JSON object");
    Object format = root.get("format");
    if (!(format instanceof String f) || !f.startsWith("tracesync-manifest/1")) {
      throw new IllegalArgumentException("unknown format " + format);
    }
    List<Copy> copies = new ArrayList<>();
    List<String> withoutCopy = new ArrayList<>();
    for (Object item : (List<?>) root.get("traces")) {
      Map<?, ?> trace = (Map<?, ?>) item;
      String input = (String) trace.get("input");
      if (input == null) throw new IllegalArgumentException("a trace without \"input\"");
      if (trace.get("output") instanceof String output) {
        copies.add(new Copy(input, folder.resolve(output), String.valueOf(trace.get("hostname"))));
      } else {
        Object note = trace.get("note");
        withoutCopy.add(input + ": " + (note instanceof String n ? n : "no copy"));
      }
    }
    if (root.get("problems") instanceof List<?> problems) {
      for (Object item : problems) {
        Map<?, ?> problem = (Map<?, ?>) item;
        withoutCopy.add(problem.get("input") + ": " + problem.get("reason"));
      }
    }
    return new ExportManifest(List.copyOf(copies), List.copyOf(withoutCopy));
  }
}
