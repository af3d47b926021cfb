// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.ui;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.swt.widgets.Display;
import org.eclipse.tracecompass.tmf.ui.project.model.TmfExperimentElement;
import org.eclipse.tracecompass.tmf.ui.project.model.TmfOpenTraceHelper;
import org.tracesync.tracecompass.core.Log;
import org.tracesync.tracecompass.core.NativeEngine;
import org.tracesync.tracecompass.export.ApplyCommand;
import org.tracesync.tracecompass.export.ApplyExit;
import org.tracesync.tracecompass.export.ApplyStderr;
import org.tracesync.tracecompass.export.CopiesExperiment;
import org.tracesync.tracecompass.export.ExportManifest;
import org.tracesync.tracecompass.sync.ReferenceChoice;
import org.tracesync.tracecompass.view.model.CountFormat;

/**
 * Runs `tracesync apply` on an experiment's traces into a folder, in a process of its own (cancel stops it with
 * SIGTERM, and apply then leaves nothing behind), reports its exit code in words, and offers to open the copies as a
 * new experiment.
 */
final class ExportJob extends Job {
  private static final int STDERR_LINES = 20;

  private final TmfExperimentElement experiment;
  private final Map<String, String> traces;
  private final ReferenceChoice reference;
  private final Path output;
  private final boolean replace;

  ExportJob(TmfExperimentElement experiment, Map<String, String> traces, ReferenceChoice reference, Path output,
      boolean replace) {
    super("Exporting synchronized copies of " + experiment.getName() + " to " + output);
    this.experiment = experiment;
    this.traces = new LinkedHashMap<>(traces);  // the experiment's order
    this.reference = reference;
    this.output = output;
    this.replace = replace;
    setUser(true);
  }

  @Override
  protected IStatus run(IProgressMonitor monitor) {
    Optional<Path> program = NativeEngine.readingProgram();
    if (program.isEmpty()) {
      return error("the tracesync command could not be extracted from the bundle or made executable (see the log)",
          null);
    }
    ApplyCommand command = new ApplyCommand(program.get(), List.copyOf(traces.values()), output, reference, replace);
    monitor.beginTask(getName(), IProgressMonitor.UNKNOWN);
    monitor.subTask(
        "tracesync apply: synchronizing " + CountFormat.of(traces.size(), "trace") + " and writing their copies");
    Path errors = null;
    try {
      errors = Files.createTempFile("tracesync-apply", ".stderr");
      Process process = new ProcessBuilder(command.arguments())
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)  // the report; the manifest says what was written
          .redirectError(errors.toFile())
          .start();
      while (!process.waitFor(200, TimeUnit.MILLISECONDS)) {
        if (monitor.isCanceled()) {
          process.destroy();  // SIGTERM: apply removes what it was writing
          process.waitFor();
          return Status.CANCEL_STATUS;
        }
        monitor.worked(1);
      }
      ApplyExit exit = ApplyExit.of(process.exitValue());
      String stderr = lastLines(errors);
      if (!exit.copiesWritten()) {
        return exit.severity() == ApplyExit.Severity.CANCELLED ? Status.CANCEL_STATUS
            : error(exit.message() + " (exit code " + exit.code() + ")" + (stderr.isEmpty() ? "" : ":\n" + stderr),
                null);
      }
      ExportManifest manifest = ExportManifest.read(command.manifest());
      offerToOpen(exit, manifest, stderr);
      return exit.severity() == ApplyExit.Severity.OK ? Status.OK_STATUS
          : new Status(IStatus.WARNING, Log.PLUGIN_ID, experiment.getName() + " exported to " + output + ": "
              + exit.message() + " (exit code " + exit.code() + ")" + (stderr.isEmpty() ? "" : ":\n" + stderr));
    } catch (IOException e) {
      return error(e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Status.CANCEL_STATUS;
    } finally {
      monitor.done();
      if (errors != null) errors.toFile().delete();
    }
  }

  /** In the UI thread: what was written, and whether to open the copies as a new experiment. */
  private void offerToOpen(ApplyExit exit, ExportManifest manifest, String stderr) {
    CopiesExperiment plan = OpenCopies.plan(experiment, traces, manifest);
    StringBuilder text = new StringBuilder();
    text.append(CountFormat.of(manifest.copies().size(), "synchronized copy", "synchronized copies"))
        .append(" written to ").append(output).append(" (").append(exit.message()).append(").");
    if (!manifest.withoutCopy().isEmpty()) {
      text.append("\n\nWithout a copy:\n").append(String.join("\n", manifest.withoutCopy()));
    }
    if (!stderr.isEmpty() && exit.severity() != ApplyExit.Severity.OK) text.append("\n\ntracesync said:\n").append(stderr);
    if (plan.links().isEmpty()) {
      Display.getDefault().asyncExec(() -> MessageDialog.openWarning(Display.getDefault().getActiveShell(),
          ExportHandler.TITLE, text.toString()));
      return;
    }
    text.append("\n\nOpen the copies as a new experiment, ").append(plan.experiment()).append(" (traces under Traces/")
        .append(plan.folder()).append(")?");
    Display.getDefault().asyncExec(() -> {
      if (!MessageDialog.openQuestion(Display.getDefault().getActiveShell(), ExportHandler.TITLE, text.toString())) {
        return;
      }
      try {
        TmfExperimentElement copies = OpenCopies.create(experiment, plan);
        TmfOpenTraceHelper.openFromElement(copies);
      } catch (CoreException | RuntimeException e) {
        Log.error("could not open the copies in " + output + " as an experiment", e);
        MessageDialog.openError(Display.getDefault().getActiveShell(), ExportHandler.TITLE,
            "The copies in " + output + " could not be opened as an experiment: " + e.getMessage());
      }
    });
  }

  private IStatus error(String message, Throwable cause) {
    return new Status(IStatus.ERROR, Log.PLUGIN_ID, experiment.getName() + " was not exported: " + message, cause);
  }

  private static String lastLines(Path file) throws IOException {
    return ApplyStderr.forUser(Files.readAllLines(file, StandardCharsets.UTF_8), STDERR_LINES);
  }
}
