// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.widgets;

import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Composite;
import org.tracesync.tracecompass.view.model.LinkPlotModel;

/** A canvas plotting one link: its hulls, Lmin, Lmax and the estimate. */
public final class LinkPlotCanvas extends Canvas {
  private final LinkPlotPainter painter = new LinkPlotPainter();

  public LinkPlotCanvas(Composite parent) {
    super(parent, SWT.DOUBLE_BUFFERED | SWT.NO_BACKGROUND);
    addPaintListener(event -> painter.paint(event.gc, getClientArea()));
  }

  public void setModel(LinkPlotModel model) {
    painter.setModel(model);
    redraw();
  }

  public LinkPlotPainter painter() {
    return painter;
  }
}
