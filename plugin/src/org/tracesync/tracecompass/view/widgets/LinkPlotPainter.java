// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.widgets;

import static org.tracesync.tracecompass.view.widgets.SpanningTreePainter.color;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.graphics.Rectangle;
import org.tracesync.tracecompass.view.model.LinearAxis;
import org.tracesync.tracecompass.view.model.LinkPlotModel;
import org.tracesync.tracecompass.view.model.LinkPlotModel.PlotPoint;
import org.tracesync.tracecompass.view.model.LinkPlotModel.Segment;

/**
 * Draws a {@link LinkPlotModel}: the hull vertices of both directions joined into their hulls, Lmin, Lmax and the
 * estimate, on axes of time since the link's origin (horizontal) and distance from the estimate (vertical). It draws
 * on any GC; {@link #geometry} maps plot coordinates to pixels.
 */
public final class LinkPlotPainter {
  static final int LEFT = 78;
  static final int RIGHT = 16;
  static final int TOP = 48;  // title row, legend row: the least; a narrow area wraps them into more rows
  static final int MARKER = 5;
  /** The least height a plot is drawn in: its title, legend and axes, and a plot area that shows something. */
  static final int MIN_HEIGHT = TOP + PlotAxes.BOTTOM + 40;

  /** The axes of a model drawn inside an area. */
  public static final class Geometry {
    private final LinearAxis u;
    private final LinearAxis v;
    private final Rectangle plotArea;

    Geometry(LinkPlotModel model, Rectangle area, int top, int bottom) {
      plotArea = new Rectangle(area.x + LEFT, area.y + top, Math.max(1, area.width - LEFT - RIGHT),
          Math.max(1, area.height - top - bottom));
      double uMax = model.uMax() > model.uMin() ? model.uMax() : model.uMin() + 1;
      u = new LinearAxis(model.uMin(), uMax, plotArea.x, plotArea.x + plotArea.width);
      v = new LinearAxis(model.vMin(), model.vMax(), plotArea.y + plotArea.height, plotArea.y);
    }

    public Point toPixel(PlotPoint point) {
      return new Point((int) Math.round(u.toPixel(point.u())), (int) Math.round(v.toPixel(point.v())));
    }

    public Rectangle plotArea() {
      return plotArea;
    }

    public LinearAxis uAxis() {
      return u;
    }

    public LinearAxis vAxis() {
      return v;
    }
  }

  private LinkPlotModel model = LinkPlotModel.empty("");

  public void setModel(LinkPlotModel model) {
    this.model = model;
  }

  public LinkPlotModel model() {
    return model;
  }

  /** Whether a plot drawn in {@code area} can be read; in a shorter one, a hint is drawn instead. */
  public boolean fits(Rectangle area) {
    return area.height >= MIN_HEIGHT;
  }

  /** Where the plot is drawn in {@code area}, its header laid out in the display's default font, as a canvas has. */
  public Geometry geometry(Rectangle area) {
    return DisplayText.layOut(gc -> geometry(gc, area));
  }

  Geometry geometry(GC gc, Rectangle area) {
    return new Geometry(model, area, top(header(gc, area), area), PlotAxes.bottom(gc, area, area.x + LEFT, caption()));
  }

  /** What the horizontal axis counts from, under it. */
  private String caption() {
    return "time since " + model.originNs() + " ns";
  }

  /** The title and the legend laid out to the area's width, the off-scale note last. */
  PlotHeader header(GC gc, Rectangle area) {
    String title = model.title().isEmpty() ? "Link plot" : model.title();
    String range = model.range() == LinkPlotModel.Range.MESSAGES ? "zoomed to the messages" : "whole span";
    List<PlotHeader.Key> keys = new ArrayList<>();
    if (!model.isEmpty()) {
      keys.add(new PlotHeader.Key("a \u2192 b hull", Palette.LOWER_HULL));
      keys.add(new PlotHeader.Key("b \u2192 a hull", Palette.UPPER_HULL));
      keys.add(new PlotHeader.Key("Lmin", Palette.LMIN));
      keys.add(new PlotHeader.Key("Lmax", Palette.LMAX));
      keys.add(new PlotHeader.Key("estimate", Palette.ESTIMATE));
      if (!model.offScaleNote().isEmpty()) keys.add(new PlotHeader.Key(model.offScaleNote(), null));
    }
    return PlotHeader.layOut(gc, area, area.x + LEFT, title + "  (" + range + "; vertical: distance from the estimate)",
        keys);
  }

  /** The plot area's top: under the header, and at least {@link #TOP} from the area's. */
  static int top(PlotHeader header, Rectangle area) {
    return Math.max(TOP, header.bottom() + 7 - area.y);
  }

  public void paint(GC gc, Rectangle area) {
    gc.setAntialias(SWT.ON);
    gc.setBackground(color(Palette.BACKGROUND));
    gc.fillRectangle(area);
    gc.setForeground(color(Palette.TEXT));
    if (!model.isEmpty() && ShortArea.hintIfShort(gc, area, MIN_HEIGHT)) return;
    PlotHeader header = header(gc, area);
    drawHeader(gc, header);
    if (model.isEmpty()) {
      gc.drawText(model.title().isEmpty() ? "Select a link" : "No messages on this link", area.x + LEFT,
          area.y + top(header, area) + 10, true);
      return;
    }
    Geometry geometry = new Geometry(model, area, top(header, area), PlotAxes.bottom(gc, area, area.x + LEFT,
        caption()));
    drawAxes(gc, geometry, area);
    Rectangle clip = gc.getClipping();
    gc.setClipping(geometry.plotArea());
    drawSegmentStarts(gc, geometry);
    drawHull(gc, geometry, model.lowerHull(), Palette.LOWER_HULL);
    drawHull(gc, geometry, model.upperHull(), Palette.UPPER_HULL);
    drawLine(gc, geometry, model.lmin(), Palette.LMIN);
    drawLine(gc, geometry, model.lmax(), Palette.LMAX);
    drawLine(gc, geometry, model.estimate(), Palette.ESTIMATE);
    // Vertices last: Lmin and Lmax touch hull vertices, and those are the points worth seeing.
    drawVertices(gc, geometry, model.lowerHull(), Palette.LOWER_HULL);
    drawVertices(gc, geometry, model.upperHull(), Palette.UPPER_HULL);
    gc.setClipping(clip);
    // Unclipped: the first and last messages, the likeliest to be off the scale, are at the plot's left and right.
    drawOffScale(gc, geometry, model.lowerHull(), Palette.LOWER_HULL);
    drawOffScale(gc, geometry, model.upperHull(), Palette.UPPER_HULL);
  }

  private void drawAxes(GC gc, Geometry geometry, Rectangle area) {
    PlotAxes.draw(gc, geometry.uAxis(), geometry.vAxis(), geometry.plotArea(), area, caption());
  }

  /** A dashed vertical line where each segment of the piecewise clock model after the first begins. */
  private void drawSegmentStarts(GC gc, Geometry geometry) {
    Rectangle plot = geometry.plotArea();
    gc.setForeground(color(Palette.SEGMENT_START));
    gc.setLineStyle(SWT.LINE_DASH);
    for (double u : model.segmentStarts()) {
      int x = (int) Math.round(geometry.uAxis().toPixel(u));
      gc.drawLine(x, plot.y, x, plot.y + plot.height);
    }
    gc.setLineStyle(SWT.LINE_SOLID);
  }

  private static void drawHull(GC gc, Geometry geometry, List<PlotPoint> hull, RGB rgb) {
    if (hull.isEmpty()) return;
    int[] polyline = new int[hull.size() * 2];
    for (int i = 0; i < hull.size(); i++) {
      Point p = geometry.toPixel(hull.get(i));
      polyline[2 * i] = p.x;
      polyline[2 * i + 1] = p.y;
    }
    gc.setForeground(color(rgb));
    gc.setLineWidth(2);
    gc.drawPolyline(polyline);
    gc.setLineWidth(1);
  }

  /** Each vertex on the scale as a square. */
  private void drawVertices(GC gc, Geometry geometry, List<PlotPoint> hull, RGB rgb) {
    gc.setBackground(color(rgb));
    for (PlotPoint vertex : hull) {
      if (!model.clamped(vertex).equals(vertex)) continue;
      Point p = geometry.toPixel(vertex);
      gc.fillRectangle(p.x - MARKER / 2, p.y - MARKER / 2, MARKER, MARKER);
    }
  }

  /** Each vertex off the scale as a triangle at the edge it lies beyond, pointing its way. */
  private void drawOffScale(GC gc, Geometry geometry, List<PlotPoint> hull, RGB rgb) {
    gc.setBackground(color(rgb));
    for (PlotPoint vertex : hull) {
      PlotPoint shown = model.clamped(vertex);
      if (shown.equals(vertex)) continue;
      Point p = geometry.toPixel(shown);
      gc.fillPolygon(offScaleMarker(p.x, p.y, vertex.v() > shown.v()));
    }
  }

  /** A triangle of side 2 * MARKER whose tip is at (x, y), pointing up or down. */
  private static int[] offScaleMarker(int x, int y, boolean up) {
    int base = up ? y + MARKER + 2 : y - MARKER - 2;
    return new int[] {x, y, x - MARKER, base, x + MARKER, base};
  }

  private static void drawLine(GC gc, Geometry geometry, Optional<Segment> segment, RGB rgb) {
    if (segment.isEmpty()) return;
    Point from = geometry.toPixel(segment.get().from());
    Point to = geometry.toPixel(segment.get().to());
    gc.setForeground(color(rgb));
    gc.setLineWidth(2);
    gc.drawLine(from.x, from.y, to.x, to.y);
    gc.setLineWidth(1);
  }

  /** The title's rows, then each legend key after its swatch, and the off-scale note after a triangle. */
  static void drawHeader(GC gc, PlotHeader header) {
    int rowHeight = gc.getFontMetrics().getHeight();
    for (PlotHeader.Piece piece : header.pieces()) {
      if (piece.mark() == PlotHeader.Mark.SWATCH) {
        gc.setBackground(color(piece.colour()));
        gc.fillRectangle(piece.x(), piece.y() + rowHeight / 2 - 2, PlotHeader.SWATCH, 4);
      } else if (piece.mark() == PlotHeader.Mark.TRIANGLE) {
        gc.setBackground(color(Palette.TEXT));
        gc.fillPolygon(offScaleMarker(piece.x() + 6, piece.y() + rowHeight / 2 - MARKER / 2 - 1, true));
      }
      gc.setForeground(color(Palette.TEXT));
      gc.drawText(piece.text(), piece.textX(), piece.y(), true);
    }
  }
}
