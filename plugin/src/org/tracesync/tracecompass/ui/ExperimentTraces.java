// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.ui;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.core.runtime.IPath;
import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.tracecompass.tmf.ui.project.model.TmfExperimentElement;
import org.eclipse.tracecompass.tmf.ui.project.model.TmfTraceElement;
import org.tracesync.tracecompass.view.model.CountFormat;
import org.tracesync.tracecompass.view.widgets.ReferenceChoiceDialog.TraceEntry;

/**
 * The traces of an experiment where tracesync reads them: each trace's folder on disk, in the experiment's order. Both
 * commands, the synchronization job and the view (for an experiment's cached result) start from it.
 */
final class ExperimentTraces {
  private ExperimentTraces() {}

  /** An experiment chosen for a command, and its traces: name in the experiment (path under Traces) -> folder. */
  record Chosen(TmfExperimentElement experiment, Map<String, String> traces) {
    /** The traces as the reference dialog lists them, in the experiment's order. */
    List<TraceEntry> entries() {
      List<TraceEntry> entries = new ArrayList<>();
      traces.forEach((name, location) -> entries.add(new TraceEntry(name, location)));
      return entries;
    }
  }

  /**
   * Each trace of {@code experiment} and its folder on disk. The IOException names a trace that is not on the local
   * file system: tracesync reads traces from disk.
   */
  static Map<TmfTraceElement, String> locations(TmfExperimentElement experiment) throws IOException {
    Map<TmfTraceElement, String> locations = new LinkedHashMap<>();
    for (TmfTraceElement trace : experiment.getTraces()) {
      IPath location = trace.getElementUnderTraceFolder().getResource().getLocation();
      if (location == null) {
        throw new IOException("Trace " + trace.getElementPath()
            + " is not on the local file system: tracesync reads traces from disk.");
      }
      locations.put(trace, location.toOSString());
    }
    return locations;
  }

  /**
   * For a command: the one experiment selected and its traces, or empty once the user has been told why the command
   * cannot run (no single experiment selected: {@code selectOne} says so; a trace not on disk; fewer than two traces).
   */
  static Optional<Chosen> forCommand(ISelection selection, Shell shell, String title, String selectOne) {
    if (!(selection instanceof IStructuredSelection structured) || structured.size() != 1
        || !(structured.getFirstElement() instanceof TmfExperimentElement experiment)) {
      MessageDialog.openInformation(shell, title, selectOne);
      return Optional.empty();
    }
    Map<String, String> traces = new LinkedHashMap<>();
    try {
      locations(experiment).forEach((trace, location) -> traces.put(trace.getElementPath(), location));
    } catch (IOException e) {
      MessageDialog.openError(shell, title, e.getMessage());
      return Optional.empty();
    }
    if (traces.size() < 2) {
      MessageDialog.openInformation(shell, title, "Experiment " + experiment.getName() + " has "
          + CountFormat.of(traces.size(), "trace") + ": synchronizing needs two.");
      return Optional.empty();
    }
    return Optional.of(new Chosen(experiment, traces));
  }
}
