// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.ui;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.LongStream;
import org.eclipse.core.resources.IContainer;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.IPath;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.MultiStatus;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.SubMonitor;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.swt.widgets.Display;
import org.eclipse.tracecompass.tmf.core.TmfCommonConstants;
import org.eclipse.tracecompass.tmf.core.signal.TmfSignalManager;
import org.eclipse.tracecompass.tmf.core.signal.TmfTraceSynchronizedSignal;
import org.eclipse.tracecompass.tmf.core.synchronization.ITmfTimestampTransform;
import org.eclipse.tracecompass.tmf.core.synchronization.TimestampTransformFactory;
import org.eclipse.tracecompass.tmf.ui.project.model.TmfExperimentElement;
import org.eclipse.tracecompass.tmf.ui.project.model.TmfOpenTraceHelper;
import org.eclipse.tracecompass.tmf.ui.project.model.TmfTraceElement;
import org.tracesync.proto.Problem;
import org.tracesync.proto.Segment;
import org.tracesync.proto.Snapshot;
import org.tracesync.proto.Trace;
import org.tracesync.tracecompass.cache.SnapshotCache;
import org.tracesync.tracecompass.core.EngineRun;
import org.tracesync.tracecompass.core.ExperimentResults;
import org.tracesync.tracecompass.core.Log;
import org.tracesync.tracecompass.core.TraceCompassTransforms;
import org.tracesync.tracecompass.core.TracesyncAlgorithm;
import org.tracesync.tracecompass.sync.ReferenceChoice;
import org.tracesync.tracecompass.sync.SnapshotTraces;
import org.tracesync.tracecompass.sync.TraceTransform;
import org.tracesync.tracecompass.transforms.PiecewiseClock;
import org.tracesync.tracecompass.view.model.CountFormat;

/**
 * Synchronizes one experiment: the snapshot from the cache or from the native engine, then the transforms applied as
 * Trace Compass's own "Synchronize Traces" applies its own -- each trace whose transform changes is copied in the
 * Traces folder, the copy gets the transform (so its indexes and state systems are rebuilt on the common time base)
 * and replaces the original in the experiment -- then the result is cached and announced with a
 * TmfTraceSynchronizedSignal, and an experiment that was open is opened again so every view redraws.
 */
final class SynchronizeJob extends Job {
  private final TmfExperimentElement experiment;
  private final ReferenceChoice reference;

  /** What to do to one trace of the experiment. */
  private record Step(TmfTraceElement element, String location, ITmfTimestampTransform transform, long[] probes) {}

  SynchronizeJob(TmfExperimentElement experiment, ReferenceChoice reference) {
    super("Synchronizing " + experiment.getName() + " with tracesync");
    this.experiment = experiment;
    this.reference = reference;
    setUser(true);
  }

  @Override
  protected IStatus run(IProgressMonitor monitor) {
    try {
      return synchronize(SubMonitor.convert(monitor, 10));
    } catch (OperationCanceledException e) {
      return Status.CANCEL_STATUS;
    } catch (IOException | CoreException | RuntimeException e) {
      return new Status(IStatus.ERROR, Log.PLUGIN_ID,
          experiment.getName() + " was not synchronized: " + e.getMessage(), e);
    }
  }

  private IStatus synchronize(SubMonitor progress) throws IOException, CoreException {
    experiment.refreshSupplementaryFolder();
    String supplementary = experiment.getResource().getPersistentProperty(TmfCommonConstants.TRACE_SUPPLEMENTARY_FOLDER);
    if (supplementary == null) throw new IOException("the experiment has no supplementary folder");
    SnapshotCache cache = ExperimentResults.cacheIn(supplementary);

    Map<TmfTraceElement, String> locations = ExperimentTraces.locations(experiment);
    String tracesKey = ExperimentResults.tracesKey(locations.values());
    Optional<Snapshot> cached = cached(cache, tracesKey);
    List<String> problems = new ArrayList<>();
    Snapshot snapshot;
    if (cached.isPresent()) {
      snapshot = cached.get();
    } else {
      EngineRun.Result run = EngineRun.synchronize(List.copyOf(locations.values()), reference, progress.split(8));
      snapshot = run.snapshot();
      problems.addAll(run.problems());
    }
    progress.setWorkRemaining(2);
    for (Problem problem : snapshot.getProblemsList()) problems.add(describe(problem));
    List<Step> steps = plan(locations, snapshot, problems);
    boolean wasOpen = experiment.getTrace() != null;
    List<String> finalLocations = new ArrayList<>();
    int[] replaced = {0};
    Display.getDefault().syncExec(() -> replaced[0] = apply(steps, locations, problems, finalLocations));
    progress.worked(1);

    // Keyed by the traces the experiment holds now, so reopening it finds the result.
    cache.write(new SnapshotCache.Entry(ExperimentResults.tracesKey(finalLocations), reference.cacheKey(), snapshot));
    // A result of Trace Compass's own algorithm for these traces is superseded.
    Files.deleteIfExists(Path.of(supplementary, ExperimentResults.SYNC_FOLDER, ExperimentResults.TRACE_COMPASS_RESULT));
    experiment.refreshSupplementaryFolder();

    TmfSignalManager.dispatchSignal(new TmfTraceSynchronizedSignal(
        new SynchronizedExperiment(experiment.getName(), cached.isPresent()), new TracesyncAlgorithm(snapshot)));
    if (wasOpen && replaced[0] > 0) Display.getDefault().asyncExec(() -> TmfOpenTraceHelper.openFromElement(experiment));
    progress.worked(1);
    return report(problems);
  }

  private Optional<Snapshot> cached(SnapshotCache cache, String tracesKey) {
    try {
      return cache.find(tracesKey, reference.cacheKey());
    } catch (IOException e) {
      Log.warning(e.getMessage() + "; synchronizing again");
      return Optional.empty();
    }
  }

  /** Each trace's transform, or a problem saying why it has none. */
  private static List<Step> plan(Map<TmfTraceElement, String> locations, Snapshot snapshot, List<String> problems) {
    SnapshotTraces traces = new SnapshotTraces(snapshot);
    List<Step> steps = new ArrayList<>();
    for (Map.Entry<TmfTraceElement, String> entry : locations.entrySet()) {
      String name = entry.getKey().getElementPath();
      try {
        Optional<String> unsynchronized = traces.unsynchronizedReason(entry.getValue());
        if (unsynchronized.isPresent()) {
          problems.add(name + ": not synchronized with the rest (" + unsynchronized.get() + "); it keeps its own clock");
          continue;
        }
        Optional<TraceTransform> transform = traces.transformAt(entry.getValue());
        if (transform.isEmpty()) {
          // A trace the engine skipped is reported once, by the snapshot's problem about it.
          if (!traces.hasProblemAt(entry.getValue())) {
            problems.add(name + ": tracesync read no trace there; it keeps its own clock");
          }
          continue;
        }
        Optional<PiecewiseClock> pieces = traces.piecesAt(entry.getValue());
        ITmfTimestampTransform target = pieces.isPresent() ? TraceCompassTransforms.of(pieces.get())
            : TraceCompassTransforms.of(transform.get());
        // Where the transforms may differ: each trace's ends and middle, and every piece's start.
        long[] probes = traces.at(entry.getValue()).stream()
            .flatMapToLong((Trace t) -> LongStream.concat(
                LongStream.of(t.getFirstNs(), (t.getFirstNs() + t.getLastNs()) / 2, t.getLastNs()),
                t.getSegmentsList().stream().mapToLong(Segment::getFirstNs)))
            .toArray();
        steps.add(new Step(entry.getKey(), entry.getValue(), target, probes));
      } catch (IllegalStateException e) {
        problems.add(name + ": " + e.getMessage());
      }
    }
    return steps;
  }

  /** In the UI thread: the copy-and-replace of each trace whose transform changes. Returns how many were replaced. */
  private int apply(List<Step> steps, Map<TmfTraceElement, String> locations, List<String> problems,
      List<String> finalLocations) {
    // The list was read when the job started; if it changed since, the plan is about traces no longer there.
    List<String> now = experiment.getTraces().stream().map(TmfTraceElement::getElementPath).toList();
    List<String> planned = locations.keySet().stream().map(TmfTraceElement::getElementPath).toList();
    if (!now.equals(planned)) {
      problems.add("the traces of " + experiment.getName() + " changed while it was being synchronized: nothing was"
          + " applied; synchronize it again");
      finalLocations.addAll(locations.values());
      return 0;
    }
    List<TmfTraceElement> toRemove = new ArrayList<>();
    List<TmfTraceElement> toAdd = new ArrayList<>();
    Map<TmfTraceElement, String> kept = new LinkedHashMap<>(locations);
    for (Step step : steps) {
      TmfTraceElement original = step.element().getElementUnderTraceFolder();
      ITmfTimestampTransform target = step.transform();
      ITmfTimestampTransform current = TimestampTransformFactory.getTimestampTransform(original.getResource());
      if (TraceCompassTransforms.agreeOn(current, target, step.probes())) continue;  // already on the common base
      TmfTraceElement copy = original.copy(freeName(original));
      IPath copyLocation = copy == null ? null : copy.getResource().getLocation();
      if (copyLocation == null) {
        problems.add(step.element().getElementPath() + ": could not copy the trace to give it its transform");
        continue;
      }
      copy.refreshSupplementaryFolder();  // the transform is stored in the copy's supplementary folder
      TimestampTransformFactory.setTimestampTransform(copy.getResource(), target);
      copy.refreshSupplementaryFolder();
      toRemove.add(step.element());
      toAdd.add(copy);
      kept.remove(step.element());
      finalLocations.add(copyLocation.toOSString());
    }
    finalLocations.addAll(kept.values());
    for (TmfTraceElement trace : toRemove) {
      try {
        experiment.removeTrace(trace);
      } catch (CoreException e) {
        problems.add(trace.getElementPath() + ": could not be removed from the experiment: " + e.getMessage());
      }
    }
    for (TmfTraceElement trace : toAdd) experiment.addTrace(trace);
    return toAdd.size();
  }

  /** The original's name followed by as many '_' as it takes to be new in its folder, as Trace Compass does. */
  private static String freeName(TmfTraceElement original) {
    IContainer folder = original.getResource().getParent();
    StringBuilder name = new StringBuilder(original.getName());
    do {
      name.append('_');
    } while (folder.findMember(name.toString()) != null);
    return name.toString();
  }

  private static String describe(Problem problem) {
    return problem.getSource() + (problem.getLine() > 0 ? ":" + problem.getLine() : "") + ": " + problem.getMessage()
        + (problem.getSkipped() ? " (skipped)" : "");
  }

  private IStatus report(List<String> problems) {
    if (problems.isEmpty()) return Status.OK_STATUS;
    MultiStatus status = new MultiStatus(Log.PLUGIN_ID, 0,
        experiment.getName() + " was synchronized, with " + CountFormat.of(problems.size(), "problem"), null);
    for (String problem : problems) status.add(new Status(IStatus.WARNING, Log.PLUGIN_ID, problem));
    // Not logged here: the job manager logs the status the job returns (logging it too showed it twice).
    Display.getDefault().asyncExec(() -> MessageDialog.openWarning(Display.getDefault().getActiveShell(),
        SynchronizeHandler.TITLE, status.getMessage() + ":\n\n" + String.join("\n", problems)));
    return status;
  }
}
