package org.tracesync.tracecompass.core;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.core.runtime.SubMonitor;
import org.tracesync.Options;
import org.tracesync.TraceSync;
import org.tracesync.proto.Snapshot;
import org.tracesync.tracecompass.sync.ReferenceChoice;

/** One native synchronization of trace folders: what the command runs when the cache has no answer. */
public final class EngineRun {
  private static final int WORK = 1000;

  private EngineRun() {}

  /**
   * Reads the traces at {@code locations}, matches their packets and returns the snapshot. Traces the engine cannot
   * read are reported in the snapshot's problems, not as an exception; an IOException means nothing could be done.
   *
   * @throws OperationCanceledException when the monitor is cancelled
   */
  public static Snapshot synchronize(List<String> locations, ReferenceChoice reference, IProgressMonitor monitor)
      throws IOException {
    SubMonitor progress = SubMonitor.convert(monitor, "Synchronizing " + locations.size() + " traces", WORK);
    NativeEngine.ensureLoaded();
    Options.Builder options = Options.builder();
    reference.tracePath().ifPresent(options::reference);
    try (TraceSync engine = TraceSync.open(options.build())) {
      for (String location : locations) engine.addTrace(Path.of(location));
      int[] reported = {0};
      engine.run((bytesDone, bytesTotal, tracesDone, tracesTotal) -> {
        int done = bytesTotal > 0 ? (int) Math.min(WORK, bytesDone * WORK / bytesTotal) : 0;
        if (done > reported[0]) {
          progress.worked(done - reported[0]);
          reported[0] = done;
        }
        progress.subTask("Read " + tracesDone + " of " + tracesTotal + " traces");
        return !progress.isCanceled();
      });
      if (progress.isCanceled()) throw new OperationCanceledException();
      return engine.snapshot();
    }
  }
}
