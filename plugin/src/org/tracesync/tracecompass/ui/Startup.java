// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.ui;

import org.eclipse.ui.IStartup;
import org.eclipse.ui.IWorkbench;
import org.eclipse.ui.IWorkbenchListener;
import org.eclipse.ui.PlatformUI;

/**
 * Runs when the workbench starts (extension org.eclipse.ui.startup), so that experiments opened before the user
 * touches tracesync already show their cached tracesync result in the Synchronization view.
 */
public class Startup implements IStartup {
  @Override
  public void earlyStartup() {
    ExperimentSyncListener.start();
    PlatformUI.getWorkbench().addWorkbenchListener(new IWorkbenchListener() {
      @Override
      public boolean preShutdown(IWorkbench workbench, boolean forced) {
        ExperimentSyncListener.stop();
        return true;
      }

      @Override
      public void postShutdown(IWorkbench workbench) {
        // Deregistered in preShutdown, while Trace Compass's signal manager still runs.
      }
    });
  }
}
