// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.ui;

import java.util.Optional;
import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.core.commands.ExecutionException;
import org.eclipse.core.runtime.jobs.IJobChangeEvent;
import org.eclipse.core.runtime.jobs.JobChangeAdapter;
import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.jface.window.Window;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.tracecompass.tmf.ui.project.model.TmfExperimentElement;
import org.eclipse.ui.handlers.HandlerUtil;
import org.tracesync.tracecompass.sync.ExperimentRuns;
import org.tracesync.tracecompass.sync.ReferenceChoice;
import org.tracesync.tracecompass.view.widgets.ReferenceChoiceDialog;

/**
 * "Synchronize Traces (tracesync)" on an experiment: asks for the reference clock, then runs a
 * {@link SynchronizeJob} in the background.
 */
public class SynchronizeHandler extends AbstractHandler {
  static final String TITLE = "Synchronize Traces (tracesync)";

  @Override
  public Object execute(ExecutionEvent event) throws ExecutionException {
    Shell shell = HandlerUtil.getActiveShellChecked(event);
    Optional<ExperimentTraces.Chosen> chosen = ExperimentTraces.forCommand(
        HandlerUtil.getCurrentSelectionChecked(event), shell, TITLE, "Select one experiment to synchronize.");
    if (chosen.isEmpty()) return null;
    TmfExperimentElement experiment = chosen.get().experiment();
    String key = experiment.getResource().getFullPath().toString();
    if (ExperimentRuns.INSTANCE.isRunning(key)) {
      MessageDialog.openInformation(shell, TITLE, "Experiment " + experiment.getName()
          + " is being synchronized already: wait for that to finish (Progress view).");
      return null;
    }
    ReferenceChoiceDialog dialog = new ReferenceChoiceDialog(shell, experiment.getName(), chosen.get().entries());
    if (dialog.open() != Window.OK) return null;
    ReferenceChoice reference = dialog.choice();
    // Claimed after the dialog: a second click during the first job's run is refused, and its copies are not made twice.
    if (!ExperimentRuns.INSTANCE.claim(key)) {
      MessageDialog.openInformation(shell, TITLE, "Experiment " + experiment.getName()
          + " is being synchronized already: wait for that to finish (Progress view).");
      return null;
    }
    SynchronizeJob job = new SynchronizeJob(experiment, reference);
    job.addJobChangeListener(new JobChangeAdapter() {
      @Override
      public void done(IJobChangeEvent done) {
        ExperimentRuns.INSTANCE.release(key);  // also when cancelled before it ran
      }
    });
    job.schedule();
    return null;
  }
}
