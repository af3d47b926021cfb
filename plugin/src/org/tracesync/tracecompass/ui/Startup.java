package org.tracesync.tracecompass.ui;

import org.eclipse.ui.IStartup;

/**
 * Runs when the workbench starts (extension org.eclipse.ui.startup), so that experiments opened before the user
 * touches tracesync already show their cached tracesync result in the Synchronization view.
 */
public class Startup implements IStartup {
  @Override
  public void earlyStartup() {
    ExperimentSyncListener.start();
  }
}
