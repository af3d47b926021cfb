// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.export;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Stream;

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
    return problem(text, traces, Files::isWritable);
  }

  /**
   * As {@link #problem(String, Collection)}, with {@code writable} saying whether a folder can be written in. apply
   * writes the copies beside the folder first (in a hidden staging folder, renamed at the end), so the folder's
   * parent, or the nearest of its ancestors that exists, must be a folder that can be written in.
   */
  static Optional<String> problem(String text, Collection<String> traces, Predicate<Path> writable) {
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
    Path parent = folder.getParent();
    while (parent != null && !Files.exists(parent)) parent = parent.getParent();
    if (parent != null && !Files.isDirectory(parent)) return Optional.of(parent + " is a file.");
    if (parent != null && !writable.test(parent)) {
      return Optional.of(parent + " cannot be written in (read-only, or no permission): choose another folder.");
    }
    return Optional.empty();
  }

  /** Most entries {@link #contents} names. */
  static final int NAMED_ENTRIES = 5;

  /**
   * What an existing folder holds, for the question before it is replaced: "notes.txt", "a, b and c", "a, b, c, d, e
   * and 7 more" (names sorted); empty when it holds nothing. An IOException when it cannot be listed.
   */
  public static String contents(Path folder) throws IOException {
    List<String> names = new ArrayList<>();
    try (Stream<Path> entries = Files.list(folder)) {
      entries.map(entry -> entry.getFileName().toString()).sorted().forEach(names::add);
    }
    if (names.size() <= NAMED_ENTRIES) {
      return names.size() <= 1 ? String.join("", names)
          : String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1);
    }
    return String.join(", ", names.subList(0, NAMED_ENTRIES)) + " and " + (names.size() - NAMED_ENTRIES) + " more";
  }
}
