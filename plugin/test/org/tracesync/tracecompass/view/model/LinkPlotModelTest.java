// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
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
