// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.export;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Optional;

/**
 * The folder an export writes to: a proposal, and what is wrong with a folder the user typed (apply refuses the
 * same, but later and in its own words).
 */
public final class ExportFolder {
  private ExportFolder() {}

  /** "&lt;home&gt;/&lt;experiment&gt;-synchronized", or with "-2", "-3", ... when that exists already. */
  public static Path proposal(Path home, String experimentName) {
    Path proposal = home.resolve(experimentName + "-synchronized");
    for (int n = 2; Files.exists(proposal); n++) proposal = home.resolve(experimentName + "-synchronized-" + n);
    return proposal;
  }

  /** Why {@code text} cannot hold the copies of {@code traces}, or empty when it can. */
  public static Optional<String> problem(String text, Collection<String> traces) {
    if (text == null || text.isBlank()) return Optional.of("Enter the folder to write the copies to.");
    Path folder;
    try {
      folder = Path.of(text.strip());
    } catch (InvalidPathException e) {
      return Optional.of("Not a path: " + e.getMessage());
    }
    if (!folder.isAbsolute()) return Optional.of("Enter an absolute path.");
    folder = folder.normalize();
    for (String trace : traces) {
      Path input = Path.of(trace).toAbsolutePath().normalize();
      if (folder.startsWith(input)) return Optional.of("The copies cannot go inside the trace " + input + ".");
      if (input.startsWith(folder)) return Optional.of("The folder holds the trace " + input + ": choose another.");
    }
    if (Files.exists(folder) && !Files.isDirectory(folder)) return Optional.of(folder + " is a file.");
    return Optional.empty();
  }
}
