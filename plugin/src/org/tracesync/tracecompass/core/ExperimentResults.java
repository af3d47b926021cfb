// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.eclipse.tracecompass.tmf.core.trace.ITmfTrace;
import org.eclipse.tracecompass.tmf.core.trace.experiment.TmfExperiment;
import org.tracesync.proto.Snapshot;
import org.tracesync.tracecompass.cache.CacheKey;
import org.tracesync.tracecompass.cache.SnapshotCache;
import org.tracesync.tracecompass.cache.TraceIdentity;

/**
 * Where an experiment's last tracesync synchronization is kept: in the experiment's synchronization folder
 * (TmfExperiment.getSynchronizationFolder: "sync_data" in its supplementary folder, the place Trace Compass keeps
 * synchronization data), keyed by the identities of the experiment's traces.
 */
public final class ExperimentResults {
  /** The name TmfExperiment gives its synchronization folder, and of Trace Compass's own result file in it. */
  public static final String SYNC_FOLDER = "sync_data";
  public static final String TRACE_COMPASS_RESULT = "synchronization.bin";

  private ExperimentResults() {}

  /** The cache file of an experiment whose supplementary folder is {@code supplementaryFolder}. */
  public static SnapshotCache cacheIn(String supplementaryFolder) {
    return new SnapshotCache(Path.of(supplementaryFolder, SYNC_FOLDER, SnapshotCache.FILE_NAME));
  }

  /** The key of a set of traces, from their locations on disk. */
  public static String tracesKey(Collection<String> locations) throws IOException {
    List<TraceIdentity> identities = new ArrayList<>();
    for (String location : locations) identities.add(TraceIdentity.of(Path.of(location)));
    return CacheKey.of(identities);
  }

  /**
   * The synchronization cached for an open experiment, when its traces have not changed since. Problems reading the
   * cache are logged and read as "nothing cached": the user can always synchronize again.
   */
  public static Optional<Snapshot> lookup(TmfExperiment experiment) {
    String folder = experiment.getSynchronizationFolder(true);
    if (folder == null) return Optional.empty();
    List<String> locations = new ArrayList<>();
    for (ITmfTrace trace : experiment.getTraces()) locations.add(trace.getPath());
    return lookup(experiment.getName(), new SnapshotCache(Path.of(folder, SnapshotCache.FILE_NAME)), locations);
  }

  /**
   * The synchronization cached for an experiment that need not be open, from its supplementary folder and its traces'
   * folders on disk, as {@link #lookup(TmfExperiment)}.
   */
  public static Optional<Snapshot> lookup(String experimentName, String supplementaryFolder,
      Collection<String> locations) {
    return lookup(experimentName, cacheIn(supplementaryFolder), locations);
  }

  private static Optional<Snapshot> lookup(String experimentName, SnapshotCache cache, Collection<String> locations) {
    if (!Files.exists(cache.file())) return Optional.empty();
    try {
      return cache.find(tracesKey(locations), null);
    } catch (IOException e) {
      Log.warning("tracesync: the cached synchronization of " + experimentName + " is not used: " + e.getMessage());
      return Optional.empty();
    }
  }
}
