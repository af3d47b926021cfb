// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.widgets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.layout.FillLayout;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.tracesync.proto.Problem;
import org.tracesync.proto.Snapshot;
import org.tracesync.tracecompass.live.LiveFollowing;
import org.tracesync.tracecompass.testing.LinkFixture;
import org.tracesync.tracecompass.testing.TestSnapshots;
import org.tracesync.tracecompass.view.model.LinkPlotModel;
import org.tracesync.tracecompass.view.model.LinkPlotModel.PlotPoint;
import org.tracesync.tracecompass.view.model.LinkPlotModel.Segment;
import org.tracesync.tracecompass.view.model.SpanningTreeLayout;
import org.tracesync.tracecompass.view.model.SpanningTreeLayout.Node;

/** Renders the widgets on a real display (Xvfb under CTest) and checks the pixels where the models put things. */
@Tag("gui")
class WidgetRenderTest {
  private static Display display;
  private final Snapshot snapshot = TestSnapshots.threeHosts();

  @BeforeAll
  static void openDisplay() {
    display = new Display();
  }

  @AfterAll
  static void closeDisplay() {
    display.dispose();
  }

  @Test
  void treeFillsTheReferenceAndOnlyItWithTheHighlight() throws Exception {
    SpanningTreePainter painter = new SpanningTreePainter();
    painter.setLayout(SpanningTreeLayout.of(snapshot));
    painter.setSelectedLink(0);
    Rectangle area = new Rectangle(0, 0, 520, 300);
    Pixels pixels = render(area, gc -> painter.paint(gc, area));
    pixels.save("spanning-tree.png");

    SpanningTreePainter.Geometry geometry = painter.geometry(area);
    for (Node node : painter.layout().nodes()) {
      Rectangle box = geometry.bounds(node);
      RGB fill = node.reference() ? Palette.REFERENCE_FILL : Palette.NODE_FILL;
      // Inside the box, clear of the centred label: the left and right ends of its middle row.
      assertTrue(Pixels.same(fill, pixels.at(box.x + 4, box.y + box.height / 2)), node.label());
      assertTrue(Pixels.same(fill, pixels.at(box.x + box.width - 5, box.y + box.height / 2)), node.label());
    }
    Rectangle reference = geometry.bounds(painter.layout().node(TestSnapshots.VM2).orElseThrow());
    int highlighted = 0;
    for (int y = 0; y < pixels.height(); y++) {
      for (int x = 0; x < pixels.width(); x++) {
        if (!Pixels.same(pixels.at(x, y), Palette.REFERENCE_FILL)) continue;
        highlighted++;
        assertTrue(reference.contains(x, y), "highlight colour outside the reference node at " + x + "," + y);
      }
    }
    assertTrue(highlighted > reference.width * reference.height / 2, "reference barely filled: " + highlighted);

    // The selected link (VM1 - VM2) is drawn in the selection colour between the two nodes.
    Point vm1 = geometry.centre(painter.layout().node(TestSnapshots.VM1).orElseThrow());
    Point vm2 = geometry.centre(painter.layout().node(TestSnapshots.VM2).orElseThrow());
    Point quarter = new Point((3 * vm1.x + vm2.x) / 4, (3 * vm1.y + vm2.y) / 4);
    Point between = new Point((vm1.x + vm2.x) / 2, (vm1.y + vm2.y) / 2);
    assertTrue(pixels.near(between.x, between.y, 1, Palette.SELECTED_EDGE) || pixels.near(quarter.x, quarter.y, 1,
        Palette.SELECTED_EDGE), "selected link not drawn");
  }

  @Test
  void plotDrawsHullsAndLinesWhereTheModelPutsThem() throws Exception {
    LinkPlotPainter painter = new LinkPlotPainter();
    LinkPlotModel model = LinkPlotModel.of(snapshot.getLinks(0), "VM1 \u2192 VM2");
    painter.setModel(model);
    Rectangle area = new Rectangle(0, 0, 900, 420);
    Pixels pixels = render(area, gc -> painter.paint(gc, area));
    pixels.save("link-plot.png");
    LinkPlotPainter.Geometry geometry = painter.geometry(area);
    Rectangle plot = geometry.plotArea();

    // Every hull vertex shows its marker.
    assertVerticesDrawn(pixels, geometry, model.lowerHull(), Palette.LOWER_HULL);
    assertVerticesDrawn(pixels, geometry, model.upperHull(), Palette.UPPER_HULL);
    // Each line is drawn along its segment...
    assertDrawnAlong(pixels, geometry, model.lmin().orElseThrow(), Palette.LMIN);
    assertDrawnAlong(pixels, geometry, model.lmax().orElseThrow(), Palette.LMAX);
    assertDrawnAlong(pixels, geometry, model.estimate().orElseThrow(), Palette.ESTIMATE);
    // ...and nowhere else in the plot area.
    for (int y = plot.y + 1; y < plot.y + plot.height; y++) {
      for (int x = plot.x + 1; x < plot.x + plot.width; x++) {
        if (Pixels.same(pixels.at(x, y), Palette.LMAX)) {
          assertTrue(distance(geometry, model.lmax().orElseThrow(), x, y) <= 3, "Lmax colour at " + x + "," + y);
        }
        if (Pixels.same(pixels.at(x, y), Palette.LMIN)) {
          assertTrue(distance(geometry, model.lmin().orElseThrow(), x, y) <= 3, "Lmin colour at " + x + "," + y);
        }
      }
    }
    // Lower points above the lines, upper points below: the picture keeps the order of the exact values.
    PlotPoint lowest = model.lowerHull().stream().min((a, b) -> Double.compare(a.v(), b.v())).orElseThrow();
    PlotPoint highest = model.upperHull().stream().max((a, b) -> Double.compare(a.v(), b.v())).orElseThrow();
    assertTrue(geometry.toPixel(lowest).y <= geometry.toPixel(new PlotPoint(lowest.u(), 0)).y);
    assertTrue(geometry.toPixel(highest).y >= geometry.toPixel(new PlotPoint(highest.u(), 0)).y);
  }

  /**
   * A link whose first a -> b message came 17 ms late: the plot is scaled to the band and the other vertices, and the
   * late vertex is drawn at the top edge, as a triangle, counted in the legend's row.
   */
  @Test
  void aVertexOffTheScaleIsDrawnAtTheEdge() throws Exception {
    LinkPlotModel model = oneLateVertex();
    assertEquals(1, model.offScale().size());
    LinkPlotPainter painter = new LinkPlotPainter();
    painter.setModel(model);
    Rectangle area = new Rectangle(0, 0, 900, 420);
    Pixels pixels = render(area, gc -> painter.paint(gc, area));
    pixels.save("link-plot-off-scale.png");
    LinkPlotPainter.Geometry geometry = painter.geometry(area);

    Point edge = geometry.toPixel(model.clamped(model.offScale().get(0)));
    assertEquals(geometry.plotArea().y, edge.y, "the off-scale vertex is not at the plot's top");
    assertTrue(pixels.near(edge.x + 1, edge.y + LinkPlotPainter.MARKER, 1, Palette.LOWER_HULL),
        "no marker at the edge, " + edge);
    assertVerticesDrawn(pixels, geometry, model.lowerHull().subList(1, model.lowerHull().size()), Palette.LOWER_HULL);
    assertVerticesDrawn(pixels, geometry, model.upperHull(), Palette.UPPER_HULL);
    assertDrawnAlong(pixels, geometry, model.lmin().orElseThrow(), Palette.LMIN);
    assertDrawnAlong(pixels, geometry, model.lmax().orElseThrow(), Palette.LMAX);
  }

  /**
   * In a plot as narrow as Trace Compass's view beside the tree (about 380 px), the title and the legend, its
   * off-scale note included, wrap into rows inside the area, and the plot starts under them: they were cut at the
   * area's right edge.
   */
  @Test
  void aNarrowPlotWrapsItsTitleAndLegend() throws Exception {
    LinkPlotPainter painter = new LinkPlotPainter();
    painter.setModel(oneLateVertex());
    Rectangle area = new Rectangle(0, 0, 380, 420);
    Pixels pixels = render(area, gc -> painter.paint(gc, area));
    pixels.save("link-plot-narrow.png");
    LinkPlotPainter.Geometry geometry = painter.geometry(area);
    Rectangle plot = geometry.plotArea();

    GC gc = new GC(display);
    PlotHeader header = painter.header(gc, area);
    assertHeaderInside(gc, header, pixels, area, plot.y);
    gc.dispose();
    assertTrue(header.pieces().stream().anyMatch(p -> p.mark() == PlotHeader.Mark.TRIANGLE), "no off-scale note");
    // Every key's colour shown above the plot.
    Rectangle above = new Rectangle(0, 0, area.width, plot.y);
    for (RGB key : new RGB[] {Palette.LOWER_HULL, Palette.UPPER_HULL, Palette.LMIN, Palette.LMAX, Palette.ESTIMATE}) {
      assertTrue(containsIn(pixels, above, key), "no legend key of colour " + key);
    }
    assertVerticesDrawn(pixels, geometry, painter.model().upperHull(), Palette.UPPER_HULL);
  }

  /** The bound plot's title and what the bound means wrap too, in the Traces tab's narrow plot. */
  @Test
  void aNarrowBoundPlotWrapsItsTitle() throws Exception {
    TraceBoundPainter painter = boundPainterOfPieces();
    Rectangle area = new Rectangle(0, 0, 380, 320);
    Pixels pixels = render(area, gc -> painter.paint(gc, area));
    pixels.save("trace-bound-narrow.png");
    GC gc = new GC(display);
    assertHeaderInside(gc, painter.header(gc, area), pixels, area, painter.plotArea(area).y);
    gc.dispose();
    assertEveryPieceEndDrawn(painter, area, pixels);
  }

  /**
   * Beside the table in a narrow view (the tree about 215 px wide), the tree's title wraps inside the area and the
   * nodes start under it: it was cut at the area's right edge.
   */
  @Test
  void aNarrowTreeWrapsItsTitle() throws Exception {
    SpanningTreePainter painter = new SpanningTreePainter();
    painter.setLayout(SpanningTreeLayout.of(snapshot));
    Rectangle area = new Rectangle(0, 0, 215, 300);
    Pixels pixels = render(area, gc -> painter.paint(gc, area));
    pixels.save("spanning-tree-narrow.png");
    SpanningTreePainter.Geometry geometry = painter.geometry(area);
    int nodesTop = painter.layout().nodes().stream().mapToInt(n -> geometry.bounds(n).y).min().orElseThrow();
    assertNothingAtTheRightEdge(pixels, new Rectangle(0, 0, area.width, nodesTop));
    assertTrue(rowsOfText(pixels, new Rectangle(0, 0, area.width, nodesTop)) >= 2, "the title is not wrapped");
  }

  /**
   * Under a narrow bound plot, the axis caption (the trace's first event, 19 digits of nanoseconds) wraps inside the
   * area, and the last tick label is drawn inside it too, over a span whose last tick is at the plot's right edge:
   * both were cut at the area's right edge.
   */
  @Test
  void aNarrowBoundPlotKeepsItsCaptionAndTickLabelsInside() throws Exception {
    TraceBoundPainter painter = new TraceBoundPainter();
    painter.setModel(org.tracesync.tracecompass.view.model.TraceBoundModel.of(
        TestSnapshots.withPiecesAndAnUnsynchronizedTrace().getTraces(0)));
    Rectangle area = new Rectangle(0, 0, 300, 320);
    Pixels pixels = render(area, gc -> painter.paint(gc, area));
    pixels.save("trace-bound-caption-narrow.png");
    Rectangle plot = painter.plotArea(area);
    double lastTick = painter.uAxis(area).ticks(Math.max(2, plot.width / 90)).stream().reduce((a, b) -> b).orElseThrow();
    assertEquals(plot.x + plot.width, (int) Math.round(painter.uAxis(area).toPixel(lastTick)), 1,
        "the last tick is not at the plot's right edge: " + lastTick);
    assertNothingAtTheRightEdge(pixels, area);
    assertTrue(containsIn(pixels, new Rectangle(0, plot.y + plot.height + 1, plot.x + plot.width,
        area.height - plot.height - plot.y - 1), Palette.AXIS), "no tick label or caption under the plot");
  }

  /** A narrow link plot's caption and last tick label stay inside its area as the bound plot's do. */
  @Test
  void aNarrowLinkPlotKeepsItsCaptionAndTickLabelsInside() throws Exception {
    LinkPlotPainter painter = new LinkPlotPainter();
    painter.setModel(oneLateVertex());
    Rectangle area = new Rectangle(0, 0, 300, 420);
    Pixels pixels = render(area, gc -> painter.paint(gc, area));
    pixels.save("link-plot-caption-narrow.png");
    assertNothingAtTheRightEdge(pixels, area);
    assertVerticesDrawn(pixels, painter.geometry(area), painter.model().upperHull(), Palette.UPPER_HULL);
  }

  @Test
  void panelShowsTheTableTreeAndPlotOfASnapshot() throws Exception {
    Shell shell = new Shell(display);
    shell.setLayout(new FillLayout());
    shell.setSize(1200, 760);
    SynchronizationPanel panel = new SynchronizationPanel(shell);
    panel.show(snapshot, "Experiment scp");
    shell.open();
    settle();

    assertEquals(3, panel.table().table().getItemCount());
    assertEquals(0, panel.table().table().getSelectionIndex(), "the first tree link is selected");
    assertEquals("VM1 \u2192 VM2", panel.plot().painter().model().title());
    assertTrue(panel.summaryText().startsWith("Experiment scp \u2014 3 traces, 3 links (2 in the tree), 1 island"),
        panel.summaryText());

    Image image = new Image(display, shell.getClientArea().width, shell.getClientArea().height);
    GC gc = new GC(image);
    shell.print(gc);
    gc.dispose();
    Pixels pixels = new Pixels(image);
    Path png = pixels.save("synchronization-panel.png");
    image.dispose();
    assertTrue(Files.size(png) > 10_000, "PNG suspiciously small");
    assertTrue(contains(pixels, Palette.REFERENCE_FILL), "the tree's reference is not on screen");
    assertTrue(contains(pixels, Palette.LOWER_HULL) && contains(pixels, Palette.UPPER_HULL), "no hulls on screen");

    // Selecting the VM2 - VM3 link plots it and highlights it in the tree.
    panel.selectLink(2);
    settle();
    assertEquals("VM2 \u2192 VM3", panel.plot().painter().model().title());
    assertEquals(2, panel.table().table().getSelectionIndex());
    shell.dispose();
  }

  /** At a short view's height (320 px: a third of it cut the rows) the table keeps its rows whole. */
  @Test
  void aShortPanelStillShowsTheTablesRowsWhole() {
    Shell shell = new Shell(display);
    shell.setLayout(new FillLayout());
    shell.setSize(1000, 320);
    SynchronizationPanel panel = new SynchronizationPanel(shell);
    panel.show(snapshot, "short");
    shell.open();
    settle();
    org.eclipse.swt.widgets.Table table = panel.table().table();
    int needed = table.getHeaderHeight() + table.getItemCount() * table.getItemHeight();
    assertTrue(panel.tableHeight() >= needed,
        "table " + panel.tableHeight() + " px high, its header and " + table.getItemCount() + " rows need " + needed);
    assertNoRowCut(table);
    panel.setWholeSpan(true);
    settle();
    assertEquals(LinkPlotModel.Range.SPAN, panel.plot().painter().model().range());
    panel.setWholeSpan(false);
    assertEquals(LinkPlotModel.Range.MESSAGES, panel.plot().painter().model().range());
    shell.dispose();
  }

  /**
   * At the view's default height in Trace Compass's Tracing perspective (its panel measured 166 px high on a 1600x1000
   * screen), a one-link result keeps its row whole, and the pictures, left a strip, say they need room instead of
   * drawing titles, axes and boxes over one another. Maximized, as the hint says, they are drawn.
   */
  @Test
  void atTheViewsDefaultHeightTheRowIsWholeAndThePicturesAskForRoom() throws Exception {
    Snapshot oneLink = snapshot.toBuilder().clearLinks().addLinks(snapshot.getLinks(0)).build();
    Shell shell = new Shell(display);
    shell.setLayout(new FillLayout());
    Rectangle trim = shell.computeTrim(0, 0, 1180, 166);
    shell.setSize(trim.width, trim.height);
    SynchronizationPanel panel = new SynchronizationPanel(shell);
    panel.show(oneLink, "Experiment scp");
    shell.open();
    settle();
    org.eclipse.swt.widgets.Table table = panel.table().table();
    int needed = table.getHeaderHeight() + table.getItemHeight();
    assertTrue(panel.tableHeight() >= needed, "table " + panel.tableHeight() + " px high, its row needs " + needed);
    assertNoRowCut(table);
    Rectangle plotArea = panel.plot().getClientArea();
    Rectangle treeArea = panel.tree().getClientArea();
    assertFalse(panel.plot().painter().fits(plotArea), "plot " + plotArea.height + " px high");
    assertFalse(panel.tree().painter().fits(treeArea), "tree " + treeArea.height + " px high");
    assertFalse(panel.wholeSpanShown(), "the check box takes the room of the plot's hint");
    Pixels strip = print(shell);
    strip.save("synchronization-panel-default-height.png");
    // Within each picture's own area (elsewhere, the selected row's anti-aliased edges come near the node colour).
    Rectangle plotOnShell = display.map(panel.plot(), shell, plotArea);
    Rectangle treeOnShell = display.map(panel.tree(), shell, treeArea);
    assertFalse(containsIn(strip, plotOnShell, Palette.LOWER_HULL) || containsIn(strip, plotOnShell, Palette.LMIN),
        "plot drawn in the strip");
    assertFalse(containsIn(strip, treeOnShell, Palette.REFERENCE_FILL)
        || containsIn(strip, treeOnShell, Palette.NODE_FILL), "tree boxes drawn in the strip");
    assertTrue(containsIn(strip, plotOnShell, Palette.TEXT) && containsIn(strip, treeOnShell, Palette.TEXT),
        "no hint written");

    shell.setSize(1200, 760);
    settle();
    assertTrue(panel.plot().painter().fits(panel.plot().getClientArea()));
    assertTrue(panel.tree().painter().fits(panel.tree().getClientArea()));
    assertTrue(panel.wholeSpanShown());
    Pixels maximized = print(shell);
    assertTrue(contains(maximized, Palette.LOWER_HULL) && contains(maximized, Palette.REFERENCE_FILL),
        "hulls and tree drawn once there is room");
    shell.dispose();
  }

  /** The painters' own check: a plot or a tree in a strip draws the hint and nothing of itself. */
  @Test
  void aPictureInAStripDrawsOnlyItsHint() {
    LinkPlotPainter plot = new LinkPlotPainter();
    plot.setModel(LinkPlotModel.of(snapshot.getLinks(0), "VM1 \u2192 VM2"));
    SpanningTreePainter tree = new SpanningTreePainter();
    tree.setLayout(SpanningTreeLayout.of(snapshot));
    Rectangle strip = new Rectangle(0, 0, 700, 40);
    Pixels plotPixels = render(strip, gc -> plot.paint(gc, strip));
    Pixels treePixels = render(strip, gc -> tree.paint(gc, strip));
    assertFalse(contains(plotPixels, Palette.LOWER_HULL) || contains(plotPixels, Palette.LMIN), "plot drawn");
    assertFalse(contains(treePixels, Palette.REFERENCE_FILL) || contains(treePixels, Palette.NODE_FILL), "tree drawn");
    assertTrue(contains(plotPixels, Palette.TEXT) && contains(treePixels, Palette.TEXT), "no hint written");
    Rectangle room = new Rectangle(0, 0, 700, LinkPlotPainter.MIN_HEIGHT);
    assertTrue(contains(render(room, gc -> plot.paint(gc, room)), Palette.LOWER_HULL), "no plot with room for it");
  }

  /** The traces tab: roles, drifts and bounds in words and units, and a trace's bound over time in pieces. */
  @Test
  void theTracesTabShowsEachTraceAndItsBoundOverTime() throws Exception {
    Snapshot pieces = org.tracesync.tracecompass.testing.TestSnapshots.withPiecesAndAnUnsynchronizedTrace();
    Shell shell = new Shell(display);
    shell.setLayout(new FillLayout());
    shell.setSize(1200, 760);
    SynchronizationPanel panel = new SynchronizationPanel(shell);
    panel.show(pieces, "Experiment pieces");
    shell.open();
    panel.showTab(1);
    panel.selectTrace(0);
    settle();
    assertTrue(panel.summaryText().contains("1 not synchronized"), panel.summaryText());
    org.eclipse.swt.widgets.Table traces = panel.traceTable().table();
    assertEquals(pieces.getTracesCount(), traces.getItemCount());
    assertTrue(traces.getItem(3).getText(2).startsWith("not synchronized: "), traces.getItem(3).getText(2));
    assertEquals("-", traces.getItem(3).getText(5), "an unsynchronized trace shows no bound");
    assertEquals("3", traces.getItem(0).getText(6), "pieces of vm1's transform");
    assertTrue(panel.traceBound().isVisible(), "the bound plot replaces the link plot");

    Image image = new Image(display, shell.getClientArea().width, shell.getClientArea().height);
    GC gc = new GC(image);
    shell.print(gc);
    gc.dispose();
    Pixels pixels = new Pixels(image);
    pixels.save("synchronization-panel-traces.png");
    image.dispose();
    assertTrue(contains(pixels, Palette.BOUND_FILL) && contains(pixels, Palette.BOUND_LINE), "no bound drawn");
    shell.dispose();
  }

  @Test
  void boundPlotPutsEveryPieceEndWhereTheModelSays() throws Exception {
    TraceBoundPainter painter = boundPainterOfPieces();
    Rectangle area = new Rectangle(0, 0, 640, 320);
    Pixels pixels = render(area, gc -> painter.paint(gc, area));
    pixels.save("trace-bound.png");
    assertEveryPieceEndDrawn(painter, area, pixels);
  }

  /** The bound plot of the first trace of a snapshot with pieces. */
  private static TraceBoundPainter boundPainterOfPieces() {
    Snapshot pieces = org.tracesync.tracecompass.testing.TestSnapshots.withPiecesAndAnUnsynchronizedTrace();
    TraceBoundPainter painter = new TraceBoundPainter();
    painter.setModel(org.tracesync.tracecompass.view.model.TraceBoundModel.of(pieces.getTraces(0)));
    return painter;
  }

  private static void assertEveryPieceEndDrawn(TraceBoundPainter painter, Rectangle area, Pixels pixels) {
    for (PlotPoint end : painter.model().bound()) {
      Point p = painter.toPixel(area, end);
      assertTrue(pixels.near(p.x, p.y, 2, Palette.BOUND_LINE), "bound not drawn at " + end + " -> " + p);
    }
  }

  /**
   * A long caption (a live following that ended without two of its sources, each named with why) wraps at the view's
   * width: all of it is shown, on lines of its own above the tables, and so is a long message of a cleared panel.
   */
  @Test
  void aLongCaptionWrapsAtTheViewsWidth() throws Exception {
    Shell shell = new Shell(display);
    shell.setLayout(new FillLayout());
    shell.setSize(640, 560);
    SynchronizationPanel panel = new SynchronizationPanel(shell);
    Snapshot ended = snapshot.toBuilder()
        .addProblems(Problem.newBuilder().setSource("net://127.0.0.1:5344/host/beta/s")
            .setMessage("the relay went away (Connection reset by peer)"))
        .addProblems(Problem.newBuilder().setSource("/srv/traces/gamma/kernel")
            .setMessage("the folder was removed while it was followed"))
        .build();
    String caption = LiveFollowing.endCaption(ended);
    panel.show(ended, caption);
    shell.open();
    settle();
    Pixels pixels = print(shell);
    pixels.save("long-caption.png");

    Label summary = panel.summary();
    assertTrue(panel.summaryText().startsWith(caption), panel.summaryText());
    // The counts are said once, by the summary after the caption (a live caption said them too, s38).
    assertEquals(1, panel.summaryText().split(" messages?\\b", -1).length - 1, panel.summaryText());
    Rectangle bounds = summary.getBounds();
    int oneLine = summary.computeSize(SWT.DEFAULT, SWT.DEFAULT).y;
    assertTrue(bounds.x >= 0 && bounds.x + bounds.width <= shell.getClientArea().width, "" + bounds);
    assertTrue(bounds.height >= summary.computeSize(bounds.width, SWT.DEFAULT).y,
        "the caption needs " + summary.computeSize(bounds.width, SWT.DEFAULT).y + " px and has " + bounds);
    assertTrue(bounds.height >= 3 * oneLine, "not wrapped: " + bounds + ", a line is " + oneLine + " px");
    // The tab folder's parent, the sash under the caption, is the panel's child as the caption is.
    Rectangle below = panel.table().table().getParent().getParent().getBounds();
    assertTrue(below.y >= bounds.y + bounds.height, "the tables at " + below + " overlap the caption at " + bounds);

    String waiting = LiveFollowing.waitingCaption(List.of("net://127.0.0.1:5344/host/alpha/s",
        "net://127.0.0.1:5344/host/beta/s", "net://127.0.0.1:5344/host/gamma/s"), java.time.Duration.ofMinutes(1));
    panel.show(snapshot, "Experiment scp");  // one line
    settle();
    assertTrue(summary.getBounds().height < 2 * oneLine, "" + summary.getBounds());
    panel.clear(waiting);
    settle();
    bounds = summary.getBounds();
    assertTrue(bounds.height >= summary.computeSize(bounds.width, SWT.DEFAULT).y && bounds.height >= 2 * oneLine,
        "the waiting caption is cut: " + bounds);
    shell.dispose();
  }

  @Test
  void clearedPanelSaysWhy() {
    Shell shell = new Shell(display);
    shell.setLayout(new FillLayout());
    SynchronizationPanel panel = new SynchronizationPanel(shell);
    panel.show(snapshot, "x");
    panel.clear("Experiment closed");
    assertEquals("Experiment closed", panel.summaryText());
    assertEquals(0, panel.table().table().getItemCount());
    assertTrue(panel.plot().painter().model().isEmpty());
    assertTrue(panel.tree().painter().layout().nodes().isEmpty());
    shell.dispose();
  }

  /**
   * Every piece of a plot's header lies inside the area's margins and above the plot, and the picture has nothing at
   * the area's right edge above the plot: text running past the edge would.
   */
  private static void assertHeaderInside(GC gc, PlotHeader header, Pixels pixels, Rectangle area, int plotTop) {
    for (PlotHeader.Piece piece : header.pieces()) {
      assertTrue(piece.x() >= 0 && piece.x() + piece.width() <= area.width - PlotHeader.MARGIN,
          "'" + piece.text() + "' from " + piece.x() + ", " + piece.width() + " px wide");
    }
    Rectangle bounds = header.bounds(gc);
    assertTrue(bounds.y + bounds.height < plotTop, "the header " + bounds + " runs into the plot at " + plotTop);
    for (int y = 0; y < plotTop; y++) {
      for (int x = area.width - PlotHeader.MARGIN / 2; x < area.width; x++) {
        assertTrue(Pixels.same(Palette.BACKGROUND, pixels.at(x, y)), "drawn at the right edge: " + x + "," + y);
      }
    }
  }

  /** Nothing is drawn in the area's right margin, top to bottom: text running past the edge would be. */
  private static void assertNothingAtTheRightEdge(Pixels pixels, Rectangle area) {
    for (int y = area.y; y < area.y + area.height; y++) {
      for (int x = area.x + area.width - PlotHeader.MARGIN / 2; x < area.x + area.width; x++) {
        assertTrue(Pixels.same(Palette.BACKGROUND, pixels.at(x, y)), "drawn at the right edge: " + x + "," + y);
      }
    }
  }

  /** How many bands of rows, separated by rows without it, hold the text colour inside {@code area}. */
  private static int rowsOfText(Pixels pixels, Rectangle area) {
    int bands = 0;
    boolean inBand = false;
    for (int y = area.y; y < area.y + area.height; y++) {
      boolean text = containsIn(pixels, new Rectangle(area.x, y, area.width, 1), Palette.TEXT);
      if (text && !inBand) bands++;
      inBand = text;
    }
    return bands;
  }

  /** A link whose first a -> b message came 17 ms late, off the scale of the band and the other vertices. */
  private static LinkPlotModel oneLateVertex() {
    LinkFixture.Messages messages = LinkFixture.exchange(5, 40, 2_000_000_000L, new BigDecimal("1.0000042"), 5000);
    List<org.tracesync.proto.Point> lower = new ArrayList<>(messages.lower());
    org.tracesync.proto.Point first = lower.get(0);
    lower.add(0, LinkFixture.point(first.getX() - 1_000_000, first.getY() + 16_000_000));
    return LinkPlotModel.of(LinkFixture.link(TestSnapshots.VM1, TestSnapshots.VM2,
        new LinkFixture.Messages(lower, messages.upper()), true), "VM1 \u2192 VM2");
  }

  private static void assertVerticesDrawn(Pixels pixels, LinkPlotPainter.Geometry geometry, List<PlotPoint> vertices,
      RGB colour) {
    assertTrue(vertices.size() >= 3, "a hull worth drawing");
    for (PlotPoint vertex : vertices) {
      Point p = geometry.toPixel(vertex);
      assertTrue(pixels.near(p.x, p.y, 1, colour), "vertex " + vertex + " not drawn at " + p);
    }
  }

  private static void assertDrawnAlong(Pixels pixels, LinkPlotPainter.Geometry geometry, Segment segment, RGB colour) {
    int samples = 20;
    int hits = 0;
    for (int i = 1; i < samples; i++) {
      double u = segment.from().u() + (segment.to().u() - segment.from().u()) * i / samples;
      Point p = geometry.toPixel(new PlotPoint(u, segment.vAt(u)));
      if (pixels.near(p.x, p.y, 1, colour)) hits++;
    }
    assertTrue(hits >= samples * 0.6, hits + " of " + (samples - 1) + " samples on the line");
  }

  private static double distance(LinkPlotPainter.Geometry geometry, Segment segment, int x, int y) {
    Point a = geometry.toPixel(segment.from());
    Point b = geometry.toPixel(segment.to());
    double dx = b.x - a.x;
    double dy = b.y - a.y;
    double t = Math.max(0, Math.min(1, ((x - a.x) * dx + (y - a.y) * dy) / (dx * dx + dy * dy)));
    return Math.hypot(a.x + t * dx - x, a.y + t * dy - y);
  }

  /** Each row of {@code table} is either whole in its visible area or not in it at all. */
  private static void assertNoRowCut(org.eclipse.swt.widgets.Table table) {
    Rectangle visible = table.getClientArea();
    int bottom = visible.y + visible.height;
    for (int i = 0; i < table.getItemCount(); i++) {
      Rectangle row = table.getItem(i).getBounds();
      assertTrue(row.y + row.height <= bottom || row.y >= bottom,
          "row " + i + " at " + row.y + ".." + (row.y + row.height) + " cut by the table's bottom, " + bottom);
    }
  }

  /** What a shell shows, as its client area prints. */
  private static Pixels print(Shell shell) {
    return render(shell.getClientArea(), gc -> shell.print(gc));
  }

  private static boolean contains(Pixels pixels, RGB colour) {
    return containsIn(pixels, new Rectangle(0, 0, pixels.width(), pixels.height()), colour);
  }

  private static boolean containsIn(Pixels pixels, Rectangle area, RGB colour) {
    for (int y = Math.max(0, area.y); y < Math.min(pixels.height(), area.y + area.height); y++) {
      for (int x = Math.max(0, area.x); x < Math.min(pixels.width(), area.x + area.width); x++) {
        if (Pixels.same(pixels.at(x, y), colour)) return true;
      }
    }
    return false;
  }

  private interface Painting {
    void paint(GC gc);
  }

  private static Pixels render(Rectangle area, Painting painting) {
    Image image = new Image(display, area.width, area.height);
    GC gc = new GC(image);
    painting.paint(gc);
    gc.dispose();
    Pixels pixels = new Pixels(image);
    image.dispose();
    return pixels;
  }

  /** Runs the event loop for half a second, so layouts and paints happen; a timer wakes each sleep. */
  private static void settle() {
    long until = System.currentTimeMillis() + 500;
    while (System.currentTimeMillis() < until) {
      if (!display.readAndDispatch()) {
        display.timerExec(20, () -> {});
        display.sleep();
      }
    }
  }
}
