// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.sync;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The experiments being synchronized now. A second "Synchronize Traces (tracesync)" on an experiment whose first one
 * still runs would copy the same traces twice (the experiment became [h1, h0_, h0__] and showed every h0 event
 * twice): the command claims the experiment first, and the claim is released when its job is done.
 */
public final class ExperimentRuns {
  /** The workbench's one register. */
  public static final ExperimentRuns INSTANCE = new ExperimentRuns();

  private final Set<String> running = ConcurrentHashMap.newKeySet();

  /** Claims {@code experiment} (its workspace path); false when it is claimed already. */
  public boolean claim(String experiment) {
    return running.add(experiment);
  }

  /** Releases a claim; releasing what is not claimed does nothing. */
  public void release(String experiment) {
    running.remove(experiment);
  }

  public boolean isRunning(String experiment) {
    return running.contains(experiment);
  }
}
