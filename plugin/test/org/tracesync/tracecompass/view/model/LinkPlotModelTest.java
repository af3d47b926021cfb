// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tracesync.Links;
import org.tracesync.proto.Link;
import org.tracesync.proto.LinkDetail;
import org.tracesync.proto.Point;
import org.tracesync.proto.Quality;
import org.tracesync.tracecompass.testing.LinkFixture;
import org.tracesync.tracecompass.testing.TestSnapshots;
import org.tracesync.tracecompass.view.model.LinkPlotModel.PlotPoint;
import org.tracesync.tracecompass.view.model.LinkPlotModel.Segment;

class LinkPlotModelTest {
  @Test
  void residualsAreExactAtEpochScaleTimestamps() {
    // At x = 1.7e18 a double cannot even hold x; the residual must still be exact to the nanosecond.
    BigDecimal alpha = new BigDecimal("1.000003000000000000000000000000001");
    BigDecimal beta = new BigDecimal("-5100000000000.25");
    long x = LinkFixture.EPOCH_NS + 123_456_789;
    BigDecimal onLine = alpha.multiply(BigDecimal.valueOf(x)).add(beta);
    assertEquals(0, LinkPlotModel.residual(x, onLine, alpha, beta).signum());
    assertEquals(0, new BigDecimal("1").compareTo(LinkPlotModel.residual(x, onLine.add(BigDecimal.ONE), alpha, beta)));
    // The same sum in doubles is off by far more than a nanosecond.
    double inDoubles = onLine.doubleValue() + 1 - (alpha.doubleValue() * x + beta.doubleValue());
    assertNotEquals(1.0, inDoubles, "doubles happen to be exact here");
  }

  @Test
  void feasibleLinesStayBetweenTheHullsInPlotCoordinates() {
    for (long seed = 1; seed <= 20; seed++) {
      LinkFixture.Messages messages = LinkFixture.exchange(seed, 30, 5_000_000_000L, new BigDecimal("1.0000042"),
          seed * 1000);
      Link link = LinkFixture.link(TestSnapshots.VM1, TestSnapshots.VM2, messages, true);
      LinkPlotModel model = LinkPlotModel.of(link, "VM1 -> VM2");
      for (Segment line : List.of(model.lmin().orElseThrow(), model.lmax().orElseThrow(),
          model.estimate().orElseThrow())) {
        // Lower points lie on or above every feasible line, upper points on or below (to double rounding).
        for (PlotPoint p : model.lowerHull()) assertTrue(p.v() >= line.vAt(p.u()) - 1e-3, "seed " + seed);
        for (PlotPoint p : model.upperHull()) assertTrue(p.v() <= line.vAt(p.u()) + 1e-3, "seed " + seed);
      }
      // Latencies of 40 to 90 us: no vertex is far enough out to be off the scale.
      assertEquals(List.of(), model.offScale(), "seed " + seed);
      assertEquals("", model.offScaleNote());
      assertTrue(model.lmax().orElseThrow().to().v() >= model.lmin().orElseThrow().to().v(),
          "Lmax ends above Lmin at the right");
    }
  }

  @Test
  void axesStartAtTheSpanAndCoverEveryPointAndLine() {
    Link link = TestSnapshots.threeHosts().getLinks(0);
    LinkPlotModel model = LinkPlotModel.of(link, "t", LinkPlotModel.Range.SPAN);
    assertEquals(link.getSpanFirstNs(), model.originNs());
    assertEquals((double) (link.getSpanLastNs() - link.getSpanFirstNs()), model.uMax());
    assertEquals(Links.detail(link).getLowerHullPointsCount(), model.lowerHull().size());
    assertEquals(Links.detail(link).getUpperHullPointsCount(), model.upperHull().size());
    for (PlotPoint p : model.lowerHull()) {
      assertTrue(p.u() >= model.uMin() && p.u() <= model.uMax() && p.v() > model.vMin() && p.v() < model.vMax());
    }
    for (PlotPoint p : model.upperHull()) assertTrue(p.v() > model.vMin() && p.v() < model.vMax());
    // Latency is tens of microseconds: the plot is about that tall, not 1.7e18.
    assertTrue(model.vMax() - model.vMin() < 1e6, "v range " + (model.vMax() - model.vMin()));
    assertEquals(0.0, model.estimate().orElseThrow().from().v());
  }

  /** The real scp pair: 11 hull vertices within 118 ms of a 17.4 s span fell into one pixel of the whole span. */
  @Test
  void byDefaultThePlotZoomsToTheMessagesAndTheWholeSpanIsOneRangeAway() {
    LinkFixture.Messages messages = LinkFixture.exchange(3, 12, 118_000_000L, new BigDecimal("1.0000042"), 5000);
    Link messagesOnly = LinkFixture.link(TestSnapshots.VM1, TestSnapshots.VM2, messages, true);
    long spanFirst = LinkFixture.EPOCH_NS - 2_000_000_000L;
    Link link = messagesOnly.toBuilder().setSpanFirstNs(spanFirst).setSpanLastNs(spanFirst + 17_400_000_000L).build();

    LinkPlotModel zoomed = LinkPlotModel.of(link, "t");
    assertEquals(LinkPlotModel.Range.MESSAGES, zoomed.range());
    assertTrue(zoomed.uMax() < 0.2e9, "zoomed range " + zoomed.uMax() + " ns is not about the messages' 118 ms");
    LinkPlotModel whole = LinkPlotModel.of(link, "t", LinkPlotModel.Range.SPAN);
    assertEquals(17_400_000_000.0, whole.uMax());
    assertEquals(spanFirst, whole.originNs());
    for (LinkPlotModel model : List.of(zoomed, whole)) {
      assertEquals(Links.detail(link).getLowerHullPointsCount(), model.lowerHull().size());
      for (PlotPoint p : model.lowerHull()) assertTrue(p.u() >= model.uMin() && p.u() <= model.uMax(), "" + p);
      for (PlotPoint p : model.upperHull()) assertTrue(p.u() >= model.uMin() && p.u() <= model.uMax(), "" + p);
    }
    // Zoomed, the vertices spread over the plot: the first and last are a good part of the width apart.
    double spread = zoomed.lowerHull().get(zoomed.lowerHull().size() - 1).u() - zoomed.lowerHull().get(0).u();
    assertTrue(spread > 0.5 * zoomed.uMax(), "vertices span only " + spread + " of " + zoomed.uMax());
    assertTrue(spread < 0.01 * whole.uMax(), "the fixture's messages should fill a small part of the span");
  }

  /**
   * A connection's first message came 17 ms late (a real relay's run): the first message of a direction is always a
   * hull vertex, and scaled to it the band of tens of microseconds was a line. The scale follows the band and the
   * other vertices; that vertex is drawn at the edge and counted.
   */
  @Test
  void aLateFirstMessageIsOffTheScaleNotScaledTo() {
    LinkFixture.Messages messages = LinkFixture.exchange(5, 40, 2_000_000_000L, new BigDecimal("1.0000042"), 5000);
    Point first = messages.lower().get(0);
    List<Point> lower = new ArrayList<>(messages.lower());
    lower.add(0, LinkFixture.point(first.getX() - 1_000_000, first.getY() + 16_000_000));  // 17 ms on its way
    Link late = LinkFixture.link(TestSnapshots.VM1, TestSnapshots.VM2,
        new LinkFixture.Messages(lower, messages.upper()), true);
    LinkPlotModel model = LinkPlotModel.of(late, "t");
    PlotPoint lateVertex = model.lowerHull().get(0);
    assertTrue(lateVertex.v() > 16e6, "the late message is the first vertex: " + lateVertex);

    assertEquals(List.of(lateVertex), model.offScale());
    assertEquals("1 vertex off the scale (above, up to " + NanosecondFormat.format(lateVertex.v()) + ")",
        model.offScaleNote());
    assertEquals(new PlotPoint(lateVertex.u(), model.vMax()), model.clamped(lateVertex));
    // The band (Lmin and Lmax across the range) and every other vertex are on the scale...
    for (Segment line : List.of(model.lmin().orElseThrow(), model.lmax().orElseThrow())) {
      for (PlotPoint end : List.of(line.from(), line.to())) {
        assertTrue(end.v() > model.vMin() && end.v() < model.vMax(), "" + end);
      }
    }
    for (List<PlotPoint> hull : List.of(model.lowerHull().subList(1, model.lowerHull().size()), model.upperHull())) {
      for (PlotPoint p : hull) {
        assertTrue(p.v() > model.vMin() && p.v() < model.vMax(), "" + p);
        assertEquals(p, model.clamped(p));
      }
    }
    // ... which is about as tall as without the late message: a fraction of a millisecond, not 17 ms.
    LinkPlotModel without = LinkPlotModel.of(LinkFixture.link(TestSnapshots.VM1, TestSnapshots.VM2, messages, true),
        "t");
    double height = model.vMax() - model.vMin();
    double heightWithout = without.vMax() - without.vMin();
    assertTrue(height < 1.25 * heightWithout && height < 1e6, height + " ns tall, " + heightWithout + " without");

    // Below as well: an upper point far below the estimate (b's clock read 17 ms early) is off the scale under it.
    List<Point> upper = new ArrayList<>(messages.upper());
    Point last = upper.get(upper.size() - 1);
    upper.add(LinkFixture.point(last.getX() + 1_000_000, last.getY() - 16_000_000));
    LinkPlotModel below = LinkPlotModel.of(LinkFixture.link(TestSnapshots.VM1, TestSnapshots.VM2,
        new LinkFixture.Messages(lower, upper), true), "t");
    assertEquals(2, below.offScale().size());
    assertTrue(below.offScaleNote().startsWith("2 vertices off the scale (1 above, 1 below, up to "),
        below.offScaleNote());
  }

  /** With three vertices or fewer there is no bulk to follow: every vertex is on the scale. */
  @Test
  void aFewVerticesAreAllOnTheScale() {
    long x = LinkFixture.EPOCH_NS;
    Link link = Link.newBuilder().setQuality(Quality.INCOMPLETE).setAlpha(LinkFixture.decimal(BigDecimal.ONE))
        .setBeta(LinkFixture.decimal(BigDecimal.valueOf(50_000)))
        .setDetail(LinkDetail.newBuilder().addLowerHullPoints(LinkFixture.point(x, x + 17_050_000))
            .addLowerHullPoints(LinkFixture.point(x + 1_000_000, x + 1_050_000))
            .addLowerHullPoints(LinkFixture.point(x + 2_000_000, x + 2_060_000)).build().toByteString()).build();
    LinkPlotModel model = LinkPlotModel.of(link, "t");
    assertEquals(List.of(), model.offScale());
    assertTrue(model.vMax() > 17e6, "" + model.vMax());
  }

  @Test
  void segmentStartsInsideTheVisibleRangeAreMarked() {
    long first = LinkFixture.EPOCH_NS;
    LinkDetail.Builder detail = LinkDetail.newBuilder()
        .addLowerHullPoints(LinkFixture.point(first, first + 50_000))
        .addLowerHullPoints(LinkFixture.point(first + 3_000_000_000L, first + 3_000_050_000L));
    for (long start : new long[] {first, first + 1_000_000_000L, first + 2_500_000_000L}) {
      detail.addSegments(org.tracesync.proto.LinkSegment.newBuilder().setFirstNs(start).setLastNs(start + 1));
    }
    Link link = Link.newBuilder().setQuality(Quality.ACCURATE).setAlpha(LinkFixture.decimal(BigDecimal.ONE))
        .setBeta(LinkFixture.decimal(BigDecimal.valueOf(50_000))).setSpanFirstNs(first)
        .setSpanLastNs(first + 3_000_000_000L).setDetail(detail.build().toByteString()).build();
    LinkPlotModel model = LinkPlotModel.of(link, "t", LinkPlotModel.Range.SPAN);
    assertEquals(List.of(1e9, 2.5e9), model.segmentStarts());
    assertEquals(List.of(), LinkPlotModel.of(TestSnapshots.threeHosts().getLinks(0), "t").segmentStarts());
  }

  @Test
  void hullVerticesArePlottedInTimeOrder() {
    Link shuffled = Link.newBuilder().setQuality(Quality.ACCURATE)
        .setDetail(LinkDetail.newBuilder()
            .addLowerHullPoints(LinkFixture.point(LinkFixture.EPOCH_NS + 30, LinkFixture.EPOCH_NS + 90))
            .addLowerHullPoints(LinkFixture.point(LinkFixture.EPOCH_NS + 10, LinkFixture.EPOCH_NS + 70))
            .build().toByteString()).build();
    LinkPlotModel model = LinkPlotModel.of(shuffled, "t");
    assertEquals(List.of(new PlotPoint(0, 60), new PlotPoint(20, 60)), model.lowerHull());
  }

  @Test
  void absentLinkHasNothingToPlot() {
    LinkPlotModel model = LinkPlotModel.of(Link.newBuilder().setQuality(Quality.ABSENT).build(), "a -> b");
    assertTrue(model.isEmpty());
    assertEquals("a -> b", model.title());
  }

  @Test
  void oneDirectionOnlyStillPlotsItsPointsAndEstimate() {
    Point only = LinkFixture.point(LinkFixture.EPOCH_NS, LinkFixture.EPOCH_NS + 50_000);
    Link incomplete = Link.newBuilder().setQuality(Quality.INCOMPLETE).setAlpha(LinkFixture.decimal(BigDecimal.ONE))
        .setBeta(LinkFixture.decimal(BigDecimal.valueOf(50_000)))
        .setDetail(LinkDetail.newBuilder().addLowerHullPoints(only).build().toByteString()).build();
    LinkPlotModel model = LinkPlotModel.of(incomplete, "t");
    assertFalse(model.isEmpty());
    assertTrue(model.lmin().isEmpty() && model.lmax().isEmpty());
    assertEquals(new PlotPoint(0, 0), model.lowerHull().get(0));
    assertTrue(model.uMax() > 0 && model.vMax() > model.vMin());
  }
}
