// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.ui;

import java.util.Optional;
import org.eclipse.tracecompass.tmf.core.signal.TmfSignalHandler;
import org.eclipse.tracecompass.tmf.core.signal.TmfSignalManager;
import org.eclipse.tracecompass.tmf.core.signal.TmfTraceSynchronizedSignal;
import org.eclipse.tracecompass.tmf.core.synchronization.SynchronizationAlgorithm;
import org.eclipse.tracecompass.tmf.core.trace.experiment.TmfExperiment;
import org.tracesync.proto.Snapshot;
import org.tracesync.tracecompass.core.ExperimentResults;
import org.tracesync.tracecompass.core.TracesyncAlgorithm;

/**
 * Gives Trace Compass's Synchronization view the tracesync result of an experiment when it is opened or selected.
 *
 * <p>When an experiment opens, and each time the Synchronization view selects one, Trace Compass reads its own
 * synchronization file and announces what it found with a TmfTraceSynchronizedSignal. It cannot read a tracesync
 * algorithm from that file (its class loader does not see this bundle), so it announces an empty algorithm of its
 * own. This listener answers such an empty announcement with the experiment's cached tracesync result; a real result
 * of Trace Compass's own algorithm (non-empty statistics) is left alone.
 */
public final class ExperimentSyncListener {
  private static ExperimentSyncListener instance;

  private ExperimentSyncListener() {}

  /** Registers the listener with Trace Compass's signal manager, once. */
  public static synchronized void start() {
    if (instance != null) return;
    instance = new ExperimentSyncListener();
    TmfSignalManager.register(instance);
  }

  /**
   * Deregisters it (the workbench is shutting down): Trace Compass reports a listener still registered when its
   * signal manager is disposed as a resource leak.
   */
  public static synchronized void stop() {
    if (instance == null) return;
    TmfSignalManager.deregister(instance);
    instance = null;
  }

  @TmfSignalHandler
  public void traceSynchronized(TmfTraceSynchronizedSignal signal) {
    SynchronizationAlgorithm algorithm = signal.getSyncAlgo();
    if (algorithm instanceof TracesyncAlgorithm || !(signal.getSource() instanceof TmfExperiment experiment)) return;
    if (algorithm != null && !algorithm.getStats().isEmpty()) return;
    Optional<Snapshot> cached = ExperimentResults.lookup(experiment);
    if (cached.isEmpty()) return;
    TmfTraceSynchronizedSignal ours = new TmfTraceSynchronizedSignal(experiment, new TracesyncAlgorithm(cached.get()));
    // As Trace Compass does, from another thread: this handler runs inside a dispatch.
    new Thread(() -> TmfSignalManager.dispatchSignal(ours), "tracesync result announcement").start();
  }
}
