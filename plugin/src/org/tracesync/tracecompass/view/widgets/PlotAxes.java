// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.widgets;

import static org.tracesync.tracecompass.view.widgets.SpanningTreePainter.color;

import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.Rectangle;
import org.tracesync.tracecompass.view.model.LinearAxis;
import org.tracesync.tracecompass.view.model.NanosecondFormat;

/** The grid, tick labels and frame of a plot whose two axes are in nanoseconds. */
final class PlotAxes {
  private PlotAxes() {}

  /**
   * Draws them around {@code plot}; horizontal ticks read as time after the origin ("+2 s"), and {@code caption}
   * goes under the horizontal axis, at the bottom of {@code area}.
   */
  static void draw(GC gc, LinearAxis u, LinearAxis v, Rectangle plot, Rectangle area, String caption) {
    gc.setLineWidth(1);
    for (double tick : u.ticks(Math.max(2, plot.width / 90))) {
      int x = (int) Math.round(u.toPixel(tick));
      gc.setForeground(color(Palette.GRID));
      gc.drawLine(x, plot.y, x, plot.y + plot.height);
      gc.setForeground(color(Palette.AXIS));
      String label = tick == 0 ? "0" : "+" + NanosecondFormat.format(tick);
      gc.drawText(label, x - gc.textExtent(label).x / 2, plot.y + plot.height + 4, true);
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
    gc.drawText(caption, plot.x, area.y + area.height - 18, true);
  }
}
