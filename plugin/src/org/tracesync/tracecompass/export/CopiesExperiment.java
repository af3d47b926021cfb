// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.export;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * How the copies of an export open as a new experiment: a folder of the project's Traces folder holds a link to each
 * copy, named as the original trace is in the experiment (so "host0/kernel" stays "host0/kernel"), and a new
 * experiment holds those links. Names already taken get "-2", "-3", ... as Trace Compass's own import does.
 *
 * @param folder the new folder under Traces
 * @param experiment the new experiment's name
 * @param links the links to make, in the experiment's order
 */
public record CopiesExperiment(String folder, String experiment, List<Link> links) {
  /**
   * One link: its path under {@link #folder} (the original's name in the experiment), the copy it points to, and the
   * original trace's name, whose trace type the link takes.
   */
  public record Link(String name, Path copy, String original) {}

  /**
   * @param experimentName the exported experiment
   * @param originals the experiment's traces, name in the experiment to folder on disk, in its order
   * @param manifest what apply wrote
   * @param folderTaken whether a name is already used in the Traces folder
   * @param experimentTaken whether a name is already used in the Experiments folder
   */
  public static CopiesExperiment plan(String experimentName, Map<String, String> originals, ExportManifest manifest,
      Predicate<String> folderTaken, Predicate<String> experimentTaken) {
    Map<String, ExportManifest.Copy> byInput = new LinkedHashMap<>();
    for (ExportManifest.Copy copy : manifest.copies()) byInput.put(normalized(copy.input()), copy);
    List<Link> links = new ArrayList<>();
    Set<String> used = new HashSet<>();
    for (Map.Entry<String, String> original : originals.entrySet()) {
      ExportManifest.Copy copy = byInput.get(normalized(original.getValue()));
      if (copy == null) continue;  // no copy: the manifest says why, and the export's report lists it
      String name = original.getKey();
      for (int n = 2; !used.add(name); n++) name = original.getKey() + "-" + n;
      links.add(new Link(name, copy.output(), original.getKey()));
    }
    String base = experimentName + "-synchronized";
    return new CopiesExperiment(free(base, folderTaken), free(base, experimentTaken), List.copyOf(links));
  }

  private static String free(String base, Predicate<String> taken) {
    String name = base;
    for (int n = 2; taken.test(name); n++) name = base + "-" + n;
    return name;
  }

  private static String normalized(String location) {
    return Path.of(location).toAbsolutePath().normalize().toString();
  }
}
