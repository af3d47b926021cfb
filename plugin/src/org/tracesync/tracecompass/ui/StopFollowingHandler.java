// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.ui;

import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.core.commands.ExecutionException;
import org.eclipse.ui.IViewPart;
import org.eclipse.ui.handlers.HandlerUtil;

/** "Stop Following": ends what the Trace Synchronization view follows; its last result stays shown. */
public class StopFollowingHandler extends AbstractHandler {
  @Override
  public Object execute(ExecutionEvent event) throws ExecutionException {
    IViewPart view = HandlerUtil.getActiveWorkbenchWindowChecked(event).getActivePage().findView(TracesyncView.ID);
    if (view instanceof TracesyncView tracesync) tracesync.stopFollowing();
    return null;
  }
}
