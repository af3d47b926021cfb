// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.ui;

/**
 * The source of the TmfTraceSynchronizedSignal that the command sends: which experiment was synchronized, and
 * whether the result came from its cache. (Trace Compass sends the open TmfExperiment; the command may run on an
 * experiment that is not open.)
 */
public record SynchronizedExperiment(String name, boolean fromCache) {
  public String caption() {
    return "Experiment " + name + (fromCache ? " (cached result)" : "");
  }
}
