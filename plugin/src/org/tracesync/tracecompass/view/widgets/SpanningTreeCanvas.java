// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.widgets;

import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Composite;
import org.tracesync.tracecompass.view.model.SpanningTreeLayout;

/** A canvas showing the spanning forest of a synchronization, its reference clocks highlighted. */
public final class SpanningTreeCanvas extends Canvas {
  private final SpanningTreePainter painter = new SpanningTreePainter();

  public SpanningTreeCanvas(Composite parent) {
    super(parent, SWT.DOUBLE_BUFFERED | SWT.NO_BACKGROUND);
    addPaintListener(event -> painter.paint(event.gc, getClientArea()));
  }

  public void setLayout(SpanningTreeLayout layout) {
    painter.setLayout(layout);
    redraw();
  }

  public void setSelectedLink(int linkIndex) {
    painter.setSelectedLink(linkIndex);
    redraw();
  }

  public SpanningTreePainter painter() {
    return painter;
  }
}
