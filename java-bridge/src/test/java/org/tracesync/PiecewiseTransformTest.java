// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.tracesync.proto.Decimal;
import org.tracesync.proto.Segment;
import org.tracesync.proto.Snapshot;
import org.tracesync.proto.Trace;

class PiecewiseTransformTest {
  private static final long EPOCH = 1_700_000_000_000_000_000L;

  private static Segment segment(long first, long last, String slope, String offset, double u1,
      double u2) {
    return Segment.newBuilder()
        .setFirstNs(first)
        .setLastNs(last)
        .setSlope(Decimal.newBuilder().setExact(slope))
        .setOffset(Decimal.newBuilder().setExact(offset))
        .setUncertaintyFirstNs(u1)
        .setUncertaintyLastNs(u2)
        .build();
  }

  /**
   * Two pieces meeting at EPOCH + 1000: slope 1 with offset 500, then slope 1.000001 with the
   * offset that keeps it continuous (at EPOCH + 1000 both give EPOCH + 1500).
   */
  private static Trace twoPieces() {
    long knot = EPOCH + 1000;
    // 1.000001 * knot + c = knot + 500  =>  c = 500 - 0.000001 * knot
    BigDecimal c = new BigDecimal(500).subtract(new BigDecimal("0.000001").multiply(BigDecimal.valueOf(knot)));
    return Trace.newBuilder()
        .setName("host-b")
        .addSegments(segment(EPOCH, knot, "1", "500", 10, 20))
        .addSegments(segment(knot, EPOCH + 3000, "1.000001", c.toPlainString(), 20, 40))
        .build();
  }

  @Test
  void mapsEachTimeThroughItsPieceExactly() {
    PiecewiseTransform t = PiecewiseTransform.of(twoPieces());
    assertEquals(2, t.pieces().size());
    assertEquals(EPOCH, t.first());
    assertEquals(EPOCH + 3000, t.last());
    assertEquals(0, BigDecimal.valueOf(EPOCH + 500).compareTo(t.map(EPOCH)));
    assertEquals(0, BigDecimal.valueOf(EPOCH + 1500).compareTo(t.map(EPOCH + 1000)));
    // 2000 ns into the second piece: 2000 * 1.000001 = 2000.002.
    assertEquals(0, new BigDecimal(EPOCH + 3500 + ".002").compareTo(t.map(EPOCH + 3000)));
    assertEquals(EPOCH + 3500, t.mapRounded(EPOCH + 3000));
  }

  @Test
  void isContinuousAndIncreasingAcrossPieces() {
    PiecewiseTransform t = PiecewiseTransform.of(twoPieces());
    long knot = EPOCH + 1000;
    BigDecimal left = t.pieces().get(0).transform().applyExact(knot);
    BigDecimal right = t.pieces().get(1).transform().applyExact(knot);
    assertEquals(0, left.compareTo(right));
    for (long x = EPOCH; x < EPOCH + 3000; x += 7) {
      assertTrue(t.map(x).compareTo(t.map(x + 1)) < 0, "not increasing at " + x);
    }
  }

  @Test
  void interpolatesTheBoundWithinAPiece() {
    PiecewiseTransform t = PiecewiseTransform.of(twoPieces());
    assertEquals(10, t.uncertaintyAt(EPOCH), 1e-12);
    assertEquals(15, t.uncertaintyAt(EPOCH + 500), 1e-12);
    assertEquals(20, t.uncertaintyAt(EPOCH + 1000), 1e-12);
    assertEquals(30, t.uncertaintyAt(EPOCH + 2000), 1e-12);
    assertEquals(40, t.uncertaintyAt(EPOCH + 3000), 1e-12);
    assertEquals(40, t.worstUncertainty(), 0);
  }

  @Test
  void extendsTheEndPiecesOutsideTheSpan() {
    PiecewiseTransform t = PiecewiseTransform.of(twoPieces());
    assertFalse(t.covers(EPOCH - 1));
    assertTrue(t.covers(EPOCH));
    assertFalse(t.covers(EPOCH + 3001));
    assertEquals(0, BigDecimal.valueOf(EPOCH - 1000 + 500).compareTo(t.map(EPOCH - 1000)));
    assertEquals(10, t.uncertaintyAt(EPOCH - 1000), 0);
    // After the span: the second piece continues, 4000 ns in.
    assertEquals(0, new BigDecimal(EPOCH + 5500 + ".004").compareTo(t.map(EPOCH + 5000)));
    assertEquals(40, t.uncertaintyAt(EPOCH + 5000), 0);
  }

  @Test
  void aLonePieceIsTheTracesLinearTransform() {
    Trace trace = Trace.newBuilder()
        .setName("a")
        .setSlope(Decimal.newBuilder().setExact("1.000012345678901234567890123456789"))
        .setOffset(Decimal.newBuilder().setExact("-123456.789"))
        .addSegments(segment(EPOCH, EPOCH + 1_000_000_000L, "1.000012345678901234567890123456789",
            "-123456.789", 5, 5))
        .build();
    PiecewiseTransform t = PiecewiseTransform.of(trace);
    LinearTransform line = LinearTransform.of(trace);
    Random random = new Random(3);
    for (int i = 0; i < 1000; i++) {
      long x = EPOCH + (long) (random.nextDouble() * 1_000_000_000L);
      assertEquals(0, line.applyExact(x).compareTo(t.map(x)));
      assertEquals(5, t.uncertaintyAt(x), 0);
    }
  }

  @Test
  void rejectsSegmentsThatDoNotFollowEachOther() {
    Trace gap = Trace.newBuilder()
        .setName("gappy")
        .addSegments(segment(0, 10, "1", "0", 1, 1))
        .addSegments(segment(11, 20, "1", "0", 1, 1))
        .build();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> PiecewiseTransform.of(gap));
    assertTrue(e.getMessage().contains("segment 1 of trace 'gappy' starts at 11"), e.getMessage());

    Trace none = Trace.newBuilder().setName("empty").build();
    e = assertThrows(IllegalArgumentException.class, () -> PiecewiseTransform.of(none));
    assertTrue(e.getMessage().contains("trace 'empty' has no segments"), e.getMessage());

    Trace backwards = Trace.newBuilder()
        .setName("neg")
        .addSegments(segment(0, 10, "-1", "0", 1, 1))
        .build();
    e = assertThrows(IllegalArgumentException.class, () -> PiecewiseTransform.of(backwards));
    assertTrue(e.getMessage().contains("of segment 0 of trace 'neg'"), e.getMessage());

    Trace garbled = Trace.newBuilder()
        .setName("bad")
        .addSegments(segment(0, 10, "1", "zero", 1, 1))
        .build();
    e = assertThrows(IllegalArgumentException.class, () -> PiecewiseTransform.of(garbled));
    assertTrue(e.getMessage().contains("segment 0 of trace 'bad'"), e.getMessage());
  }

  @Test
  void everyTraceOfARealSynchronizationHasPiecesCoveringItsSpan() throws Exception {
    try (TraceSync sync = TraceSync.open(Options.builder().clockModel("piecewise").build())) {
      sync.addMatch("A", 0, "B", 1000);
      sync.addMatch("B", 3000, "A", 1000);
      sync.addMatch("A", 2000, "B", 5000);
      sync.addMatch("B", 7000, "A", 3000);
      sync.run(null);
      Snapshot snapshot = sync.snapshot();
      assertEquals("piecewise", snapshot.getOptions().getClockModel());
      for (Trace trace : snapshot.getTracesList()) {
        PiecewiseTransform t = PiecewiseTransform.of(trace);
        assertEquals(trace.getFirstNs(), t.first());
        assertEquals(trace.getLastNs(), t.last());
        LinearTransform line = LinearTransform.of(trace);
        // One piece: the trace's own line.
        assertEquals(1, t.pieces().size());
        assertEquals(0, line.applyExact(trace.getFirstNs()).compareTo(t.map(trace.getFirstNs())));
      }
    }
  }

  @Test
  void theEngineRejectsAnUnknownClockModel() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> TraceSync.open(Options.builder().clockModel("wobbly").build()).close());
    assertTrue(e.getMessage().contains("'piecewise' or 'linear', not 'wobbly'"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Options.builder().clockStabilityPpm(-1));
    assertThrows(IllegalArgumentException.class,
        () -> Options.builder().clockStabilityPpm(Double.NaN));
  }
}
