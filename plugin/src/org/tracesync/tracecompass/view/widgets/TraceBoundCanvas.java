// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.widgets;

import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Composite;
import org.tracesync.tracecompass.view.model.TraceBoundModel;

/** A canvas plotting one trace's bound over time. */
public final class TraceBoundCanvas extends Canvas {
  private final TraceBoundPainter painter = new TraceBoundPainter();

  public TraceBoundCanvas(Composite parent) {
    super(parent, SWT.DOUBLE_BUFFERED | SWT.NO_BACKGROUND);
    addPaintListener(event -> painter.paint(event.gc, getClientArea()));
  }

  public void setModel(TraceBoundModel model) {
    painter.setModel(model);
    redraw();
  }

  public TraceBoundPainter painter() {
    return painter;
  }
}
