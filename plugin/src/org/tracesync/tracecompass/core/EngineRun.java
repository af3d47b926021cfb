// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.core;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.core.runtime.SubMonitor;
import org.tracesync.Options;
import org.tracesync.TraceSync;
import org.tracesync.proto.Snapshot;
import org.tracesync.tracecompass.sync.ReferenceChoice;
import org.tracesync.tracecompass.view.model.CountFormat;

/** One native synchronization of trace folders: what the command runs when the cache has no answer. */
public final class EngineRun {
  private static final int WORK = 1000;

  /** The snapshot, and the problems it does not itself report (traces the engine refused to queue). */
  public record Result(Snapshot snapshot, List<String> problems) {}

  private EngineRun() {}

  /**
   * Reads the traces at {@code locations}, matches their packets and returns the snapshot. As DESIGN.md asks, a
   * trace that cannot be read is reported and the others are synchronized: such traces are in the snapshot's
   * problems, or in the result's. An IOException means nothing could be done (the native library is missing).
   *
   * @throws OperationCanceledException when the monitor is cancelled
   */
  public static Result synchronize(List<String> locations, ReferenceChoice reference, IProgressMonitor monitor)
      throws IOException {
    SubMonitor progress =
        SubMonitor.convert(monitor, "Synchronizing " + CountFormat.of(locations.size(), "trace"), WORK);
    NativeEngine.ensureLoaded();
    Options.Builder options = Options.builder();
    reference.tracePath().ifPresent(options::reference);
    NativeEngine.readingProgram().ifPresent(options::readingProgram);
    // Application messages (the engine's docs/app-messages.md): the plugin has no options dialog,
    // so a file of message specs is named by a system property (-Dtracesync.messagesFile=FILE in
    // tracecompass.ini); its kinds are matched beside the kernel traces' TCP segments.
    String messagesFile = System.getProperty("tracesync.messagesFile");
    if (messagesFile != null && !messagesFile.isBlank()) options.messagesFile(Path.of(messagesFile));
    List<String> problems = new ArrayList<>();
    try (TraceSync engine = TraceSync.open(options.build())) {
      for (String location : locations) {
        try {
          engine.addTrace(Path.of(location));
        } catch (IOException e) {
          problems.add(location + ": " + e.getMessage());
        }
      }
      int[] reported = {0};
      String runProblem = null;
      try {
        engine.run((bytesDone, bytesTotal, tracesDone, tracesTotal) -> {
          int done = bytesTotal > 0 ? (int) Math.min(WORK, bytesDone * WORK / bytesTotal) : 0;
          if (done > reported[0]) {
            progress.worked(done - reported[0]);
            reported[0] = done;
          }
          progress.subTask("Read " + tracesDone + " of " + CountFormat.of(tracesTotal, "trace"));
          return !progress.isCanceled();
        });
      } catch (IOException e) {
        runProblem = e.getMessage();  // traces were skipped; the run went on with the others
      }
      if (progress.isCanceled()) throw new OperationCanceledException();
      Snapshot snapshot = engine.snapshot();
      if (runProblem != null && snapshot.getProblemsCount() == 0) problems.add(runProblem);
      return new Result(snapshot, problems);
    } catch (IllegalArgumentException e) {
      throw new IOException("the engine refused the options: " + e.getMessage(), e);
    }
  }
}
