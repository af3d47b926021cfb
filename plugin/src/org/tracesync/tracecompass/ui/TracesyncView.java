// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.ui;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Display;
import org.eclipse.tracecompass.tmf.core.TmfCommonConstants;
import org.eclipse.tracecompass.tmf.core.signal.TmfSignalHandler;
import org.eclipse.tracecompass.tmf.core.signal.TmfTraceClosedSignal;
import org.eclipse.tracecompass.tmf.core.signal.TmfTraceOpenedSignal;
import org.eclipse.tracecompass.tmf.core.signal.TmfTraceSelectedSignal;
import org.eclipse.tracecompass.tmf.core.signal.TmfTraceSynchronizedSignal;
import org.eclipse.tracecompass.tmf.core.trace.ITmfTrace;
import org.eclipse.tracecompass.tmf.core.trace.TmfTraceManager;
import org.eclipse.tracecompass.tmf.core.trace.experiment.TmfExperiment;
import org.eclipse.tracecompass.tmf.ui.project.model.TmfExperimentElement;
import org.eclipse.tracecompass.tmf.ui.views.TmfView;
import org.eclipse.ui.IPageLayout;
import org.eclipse.ui.ISelectionListener;
import org.eclipse.ui.IWorkbenchPart;
import org.tracesync.Options;
import org.tracesync.proto.Snapshot;
import org.tracesync.tracecompass.core.ExperimentResults;
import org.tracesync.tracecompass.core.TracesyncAlgorithm;
import org.tracesync.tracecompass.live.LiveFollowing;
import org.tracesync.tracecompass.view.widgets.SynchronizationPanel;

/**
 * The "Trace Synchronization" view: the link table, the spanning tree and the plot of the selected link for the
 * experiment at hand. It shows each new tracesync result as it is announced (TmfTraceSynchronizedSignal), and the
 * cached result of an experiment when it is opened, when its editor is brought to the front, or when it is selected
 * in the Project Explorer without being opened.
 *
 * <p>While it follows live sessions or trace folders being written (Follow Live Sessions), it shows each new live
 * result instead, and signals about experiments do not replace it until following ends.
 */
public class TracesyncView extends TmfView {
  public static final String ID = "org.tracesync.tracecompass.view";
  /**
   * How long a live source not there yet is looked for (tracesync live --wait): from the dialog a user starts
   * following before the hosts record, since a relay sends a viewer only what is recorded after it attached.
   */
  private static final Duration WAIT = Duration.ofMinutes(1);

  private SynchronizationPanel panel;
  private String shownExperiment;
  /** An experiment selected in the Project Explorer, opened or not. */
  private final ISelectionListener explorerSelection = this::explorerSelectionChanged;
  /** What the view follows live, if anything; `following` until it ends (its generation: the latest start). */
  private LiveFollowing live;
  private volatile boolean following;
  private final AtomicInteger generation = new AtomicInteger();

  public TracesyncView() {
    super("Trace Synchronization");
  }

  @Override
  public void createPartControl(Composite parent) {
    super.createPartControl(parent);
    panel = new SynchronizationPanel(parent);
    getSite().getPage().addPostSelectionListener(IPageLayout.ID_PROJECT_EXPLORER, explorerSelection);
    ITmfTrace active = TmfTraceManager.getInstance().getActiveTrace();
    if (active instanceof TmfExperiment experiment) {
      showCached(experiment);
    } else {
      explorerSelectionChanged(null, getSite().getPage().getSelection(IPageLayout.ID_PROJECT_EXPLORER));
    }
  }

  @Override
  public void dispose() {
    stopFollowing();
    getSite().getPage().removePostSelectionListener(IPageLayout.ID_PROJECT_EXPLORER, explorerSelection);
    super.dispose();
  }

  @Override
  public void setFocus() {
    if (panel != null) panel.setFocus();
  }

  @TmfSignalHandler
  public void traceSynchronized(TmfTraceSynchronizedSignal signal) {
    if (!(signal.getSyncAlgo() instanceof TracesyncAlgorithm algorithm)) return;
    String caption;
    String experiment;
    if (signal.getSource() instanceof SynchronizedExperiment source) {
      caption = source.caption();
      experiment = source.name();
    } else if (signal.getSource() instanceof TmfExperiment source) {
      caption = "Experiment " + source.getName();
      experiment = source.getName();
    } else {
      caption = "Latest synchronization";
      experiment = null;
    }
    show(experiment, algorithm.snapshot(), caption);
  }

  @TmfSignalHandler
  public void traceOpened(TmfTraceOpenedSignal signal) {
    if (signal.getTrace() instanceof TmfExperiment experiment) showCached(experiment);
  }

  @TmfSignalHandler
  public void traceSelected(TmfTraceSelectedSignal signal) {
    if (signal.getTrace() instanceof TmfExperiment experiment) showCached(experiment);
  }

  @TmfSignalHandler
  public void traceClosed(TmfTraceClosedSignal signal) {
    if (signal.getTrace() instanceof TmfExperiment experiment && experiment.getName().equals(shownExperiment)) {
      inUiThread(() -> panel.clear("Experiment " + experiment.getName() + " was closed."));
    }
  }

  private void explorerSelectionChanged(IWorkbenchPart part, ISelection selection) {
    if (selection instanceof IStructuredSelection structured && structured.size() == 1
        && structured.getFirstElement() instanceof TmfExperimentElement experiment) {
      showCached(experiment);
    }
  }

  /** An experiment's cached result, found from its supplementary folder and its traces' folders: it need not be open. */
  private void showCached(TmfExperimentElement experiment) {
    Optional<Snapshot> cached = Optional.empty();
    try {
      String supplementary =
          experiment.getResource().getPersistentProperty(TmfCommonConstants.TRACE_SUPPLEMENTARY_FOLDER);
      if (supplementary != null) {
        cached = ExperimentResults.lookup(experiment.getName(), supplementary,
            ExperimentTraces.locations(experiment).values());
      }
    } catch (CoreException | IOException e) {
      // A trace not on disk, or an experiment whose folder is gone: there is nothing tracesync could have cached.
    }
    showCachedOrNone(experiment.getName(), cached);
  }

  private void showCached(TmfExperiment experiment) {
    showCachedOrNone(experiment.getName(), ExperimentResults.lookup(experiment));
  }

  private void showCachedOrNone(String experiment, Optional<Snapshot> cached) {
    if (following) return;  // the live result stays until following ends
    if (cached.isPresent()) {
      show(experiment, cached.get(), "Experiment " + experiment + " (cached result)");
    } else {
      shownExperiment = experiment;
      inUiThread(() -> panel.clear("Experiment " + experiment
          + " has no tracesync result for its current traces: run Synchronize Traces (tracesync) on it."));
    }
  }

  /**
   * Follows {@code sources} (LTTng live session URLs, trace folders being written) and shows each new result, then
   * the final one; what the view followed before is stopped.
   */
  public void followLive(List<String> sources, Options options) {
    stopFollowing();
    shownExperiment = null;
    following = true;
    int mine = generation.incrementAndGet();
    inUiThread(() -> panel.clear(LiveFollowing.waitingCaption(sources, WAIT)));
    live = LiveFollowing.start(sources, options, Duration.ofSeconds(1), Duration.ofSeconds(10), WAIT,
        result -> inUiThread(() -> {
          if (generation.get() == mine) panel.show(result, LiveFollowing.caption(result, sources.size()));
        }),
        end -> inUiThread(() -> {
          if (generation.get() != mine) return;  // a following since replaced
          following = false;
          if (end.finalResult() != null) {
            panel.show(end.finalResult(), LiveFollowing.endCaption(end.finalResult()));
          } else if (end.error() != null) {
            panel.clear("Following " + String.join(" ", sources) + " failed: " + end.error());
          }
        }));
  }

  /** Stops following; the last result stays shown. */
  public void stopFollowing() {
    LiveFollowing stopped = live;
    live = null;
    following = false;
    generation.incrementAndGet();  // its results still on their way to the UI thread are not shown
    if (stopped != null) stopped.stop();
  }

  private void show(String experiment, Snapshot snapshot, String caption) {
    if (following) return;  // the live result stays until following ends
    shownExperiment = experiment;
    inUiThread(() -> panel.show(snapshot, caption));
  }

  /** Signals arrive on any thread; widgets are touched on the UI thread, and not once the view is gone. */
  private void inUiThread(Runnable action) {
    Display.getDefault().asyncExec(() -> {
      if (panel != null && !panel.isDisposed()) action.run();
    });
  }
}
