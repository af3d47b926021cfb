// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.widgets;

import java.util.function.Function;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.widgets.Display;

/**
 * Text laid out outside a paint (where a click falls, whether a picture fits): on a GC of the display, whose default
 * font is a canvas's, so the layout is the one the next paint draws.
 */
final class DisplayText {
  private DisplayText() {}

  static <T> T layOut(Function<GC, T> layout) {
    GC gc = new GC(Display.getCurrent());
    try {
      return layout.apply(gc);
    } finally {
      gc.dispose();
    }
  }
}
