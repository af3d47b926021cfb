// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tracesync.proto.Island;
import org.tracesync.proto.Link;
import org.tracesync.proto.Quality;
import org.tracesync.proto.Snapshot;
import org.tracesync.proto.Trace;

/** Synchronizations from hand-made messages whose results are worked out by hand. */
class MatchSynchronizationTest {
  private static final MathContext WIDE = new MathContext(60);

  static Trace trace(Snapshot snapshot, String name) {
    return snapshot.getTracesList().stream()
        .filter(t -> t.getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no trace " + name + " in " + snapshot));
  }

  static void assertDecimal(String expected, String actual) {
    assertEquals(0, new BigDecimal(expected).compareTo(new BigDecimal(actual)), expected + " != " + actual);
  }

  /** |actual - p/q| <= 1e-32 |p/q|: the engine's quad precision, rounded to 34 digits. */
  static void assertNearRational(long p, long q, String actual) {
    BigDecimal expected = BigDecimal.valueOf(p).divide(BigDecimal.valueOf(q), WIDE);
    BigDecimal error = new BigDecimal(actual).subtract(expected).abs();
    assertTrue(
        error.compareTo(expected.abs().multiply(new BigDecimal("1e-32"))) <= 0,
        actual + " is not " + p + "/" + q + " = " + expected);
  }

  /**
   * B's clock runs at twice A's rate, 1000 ns ahead: b = 2a + 1000. Two exchanges without delay
   * put every point on that line, so Lmin = Lmax = it.
   */
  private static void addCollinearExchanges(TraceSync sync) {
    sync.addMatch("A", 0, "B", 1000); // lower point (0, 1000)
    sync.addMatch("B", 3000, "A", 1000); // upper point (1000, 3000)
    sync.addMatch("A", 2000, "B", 5000); // lower point (2000, 5000)
    sync.addMatch("B", 7000, "A", 3000); // upper point (3000, 7000)
  }

  @Test
  void collinearExchangesGiveTheExactTransform() throws Exception {
    try (TraceSync sync = TraceSync.open(Options.defaults())) {
      addCollinearExchanges(sync);
      sync.run(null);
      Snapshot snapshot = sync.snapshot();
      assertTrue(snapshot.getComplete());
      assertEquals(4, snapshot.getMessages());

      Link link = snapshot.getLinks(0);
      assertEquals(1, snapshot.getLinksCount());
      assertEquals("A", link.getA());
      assertEquals("B", link.getB());
      assertEquals(Quality.ACCURATE, link.getQuality());
      assertDecimal("2", link.getAlpha().getExact());
      assertDecimal("1000", link.getBeta().getExact());
      assertDecimal("0", link.getAccuracy().getExact());
      assertDecimal("2", Links.detail(link).getLmin().getSlope().getExact());
      assertDecimal("2", Links.detail(link).getLmax().getSlope().getExact());
      assertDecimal("1000", Links.detail(link).getLmin().getIntercept().getExact());
      assertEquals(2, link.getLowerMessages());
      assertEquals(2, link.getUpperMessages());
      assertTrue(link.getInTree());

      // A (first id) is the reference; B maps onto it by the inverse: a = (b - 1000) / 2.
      Island island = snapshot.getIslands(0);
      assertEquals("A", island.getReference());
      assertEquals(List.of("A", "B"), island.getDomainsList());
      assertEquals(LinearTransform.IDENTITY, LinearTransform.of(trace(snapshot, "A")));
      LinearTransform b = LinearTransform.of(trace(snapshot, "B"));
      assertEquals(LinearTransform.of("0.5", "-500"), b);
      assertEquals(0, b.apply(1000));
      assertEquals(2000, b.apply(5000));
      // An epoch timestamp: 0.5 * (1.7e18 + 1) - 500 = 849999999999999500.5, ties to even.
      assertDecimal("849999999999999500.5", b.applyExact(1_700_000_000_000_000_001L).toPlainString());
      assertEquals(849_999_999_999_999_500L, b.apply(1_700_000_000_000_000_001L));
    }
  }

  /**
   * Four messages with delays, points lower (0, 1100), (2000, 3100) and upper (1100, 2000), (3100,
   * 4000). Lmax joins (1100, 2000) and (2000, 3100): slope 11/9, intercept 5900/9. Lmin joins (0,
   * 1100) and (3100, 4000): slope 29/31, intercept 1100. The estimate is their middle: alpha =
   * 301/279, beta = 7900/9, accuracy 80/279; B onto A is (1/alpha, -beta/alpha) = (279/301,
   * -244900/301).
   */
  @Test
  void delayedExchangesGiveTheMiddleOfTheHullBounds() throws Exception {
    try (TraceSync sync = TraceSync.open(Options.defaults())) {
      sync.addMatch("A", 0, "B", 1100);
      sync.addMatch("B", 2000, "A", 1100);
      sync.addMatch("A", 2000, "B", 3100);
      sync.addMatch("B", 4000, "A", 3100);
      sync.run(null);
      Snapshot snapshot = sync.snapshot();
      Link link = snapshot.getLinks(0);
      assertEquals(Quality.ACCURATE, link.getQuality());
      assertNearRational(11, 9, Links.detail(link).getLmax().getSlope().getExact());
      assertNearRational(5900, 9, Links.detail(link).getLmax().getIntercept().getExact());
      assertNearRational(29, 31, Links.detail(link).getLmin().getSlope().getExact());
      assertNearRational(1100, 1, Links.detail(link).getLmin().getIntercept().getExact());
      assertNearRational(301, 279, link.getAlpha().getExact());
      assertNearRational(7900, 9, link.getBeta().getExact());
      assertNearRational(80, 279, link.getAccuracy().getExact());

      Trace b = trace(snapshot, "B");
      assertNearRational(279, 301, b.getSlope().getExact());
      assertNearRational(-244900, 301, b.getOffset().getExact());
      // t_A = (279 t_B - 244900) / 301 at t_B = 1.7e18: 1575747508305647026 + 274/301
      assertEquals(1_575_747_508_305_647_027L, LinearTransform.of(b).apply(1_700_000_000_000_000_000L));
    }
  }

  @Test
  void aForcedReferenceTurnsTheTransformsAround() throws Exception {
    try (TraceSync sync = TraceSync.open(Options.builder().reference("B").build())) {
      addCollinearExchanges(sync);
      sync.run(null);
      Snapshot snapshot = sync.snapshot();
      assertEquals("B", snapshot.getIslands(0).getReference());
      assertTrue(snapshot.getIslands(0).getForced());
      assertTrue(trace(snapshot, "B").getReference());
      assertEquals(LinearTransform.IDENTITY, LinearTransform.of(trace(snapshot, "B")));
      assertEquals(LinearTransform.of("2", "1000"), LinearTransform.of(trace(snapshot, "A")));
    }
  }

  @Test
  void onlyUsableLinksJoinIslands() throws Exception {
    try (TraceSync sync = TraceSync.open(Options.defaults())) {
      addCollinearExchanges(sync);
      // C and D: d = 2c + 1000 again, 10 us later, an ACCURATE link of their own.
      sync.addMatch("C", 10_000, "D", 21_000);
      sync.addMatch("D", 23_000, "C", 11_000);
      sync.addMatch("C", 12_000, "D", 25_000);
      sync.addMatch("D", 27_000, "C", 13_000);
      // E -> F only: no upper point, so no bounded slope. INCOMPLETE links join nothing.
      sync.addMatch("E", 100, "F", 200);
      sync.run(null);
      Snapshot snapshot = sync.snapshot();
      assertEquals(4, snapshot.getIslandsCount());
      assertEquals(List.of("A", "B"), snapshot.getIslands(0).getDomainsList());
      assertEquals(List.of("C", "D"), snapshot.getIslands(1).getDomainsList());
      assertEquals(List.of("E"), snapshot.getIslands(2).getDomainsList());
      assertEquals(List.of("F"), snapshot.getIslands(3).getDomainsList());
      assertEquals(1, trace(snapshot, "D").getIsland());
      assertTrue(trace(snapshot, "C").getReference());
      assertTrue(trace(snapshot, "F").getReference());
      assertEquals(LinearTransform.of("0.5", "-500"), LinearTransform.of(trace(snapshot, "D")));
      Link ef = snapshot.getLinks(2);
      assertEquals("E", ef.getA());
      assertEquals(Quality.INCOMPLETE, ef.getQuality());
      assertFalse(ef.getInTree());
    }
  }

  @Test
  void matchesKeepComingAfterASnapshot() throws Exception {
    try (TraceSync sync = TraceSync.open(Options.defaults())) {
      sync.addMatch("A", 0, "B", 1000);
      Snapshot first = sync.snapshot();
      assertEquals(Quality.INCOMPLETE, first.getLinks(0).getQuality());
      assertFalse(first.getLinks(0).hasAccuracy());
      sync.addMatch("B", 3000, "A", 1000);
      sync.addMatch("A", 2000, "B", 5000);
      sync.addMatch("B", 7000, "A", 3000);
      Snapshot second = sync.snapshot();
      assertEquals(Quality.ACCURATE, second.getLinks(0).getQuality());
      assertEquals(4, second.getMessages());
      assertEquals(LinearTransform.of("0.5", "-500"), LinearTransform.of(trace(second, "B")));
    }
  }
}
