// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.ui;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.core.commands.ExecutionException;
import org.eclipse.jface.dialogs.InputDialog;
import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.jface.window.Window;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.tracecompass.tmf.ui.project.model.TmfExperimentElement;
import org.eclipse.ui.handlers.HandlerUtil;
import org.tracesync.tracecompass.export.ExportFolder;
import org.tracesync.tracecompass.view.widgets.ReferenceChoiceDialog;

/**
 * "Export Synchronized Traces..." on an experiment: asks for the reference clock and an output folder, then an
 * {@link ExportJob} runs `tracesync apply` into it.
 */
public class ExportHandler extends AbstractHandler {
  static final String TITLE = "Export Synchronized Traces (tracesync)";

  @Override
  public Object execute(ExecutionEvent event) throws ExecutionException {
    Shell shell = HandlerUtil.getActiveShellChecked(event);
    Optional<ExperimentTraces.Chosen> selected = ExperimentTraces.forCommand(
        HandlerUtil.getCurrentSelectionChecked(event), shell, TITLE, "Select one experiment to export.");
    if (selected.isEmpty()) return null;
    TmfExperimentElement experiment = selected.get().experiment();
    Map<String, String> traces = selected.get().traces();  // name in the experiment -> folder on disk
    ReferenceChoiceDialog reference = new ReferenceChoiceDialog(shell, experiment.getName(), selected.get().entries());
    if (reference.open() != Window.OK) return null;

    // A text field, not the platform's folder chooser: the copies usually go to a folder that does not exist yet,
    // which apply creates, and a proposal saves typing.
    InputDialog folderDialog = new InputDialog(shell, TITLE,
        "The folder to write the synchronized copies of " + experiment.getName() + " to (created if new):",
        ExportFolder.proposal(Path.of(System.getProperty("user.home")), experiment.getName()).toString(),
        text -> ExportFolder.problem(text, traces.values()).orElse(null));
    if (folderDialog.open() != Window.OK) return null;
    String chosen = folderDialog.getValue().strip();
    Path output = Path.of(chosen).normalize();
    boolean replace = false;
    String[] present = output.toFile().list();
    if (present != null && present.length > 0) {
      if (!confirmReplace(shell, output)) return null;
      replace = true;
    }
    new ExportJob(experiment, traces, reference.choice(), output, replace).schedule();
    return null;
  }

  /** Whether to replace a folder that holds something: says what, and answers no unless the user picks Replace. */
  private static boolean confirmReplace(Shell shell, Path output) {
    String contents;
    try {
      contents = ExportFolder.contents(output);
    } catch (IOException e) {
      contents = "";
    }
    MessageDialog question = new MessageDialog(shell, TITLE, null, output + " is not empty"
        + (contents.isEmpty() ? "" : ": it holds " + contents) + ".\n\nReplace everything in it with the"
        + " synchronized copies?", MessageDialog.QUESTION, 1, "Replace", "Cancel");
    return question.open() == 0;
  }
}
