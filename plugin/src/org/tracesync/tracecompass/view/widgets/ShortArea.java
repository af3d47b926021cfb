// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.widgets;

import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Rectangle;

/**
 * What a picture draws instead of itself when its area is too short to be read: at the view's default height the
 * table keeps its rows whole, which leaves the pictures a strip in which axes, titles and boxes would overlap.
 */
final class ShortArea {
  static final String HINT = "Too little room: enlarge the view (double-click its tab)";

  private ShortArea() {}

  /** Draws the hint, on the area already cleared, and says so, when {@code area} is shorter than {@code needed}. */
  static boolean hintIfShort(GC gc, Rectangle area, int needed) {
    if (area.height >= needed) return false;
    gc.drawText(HINT, area.x + 8, area.y + Math.max(0, (area.height - gc.getFontMetrics().getHeight()) / 2), true);
    return true;
  }
}
