// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.widgets;

import org.eclipse.swt.graphics.RGB;

/** The colours of the synchronization widgets, in one place so that the tree, the plot and their tests agree. */
public final class Palette {
  private Palette() {}

  /** The reference clock's node: the one colour that stands out in the tree. */
  public static final RGB REFERENCE_FILL = new RGB(255, 170, 0);
  public static final RGB NODE_FILL = new RGB(222, 234, 246);
  public static final RGB NODE_BORDER = new RGB(70, 90, 120);
  public static final RGB TREE_EDGE = new RGB(60, 60, 60);
  public static final RGB OTHER_EDGE = new RGB(190, 190, 190);
  public static final RGB SELECTED_EDGE = new RGB(0, 120, 215);

  /** Messages a -> b: their hull bounds the lines from above. */
  public static final RGB LOWER_HULL = new RGB(30, 90, 200);
  /** Messages b -> a: their hull bounds the lines from below. */
  public static final RGB UPPER_HULL = new RGB(200, 40, 160);
  public static final RGB LMIN = new RGB(0, 150, 60);
  public static final RGB LMAX = new RGB(220, 50, 30);
  public static final RGB ESTIMATE = new RGB(0, 0, 0);
  public static final RGB GRID = new RGB(230, 230, 230);
  public static final RGB SEGMENT_START = new RGB(150, 110, 0);
  public static final RGB BOUND_FILL = new RGB(255, 226, 180);
  public static final RGB BOUND_LINE = new RGB(200, 110, 0);
  public static final RGB AXIS = new RGB(110, 110, 110);
  public static final RGB BACKGROUND = new RGB(255, 255, 255);
  public static final RGB TEXT = new RGB(30, 30, 30);
}
