// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.sync;

import java.util.Objects;
import java.util.Optional;

/**
 * Which clock the user wants as the reference: the automatic choice (each island's tree centroid, DESIGN.md), or the
 * clock of one trace of the experiment, named by its location (the engine accepts a trace path as a reference).
 */
public final class ReferenceChoice {
  private static final ReferenceChoice AUTOMATIC = new ReferenceChoice(null, null);

  private final String traceName;
  private final String tracePath;

  private ReferenceChoice(String traceName, String tracePath) {
    this.traceName = traceName;
    this.tracePath = tracePath;
  }

  public static ReferenceChoice automatic() {
    return AUTOMATIC;
  }

  public static ReferenceChoice trace(String name, String path) {
    if (name == null || name.isEmpty() || path == null || path.isEmpty()) {
      throw new IllegalArgumentException("a reference trace needs a name and a path");
    }
    return new ReferenceChoice(name, path);
  }

  public boolean isAutomatic() {
    return tracePath == null;
  }

  /** The path to give the engine as its reference, empty for the automatic choice. */
  public Optional<String> tracePath() {
    return Optional.ofNullable(tracePath);
  }

  /** The trace's name as the experiment shows it, empty for the automatic choice. */
  public Optional<String> traceName() {
    return Optional.ofNullable(traceName);
  }

  /** The part of the cache's options key that this choice decides. */
  public String cacheKey() {
    return isAutomatic() ? "reference=automatic" : "reference=" + tracePath;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ReferenceChoice r && Objects.equals(tracePath, r.tracePath);
  }

  @Override
  public int hashCode() {
    return Objects.hashCode(tracePath);
  }

  @Override
  public String toString() {
    return isAutomatic() ? "automatic" : traceName;
  }
}
