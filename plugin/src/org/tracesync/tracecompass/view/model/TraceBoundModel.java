// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.model;

import java.util.ArrayList;
import java.util.List;
import org.tracesync.proto.Segment;
import org.tracesync.proto.Trace;

/**
 * A trace's bound over time, as the snapshot states it: within each piece of the transform the bound is the linear
 * interpolation of its two ends, so the polyline through the pieces' ends is the bound at every instant. The
 * horizontal axis is the time since the trace's first event (u, ns), the vertical one the bound (ns). Where messages
 * are dense the bound is tight; it grows in gaps and towards the trace's ends.
 */
public final class TraceBoundModel {
  private final String title;
  private final long originNs;
  private final List<LinkPlotModel.PlotPoint> bound;
  private final List<Double> pieceStarts;
  private final double uMax;
  private final double vMax;

  private TraceBoundModel(String title, long originNs, List<LinkPlotModel.PlotPoint> bound, List<Double> pieceStarts,
      double uMax) {
    this.title = title;
    this.originNs = originNs;
    this.bound = List.copyOf(bound);
    this.pieceStarts = List.copyOf(pieceStarts);
    this.uMax = uMax;
    double highest = bound.stream().mapToDouble(LinkPlotModel.PlotPoint::v).max().orElse(0);
    this.vMax = highest > 0 ? highest * 1.1 : 1;
  }

  public static TraceBoundModel empty(String title) {
    return new TraceBoundModel(title, 0, List.of(), List.of(), 0);
  }

  /** The bound of {@code trace} over its span; a trace without pieces has its one bound across the span. */
  public static TraceBoundModel of(Trace trace) {
    String title = trace.getName() + ": bound over time";
    long first = trace.getFirstNs();
    long last = Math.max(trace.getLastNs(), first + 1);
    List<LinkPlotModel.PlotPoint> points = new ArrayList<>();
    List<Double> starts = new ArrayList<>();
    if (trace.getSegmentsCount() == 0) {
      points.add(new LinkPlotModel.PlotPoint(0, trace.getUncertaintyNs()));
      points.add(new LinkPlotModel.PlotPoint(last - first, trace.getUncertaintyNs()));
    }
    for (int i = 0; i < trace.getSegmentsCount(); i++) {
      Segment s = trace.getSegments(i);
      if (i > 0) starts.add((double) (s.getFirstNs() - first));
      points.add(new LinkPlotModel.PlotPoint(s.getFirstNs() - first, s.getUncertaintyFirstNs()));
      points.add(new LinkPlotModel.PlotPoint(s.getLastNs() - first, s.getUncertaintyLastNs()));
    }
    return new TraceBoundModel(title, first, points, starts, last - first);
  }

  public boolean isEmpty() {
    return bound.isEmpty();
  }

  public String title() {
    return title;
  }

  /** The trace's first event, in ns since the epoch: u = 0. */
  public long originNs() {
    return originNs;
  }

  /** The bound at the ends of every piece, in time order (a piece's end and the next one's start share a u). */
  public List<LinkPlotModel.PlotPoint> bound() {
    return bound;
  }

  /** Where each piece after the first starts, in u. */
  public List<Double> pieceStarts() {
    return pieceStarts;
  }

  public double uMax() {
    return uMax;
  }

  /** The top of the vertical axis: a tenth above the largest bound. */
  public double vMax() {
    return vMax;
  }
}
