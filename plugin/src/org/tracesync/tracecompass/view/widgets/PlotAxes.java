// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.widgets;

import static org.tracesync.tracecompass.view.widgets.SpanningTreePainter.color;

import java.util.List;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.Rectangle;
import org.tracesync.tracecompass.view.model.LinearAxis;
import org.tracesync.tracecompass.view.model.NanosecondFormat;

/**
 * The grid, tick labels, frame and caption of a plot whose two axes are in nanoseconds. Everything stays inside the
 * plot's area: in a narrow view (the Traces tab's plot at about 300 px) the caption wraps, and the plot's bottom rises
 * by its extra rows; a tick label at the right end is moved in from the edge.
 */
final class PlotAxes {
  /** Room under the plot for one row of tick labels and one of caption. */
  static final int BOTTOM = 44;
  /** Where a caption's last row starts, above the area's bottom. */
  private static final int CAPTION_FROM_BOTTOM = 18;
  /** The least room between two tick labels of the horizontal axis. */
  private static final int LABEL_GAP = 6;

  private PlotAxes() {}

  /** The room under a plot whose left is {@code plotLeft} inside {@code area}, for its tick labels and caption. */
  static int bottom(GC gc, Rectangle area, int plotLeft, String caption) {
    return BOTTOM + (captionRows(gc, area, plotLeft, caption, 0).size() - 1) * gc.getFontMetrics().getHeight();
  }

  private static List<PlotHeader.Piece> captionRows(GC gc, Rectangle area, int plotLeft, String caption, int y) {
    return PlotHeader.wrap(gc, caption, plotLeft, area.x + area.width - PlotHeader.MARGIN, y);
  }

  /**
   * Draws them around {@code plot}; horizontal ticks read as time after the origin ("+2 s"), and {@code caption}
   * goes under the horizontal axis, its last row at the bottom of {@code area}.
   */
  static void draw(GC gc, LinearAxis u, LinearAxis v, Rectangle plot, Rectangle area, String caption) {
    gc.setLineWidth(1);
    int right = area.x + area.width - PlotHeader.MARGIN;
    int previousEnd = Integer.MIN_VALUE;
    for (double tick : u.ticks(Math.max(2, plot.width / 90))) {
      int x = (int) Math.round(u.toPixel(tick));
      gc.setForeground(color(Palette.GRID));
      gc.drawLine(x, plot.y, x, plot.y + plot.height);
      gc.setForeground(color(Palette.AXIS));
      String label = tick == 0 ? "0" : "+" + NanosecondFormat.format(tick);
      int width = gc.textExtent(label).x;
      int left = Math.min(x - width / 2, right - width);  // centred under its tick, or moved in from the edge
      if (left < previousEnd + LABEL_GAP) continue;  // it would run into the label before it
      gc.drawText(label, left, plot.y + plot.height + 4, true);
      previousEnd = left + width;
    }
    for (double tick : v.ticks(Math.max(2, plot.height / 40))) {
      int y = (int) Math.round(v.toPixel(tick));
      gc.setForeground(color(Palette.GRID));
      gc.drawLine(plot.x, y, plot.x + plot.width, y);
      gc.setForeground(color(Palette.AXIS));
      String label = NanosecondFormat.format(tick);
      Point extent = gc.textExtent(label);
      gc.drawText(label, plot.x - extent.x - 6, y - extent.y / 2, true);
    }
    gc.setForeground(color(Palette.AXIS));
    gc.drawRectangle(plot);
    List<PlotHeader.Piece> rows = captionRows(gc, area, plot.x, caption, 0);
    int rowHeight = gc.getFontMetrics().getHeight();
    int first = area.y + area.height - CAPTION_FROM_BOTTOM - (rows.size() - 1) * rowHeight;
    for (PlotHeader.Piece row : rows) gc.drawText(row.text(), row.x(), first + row.y(), true);
  }
}
