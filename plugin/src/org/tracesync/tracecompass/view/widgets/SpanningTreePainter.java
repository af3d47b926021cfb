// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.widgets;

import java.util.List;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.graphics.Rectangle;
import org.tracesync.tracecompass.view.model.SpanningTreeLayout;
import org.tracesync.tracecompass.view.model.SpanningTreeLayout.Edge;
import org.tracesync.tracecompass.view.model.SpanningTreeLayout.Node;

/**
 * Draws a {@link SpanningTreeLayout}: tree links solid, the other usable links dashed and pale, the selected link in
 * the selection colour, and each clock as a labelled box, the reference's filled with {@link Palette#REFERENCE_FILL}.
 * It draws on any GC (a canvas, or an image in tests); {@link #geometry} says where everything goes. Its title wraps
 * at the area's width (beside the table in a narrow view, the tree is about 215 px wide) and the nodes start under it.
 */
public final class SpanningTreePainter {
  static final int MARGIN = 12;
  static final String TITLE = "Spanning tree (reference highlighted)";
  /** The nodes' least distance from the area's top: a margin and the title's row. */
  static final int TITLE_HEIGHT = 20;
  static final int NODE_HEIGHT = 26;
  static final int MAX_NODE_WIDTH = 150;
  /** Room left between the rows of nodes, at least, for the edges between them to be seen. */
  static final int ROW_GAP = 8;

  /** Where the layout's nodes land inside a given area. */
  public static final class Geometry {
    private final Rectangle area;
    private final double columnWidth;
    private final double rowHeight;
    private final int nodeWidth;
    private final int top;  // of the nodes' rows, from the area's top: under the title

    Geometry(SpanningTreeLayout layout, Rectangle area, int top) {
      this.area = area;
      this.top = top;
      int width = Math.max(1, area.width - 2 * MARGIN);
      int height = Math.max(1, area.height - top - MARGIN);
      this.columnWidth = width / Math.max(1.0, layout.columns());
      this.rowHeight = height / (double) Math.max(1, layout.depths());
      this.nodeWidth = (int) Math.max(24, Math.min(MAX_NODE_WIDTH, columnWidth - 10));
    }

    public Point centre(Node node) {
      int x = (int) Math.round(area.x + MARGIN + (node.column() + 0.5) * columnWidth);
      int y = (int) Math.round(area.y + top + (node.depth() + 0.5) * rowHeight);
      return new Point(x, y);
    }

    public Rectangle bounds(Node node) {
      Point c = centre(node);
      return new Rectangle(c.x - nodeWidth / 2, c.y - NODE_HEIGHT / 2, nodeWidth, NODE_HEIGHT);
    }
  }

  private SpanningTreeLayout layout = SpanningTreeLayout.empty();
  private int selectedLink = -1;

  public void setLayout(SpanningTreeLayout layout) {
    this.layout = layout;
  }

  public SpanningTreeLayout layout() {
    return layout;
  }

  /** Highlights the link at this index of the snapshot, or none for -1. */
  public void setSelectedLink(int linkIndex) {
    this.selectedLink = linkIndex;
  }

  /** Whether every row of nodes fits in {@code area} without overlapping; in a shorter one, a hint is drawn. */
  public boolean fits(Rectangle area) {
    return DisplayText.layOut(gc -> area.height >= neededHeight(gc, area));
  }

  private int neededHeight(GC gc, Rectangle area) {
    return top(gc, area) + MARGIN + layout.depths() * (NODE_HEIGHT + ROW_GAP);
  }

  /** Where the nodes go in {@code area}, under its title laid out in the display's default font, as a canvas has. */
  public Geometry geometry(Rectangle area) {
    return DisplayText.layOut(gc -> geometry(gc, area));
  }

  Geometry geometry(GC gc, Rectangle area) {
    return new Geometry(layout, area, top(gc, area));
  }

  /** The title's words in rows inside the area's margins. */
  PlotHeader title(GC gc, Rectangle area) {
    return PlotHeader.layOut(gc, area, area.x + MARGIN, TITLE, List.of());
  }

  /** The nodes' top, from the area's: under the title, and at least a margin and a title's row below the top. */
  private int top(GC gc, Rectangle area) {
    return Math.max(MARGIN + TITLE_HEIGHT, title(gc, area).bottom() + MARGIN - 3 - area.y);
  }

  public void paint(GC gc, Rectangle area) {
    gc.setAntialias(SWT.ON);
    gc.setBackground(color(Palette.BACKGROUND));
    gc.fillRectangle(area);
    gc.setForeground(color(Palette.TEXT));
    if (!layout.nodes().isEmpty() && ShortArea.hintIfShort(gc, area, neededHeight(gc, area))) return;
    LinkPlotPainter.drawHeader(gc, title(gc, area));
    if (layout.nodes().isEmpty()) {
      gc.drawText("No synchronization yet", area.x + MARGIN, area.y + top(gc, area), true);
      return;
    }
    Geometry geometry = geometry(gc, area);
    for (Edge edge : layout.edges()) {
      if (edge.linkIndex() != selectedLink) drawEdge(gc, geometry, edge, false);
    }
    for (Edge edge : layout.edges()) {  // the selected link on top of the others
      if (edge.linkIndex() == selectedLink) drawEdge(gc, geometry, edge, true);
    }
    for (Node node : layout.nodes()) drawNode(gc, geometry, node);
  }

  private void drawEdge(GC gc, Geometry geometry, Edge edge, boolean selected) {
    Point from = geometry.centre(layout.node(edge.from()).orElseThrow());
    Point to = geometry.centre(layout.node(edge.to()).orElseThrow());
    if (selected) {
      gc.setForeground(color(Palette.SELECTED_EDGE));
      gc.setLineWidth(4);
      gc.setLineStyle(SWT.LINE_SOLID);
    } else if (edge.inTree()) {
      gc.setForeground(color(Palette.TREE_EDGE));
      gc.setLineWidth(2);
      gc.setLineStyle(SWT.LINE_SOLID);
    } else {
      gc.setForeground(color(Palette.OTHER_EDGE));
      gc.setLineWidth(1);
      gc.setLineStyle(SWT.LINE_DASH);
    }
    gc.drawLine(from.x, from.y, to.x, to.y);
    gc.setLineStyle(SWT.LINE_SOLID);
    gc.setLineWidth(1);
  }

  private void drawNode(GC gc, Geometry geometry, Node node) {
    Rectangle box = geometry.bounds(node);
    gc.setBackground(color(node.reference() ? Palette.REFERENCE_FILL : Palette.NODE_FILL));
    gc.fillRoundRectangle(box.x, box.y, box.width, box.height, 8, 8);
    gc.setForeground(color(Palette.NODE_BORDER));
    gc.setLineWidth(node.reference() ? 2 : 1);
    gc.drawRoundRectangle(box.x, box.y, box.width, box.height, 8, 8);
    gc.setLineWidth(1);
    String label = fit(gc, node.label(), box.width - 8);
    Point extent = gc.textExtent(label);
    gc.setForeground(color(Palette.TEXT));
    gc.drawText(label, box.x + (box.width - extent.x) / 2, box.y + (box.height - extent.y) / 2, true);
  }

  /** The label, cut with an ellipsis to fit {@code width} pixels. */
  static String fit(GC gc, String label, int width) {
    if (gc.textExtent(label).x <= width) return label;
    for (int n = label.length() - 1; n > 0; n--) {
      String cut = label.substring(0, n) + "\u2026";
      if (gc.textExtent(cut).x <= width) return cut;
    }
    return "\u2026";
  }

  static Color color(RGB rgb) {
    return new Color(rgb.red, rgb.green, rgb.blue);  // device-less colours hold no OS resource (SWT 4.16+)
  }
}
