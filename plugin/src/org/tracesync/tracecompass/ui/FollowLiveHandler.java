// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.ui;

import java.nio.file.Path;
import java.util.List;
import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.core.commands.ExecutionException;
import org.eclipse.jface.dialogs.InputDialog;
import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.jface.window.Window;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.PartInitException;
import org.eclipse.ui.handlers.HandlerUtil;
import org.tracesync.Options;
import org.tracesync.tracecompass.core.NativeEngine;
import org.tracesync.tracecompass.live.LiveSources;

/**
 * "Follow Live Sessions (tracesync)...": Trace Compass 10.3 reads no live trace itself, so this asks for LTTng live
 * session URLs or trace folders being written, and the Trace Synchronization view shows tracesync's result as it is
 * updated while they are recorded (tracesync live). The traces can be opened and synchronized once recorded.
 */
public class FollowLiveHandler extends AbstractHandler {
  static final String TITLE = "Follow Live Sessions (tracesync)";

  @Override
  public Object execute(ExecutionEvent event) throws ExecutionException {
    Shell shell = HandlerUtil.getActiveShellChecked(event);
    InputDialog dialog = new InputDialog(shell, TITLE,
        "LTTng live sessions (net://RELAY:5344/host/HOSTNAME/SESSION, as `babeltrace2 -i lttng-live net://RELAY` "
            + "lists them) or trace folders being written (absolute paths), separated by spaces:",
        "", text -> {
          try {
            LiveSources.parse(text);
            return null;
          } catch (IllegalArgumentException e) {
            return e.getMessage();
          }
        });
    if (dialog.open() != Window.OK) return null;
    List<String> sources = LiveSources.parse(dialog.getValue());
    try {
      NativeEngine.ensureLoaded();
      Options.Builder options = Options.builder();  // following's own match horizon: tracesync live's, 1 min
      // Each source read by the bundle's tracesync in a process of its own, as Synchronize Traces reads traces:
      // babeltrace2 aborting on a damaged stream then loses that source, not Trace Compass.
      NativeEngine.readingProgram().ifPresent(options::readingProgram);
      String messagesFile = System.getProperty("tracesync.messagesFile");  // as Synchronize Traces (tracesync)
      if (messagesFile != null && !messagesFile.isBlank()) options.messagesFile(Path.of(messagesFile));
      TracesyncView view = (TracesyncView) HandlerUtil.getActiveWorkbenchWindowChecked(event).getActivePage()
          .showView(TracesyncView.ID);
      view.followLive(sources, options.build());
    } catch (PartInitException e) {
      MessageDialog.openError(shell, TITLE, "The Trace Synchronization view cannot be opened: " + e.getMessage());
    } catch (Exception e) {
      MessageDialog.openError(shell, TITLE, "tracesync cannot follow " + String.join(" ", sources) + ": "
          + e.getMessage());
    }
    return null;
  }
}
