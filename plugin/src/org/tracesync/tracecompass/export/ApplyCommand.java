// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.export;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tracesync.tracecompass.sync.ReferenceChoice;

/**
 * The `tracesync apply` command line that writes synchronized copies of an experiment's traces (docs/using-the-result.md):
 * the options first, so that no trace folder can be taken for one, then the traces in the experiment's order.
 *
 * @param program the tracesync command (the one the bundle carries)
 * @param traces the trace folders, as the experiment lists them
 * @param output the folder the copies go to; apply creates it, whole or not at all
 * @param reference the reference clock the user chose (a trace path is a valid --reference)
 * @param replace true when the user agreed to replace a non-empty output folder (--force)
 */
public record ApplyCommand(Path program, List<String> traces, Path output, ReferenceChoice reference,
    boolean replace) {
  public ApplyCommand {
    if (traces.isEmpty()) throw new IllegalArgumentException("apply needs at least one trace");
    traces = List.copyOf(traces);
  }

  public List<String> arguments() {
    List<String> arguments = new ArrayList<>();
    arguments.add(program.toString());
    arguments.add("apply");
    arguments.add("--output");
    arguments.add(output.toString());
    if (replace) arguments.add("--force");
    reference.tracePath().ifPresent(path -> {
      arguments.add("--reference");
      arguments.add(path);
    });
    arguments.addAll(traces);
    return arguments;
  }

  /** The manifest apply writes beside the copies. */
  public Path manifest() {
    return output.resolve("tracesync-manifest.json");
  }
}
