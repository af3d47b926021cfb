// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.widgets;

import java.util.ArrayList;
import java.util.List;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.graphics.Rectangle;

/**
 * A plot's title and legend, laid out in rows to the width of the plot's area: in a narrow view (Trace Compass's
 * view at about 380 px) the words of the title and the legend's keys go on to the next row instead of running past
 * the area's right edge, and the plot starts under the last row.
 */
final class PlotHeader {
  /** Room between the area's edges and the title; the legend's rows start at the plot's left. */
  static final int MARGIN = 8;
  /** A legend key: a swatch of the colour, then its name. */
  static final int SWATCH = 12;
  static final int SWATCH_GAP = 4;
  static final int KEY_GAP = 14;

  /** What a piece shows before its text: nothing, a legend key's swatch, or the off-scale note's triangle. */
  enum Mark { NONE, SWATCH, TRIANGLE }

  /** A key of the legend: a name and its colour, or, with no colour, the off-scale note after its triangle. */
  record Key(String name, RGB colour) {
    Mark mark() {
      return colour == null ? Mark.TRIANGLE : Mark.SWATCH;
    }
  }

  /** A row's piece of text at (x, y), {@code width} wide with its mark, which is drawn from x. */
  record Piece(String text, Mark mark, RGB colour, int x, int y, int width) {
    int textX() {
      return mark == Mark.NONE ? x : x + SWATCH + SWATCH_GAP;
    }
  }

  private final List<Piece> pieces;
  private final int bottom;

  private PlotHeader(List<Piece> pieces, int bottom) {
    this.pieces = pieces;
    this.bottom = bottom;
  }

  /**
   * The title's words wrapped inside {@code area}'s margins from its top, then the keys in order from
   * {@code legendLeft}, each on the first row it fits in; a note that does not fit beside the keys starts a row of
   * its own, its words wrapped.
   */
  static PlotHeader layOut(GC gc, Rectangle area, int legendLeft, String title, List<Key> keys) {
    return layOut(gc, area, legendLeft, List.of(title), keys);
  }

  /** As above, with a title in paragraphs, each from a row of its own. */
  static PlotHeader layOut(GC gc, Rectangle area, int legendLeft, List<String> title, List<Key> keys) {
    int right = area.x + area.width - MARGIN;
    int rowHeight = gc.getFontMetrics().getHeight();
    List<Piece> pieces = new ArrayList<>();
    int y = area.y + 6;
    for (String paragraph : title) {
      y = wrapWords(gc, paragraph, Mark.NONE, null, area.x + MARGIN, right, y, rowHeight, pieces);
    }
    y += 1;
    int x = legendLeft;
    for (Key key : keys) {
      int width = SWATCH + SWATCH_GAP + gc.textExtent(key.name()).x;
      if (x + width > right && x > legendLeft) {
        x = legendLeft;
        y += rowHeight;
      }
      if (x + width > right) {  // wider than a row: only a long note can be
        y = wrapWords(gc, key.name(), key.mark(), key.colour(), area.x + MARGIN, right, y, rowHeight, pieces);
        x = legendLeft;
        continue;
      }
      pieces.add(new Piece(key.name(), key.mark(), key.colour(), x, y, width));
      x += width + KEY_GAP;
    }
    int last = pieces.stream().mapToInt(Piece::y).max().orElse(area.y);
    return new PlotHeader(pieces, last + rowHeight);
  }

  /** {@code text}'s words in rows from (left, y) to {@code right}, as a title's paragraph is (a plot's axis caption). */
  static List<Piece> wrap(GC gc, String text, int left, int right, int y) {
    List<Piece> pieces = new ArrayList<>();
    wrapWords(gc, text, Mark.NONE, null, left, right, y, gc.getFontMetrics().getHeight(), pieces);
    return pieces;
  }

  /**
   * Lays {@code text}'s words out in rows from (left, y) to {@code right}, the first row after {@code mark} and the
   * others indented as much, a word longer than a row alone on its row; returns the y of the row after the last.
   */
  private static int wrapWords(GC gc, String text, Mark mark, RGB colour, int left, int right, int y, int rowHeight,
      List<Piece> pieces) {
    int indent = mark == Mark.NONE ? 0 : SWATCH + SWATCH_GAP;
    String row = "";
    for (String word : text.split(" ")) {
      String longer = row.isEmpty() ? word : row + " " + word;
      if (!row.isEmpty() && left + indent + gc.textExtent(longer).x > right) {
        addRow(gc, row, mark, colour, left, y, indent, pieces);
        y += rowHeight;
        mark = Mark.NONE;
        row = word;
      } else {
        row = longer;
      }
    }
    addRow(gc, row, mark, colour, left, y, indent, pieces);
    return y + rowHeight;
  }

  private static void addRow(GC gc, String text, Mark mark, RGB colour, int left, int y, int indent,
      List<Piece> pieces) {
    int x = mark == Mark.NONE ? left + indent : left;
    pieces.add(new Piece(text, mark, colour, x, y, (mark == Mark.NONE ? 0 : indent) + gc.textExtent(text).x));
  }

  List<Piece> pieces() {
    return pieces;
  }

  /** The y just under the header's last row. */
  int bottom() {
    return bottom;
  }

  /** The smallest rectangle holding every piece. */
  Rectangle bounds(GC gc) {
    Rectangle all = null;
    int height = gc.getFontMetrics().getHeight();
    for (Piece piece : pieces) {
      Rectangle r = new Rectangle(piece.x(), piece.y(), piece.width(), height);
      all = all == null ? r : all.union(r);
    }
    return all == null ? new Rectangle(0, 0, 0, 0) : all;
  }
}
