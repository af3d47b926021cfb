// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.widgets;

import static org.tracesync.tracecompass.view.widgets.SpanningTreePainter.color;

import java.util.List;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.Rectangle;
import org.tracesync.tracecompass.view.model.LinearAxis;
import org.tracesync.tracecompass.view.model.LinkPlotModel.PlotPoint;
import org.tracesync.tracecompass.view.model.TraceBoundModel;

/**
 * Draws a {@link TraceBoundModel}: the bound of a trace's transform over its span, filled down to zero, with a dashed
 * line where each piece of the transform after the first begins.
 */
public final class TraceBoundPainter {
  private TraceBoundModel model = TraceBoundModel.empty("");

  public void setModel(TraceBoundModel model) {
    this.model = model;
  }

  public TraceBoundModel model() {
    return model;
  }

  /** Where the plot itself lies inside {@code area}, its header laid out in the display's default font. */
  public Rectangle plotArea(Rectangle area) {
    return DisplayText.layOut(gc -> plotArea(gc, area));
  }

  private Rectangle plotArea(GC gc, Rectangle area) {
    int top = LinkPlotPainter.top(header(gc, area), area);
    int bottom = PlotAxes.bottom(gc, area, area.x + LinkPlotPainter.LEFT, caption());
    return new Rectangle(area.x + LinkPlotPainter.LEFT, area.y + top,
        Math.max(1, area.width - LinkPlotPainter.LEFT - LinkPlotPainter.RIGHT),
        Math.max(1, area.height - top - bottom));
  }

  /** What the horizontal axis counts from, under it. */
  private String caption() {
    return "time since the trace's first event, " + model.originNs() + " ns";
  }

  /** The title, and for a trace what the bound means, wrapped at the area's width as the link plot's are. */
  PlotHeader header(GC gc, Rectangle area) {
    String title = model.title().isEmpty() ? "Bound over time" : model.title();
    List<String> paragraphs = model.isEmpty() ? List.of(title)
        : List.of(title, "the truth lies within this distance of the transform, at every instant");
    return PlotHeader.layOut(gc, area, area.x + LinkPlotPainter.LEFT, paragraphs, List.of());
  }

  public LinearAxis uAxis(Rectangle area) {
    return axisAlong(plotArea(area));
  }

  public LinearAxis vAxis(Rectangle area) {
    return axisUp(plotArea(area));
  }

  private LinearAxis axisAlong(Rectangle plot) {
    return new LinearAxis(0, Math.max(1, model.uMax()), plot.x, plot.x + plot.width);
  }

  private LinearAxis axisUp(Rectangle plot) {
    return new LinearAxis(0, model.vMax(), plot.y + plot.height, plot.y);
  }

  public void paint(GC gc, Rectangle area) {
    gc.setAntialias(SWT.ON);
    gc.setBackground(color(Palette.BACKGROUND));
    gc.fillRectangle(area);
    gc.setForeground(color(Palette.TEXT));
    if (!model.isEmpty() && ShortArea.hintIfShort(gc, area, LinkPlotPainter.MIN_HEIGHT)) return;
    LinkPlotPainter.drawHeader(gc, header(gc, area));
    Rectangle plot = plotArea(gc, area);
    if (model.isEmpty()) {
      gc.drawText("Select a trace", plot.x, plot.y + 10, true);
      return;
    }
    LinearAxis u = axisAlong(plot);
    LinearAxis v = axisUp(plot);
    PlotAxes.draw(gc, u, v, plot, area, caption());
    List<PlotPoint> bound = model.bound();
    int[] polygon = new int[bound.size() * 2 + 4];
    for (int i = 0; i < bound.size(); i++) {
      polygon[2 * i] = (int) Math.round(u.toPixel(bound.get(i).u()));
      polygon[2 * i + 1] = (int) Math.round(v.toPixel(bound.get(i).v()));
    }
    int base = (int) Math.round(v.toPixel(0));
    polygon[bound.size() * 2] = polygon[bound.size() * 2 - 2];
    polygon[bound.size() * 2 + 1] = base;
    polygon[bound.size() * 2 + 2] = polygon[0];
    polygon[bound.size() * 2 + 3] = base;
    gc.setBackground(color(Palette.BOUND_FILL));
    gc.fillPolygon(polygon);
    gc.setForeground(color(Palette.BOUND_LINE));
    gc.setLineWidth(2);
    gc.drawPolyline(java.util.Arrays.copyOf(polygon, bound.size() * 2));
    gc.setLineWidth(1);
    gc.setForeground(color(Palette.SEGMENT_START));
    gc.setLineStyle(SWT.LINE_DASH);
    for (double start : model.pieceStarts()) {
      int x = (int) Math.round(u.toPixel(start));
      gc.drawLine(x, plot.y, x, plot.y + plot.height);
    }
    gc.setLineStyle(SWT.LINE_SOLID);
  }

  /** The pixel of a point of the bound inside {@code area}. */
  public Point toPixel(Rectangle area, PlotPoint point) {
    return new Point((int) Math.round(uAxis(area).toPixel(point.u())),
        (int) Math.round(vAxis(area).toPixel(point.v())));
  }
}
