// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.sync;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.tracesync.proto.Snapshot;
import org.tracesync.proto.Trace;
import org.tracesync.tracecompass.transforms.PiecewiseClock;

/**
 * Finds the snapshot's trace for a trace of an experiment. The engine was given each trace's location, and reports
 * the trace it read there (or, for a folder holding several CTF traces, under it), so locations are compared as
 * normalized absolute paths.
 */
public final class SnapshotTraces {
  private final Snapshot snapshot;

  public SnapshotTraces(Snapshot snapshot) {
    this.snapshot = snapshot;
  }

  /**
   * The snapshot's traces at or under {@code location}, the one exactly at it first. Empty when the engine read none
   * there (an unsupported format, or a trace it skipped: see the snapshot's problems).
   */
  public List<Trace> at(String location) {
    Path wanted = normalize(location);
    List<Trace> exact = new ArrayList<>();
    List<Trace> inside = new ArrayList<>();
    for (Trace trace : snapshot.getTracesList()) {
      if (trace.getPath().isEmpty()) continue;
      Path path = normalize(trace.getPath());
      if (path.equals(wanted)) {
        exact.add(trace);
      } else if (path.startsWith(wanted)) {
        inside.add(trace);
      }
    }
    exact.addAll(inside);
    return exact;
  }

  /**
   * The transform for the trace at {@code location}: empty when the engine read nothing there. When a folder holds
   * several traces they must agree (they do when they share a clock domain); otherwise the folder has no single
   * transform, and that is an error for the caller to report.
   */
  public Optional<TraceTransform> transformAt(String location) {
    List<Trace> traces = at(location);
    if (traces.isEmpty()) return Optional.empty();
    TraceTransform first = TraceTransform.of(traces.get(0));
    for (Trace other : traces) {
      TraceTransform transform = TraceTransform.of(other);
      if (transform.slope().compareTo(first.slope()) != 0 || transform.offset().compareTo(first.offset()) != 0) {
        throw new IllegalStateException("the traces under '" + location + "' belong to different clocks ("
            + traces.get(0).getName() + ", " + other.getName() + "): they have no single transform");
      }
    }
    return Optional.of(first);
  }

  /**
   * The pieces of the transform for the trace at {@code location}, when it has several (see {@link #transformAt}
   * for a folder of several traces, which must then agree piece for piece).
   */
  public Optional<PiecewiseClock> piecesAt(String location) {
    List<Trace> traces = at(location);
    if (traces.isEmpty()) return Optional.empty();
    Optional<PiecewiseClock> first = TracePieces.of(traces.get(0));
    for (Trace other : traces) {
      if (!TracePieces.of(other).equals(first)) {
        throw new IllegalStateException("the traces under '" + location + "' belong to different clocks ("
            + traces.get(0).getName() + ", " + other.getName() + "): they have no single transform");
      }
    }
    return first;
  }

  /**
   * Why the trace at {@code location} is not synchronized with the rest (outside the main island), when the snapshot
   * says so; its transform then means nothing and must not be applied.
   */
  public Optional<String> unsynchronizedReason(String location) {
    for (Trace trace : at(location)) {
      if (!trace.getSynchronized() && !trace.getUnsynchronizedReason().isEmpty()) {
        return Optional.of(trace.getUnsynchronizedReason());
      }
    }
    return Optional.empty();
  }

  /** Whether one of the snapshot's problems is about {@code location} or a trace under it (it is reported there). */
  public boolean hasProblemAt(String location) {
    Path wanted = normalize(location);
    for (org.tracesync.proto.Problem problem : snapshot.getProblemsList()) {
      if (problem.getSource().isEmpty()) continue;
      try {
        if (normalize(problem.getSource()).startsWith(wanted)) return true;
      } catch (java.nio.file.InvalidPathException e) {
        // Not a path (a match file line, say): not about this trace.
      }
    }
    return false;
  }

  private static Path normalize(String location) {
    return Paths.get(location).toAbsolutePath().normalize();
  }
}
