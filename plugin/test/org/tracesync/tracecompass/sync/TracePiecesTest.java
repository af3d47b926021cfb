// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.tracesync.PiecewiseTransform;
import org.tracesync.proto.Decimal;
import org.tracesync.proto.Segment;
import org.tracesync.proto.Snapshot;
import org.tracesync.proto.Trace;
import org.tracesync.tracecompass.transforms.PiecewiseClock;

class TracePiecesTest {
  private static final long T0 = 1_767_225_600_000_000_000L;  // 2026-01-01, where Trace Compass's times live

  private static Segment segment(long first, long last, String slope, String offset) {
    return Segment.newBuilder().setFirstNs(first).setLastNs(last)
        .setSlope(Decimal.newBuilder().setExact(slope)).setOffset(Decimal.newBuilder().setExact(offset)).build();
  }

  /** Three pieces of a clock drifting by -12.78, -11.9 and -13.4 ppm, continuous where they meet (to 34 digits). */
  private static Trace threePieces(String path) {
    return Trace.newBuilder().setName("kernel").setPath(path).setFirstNs(T0).setLastNs(T0 + 30_000_000_000L)
        .addSegments(segment(T0, T0 + 10_000_000_000L, "0.9999872200911910627500106591996725",
            "22585301648554.20493508197011411909"))
        .addSegments(segment(T0 + 10_000_000_000L, T0 + 20_000_000_000L, "0.999988100000000000000000000000000",
            "21029880000000.5"))
        .addSegments(segment(T0 + 20_000_000_000L, T0 + 30_000_000_000L, "0.999986600000000000000000000000000",
            "23680718750000.25"))
        .build();
  }

  private static byte[] serialize(Object object) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(object);
    }
    return bytes.toByteArray();
  }

  private static Object deserialize(byte[] bytes) throws IOException, ClassNotFoundException {
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
      return in.readObject();
    }
  }

  @Test
  void aTraceOfOnePieceHasNoPiecewiseClock() {
    Trace one = Trace.newBuilder().setName("kernel").addSegments(segment(T0, T0 + 5, "1", "0")).build();
    assertEquals(Optional.empty(), TracePieces.of(one));
    assertEquals(Optional.empty(), TracePieces.of(Trace.newBuilder().setName("kernel").build()));
  }

  /** Every nanosecond Trace Compass is given maps where the bridge's PiecewiseTransform maps it. */
  @Test
  void theClockMapsExactlyAsThePiecewiseTransform() {
    Trace trace = threePieces("/t/h0/kernel");
    PiecewiseTransform bridge = PiecewiseTransform.of(trace);
    PiecewiseClock clock = TracePieces.of(trace).orElseThrow();
    assertEquals(3, clock.pieceCount());
    Random random = new Random(23);
    for (int i = 0; i < 20_000; i++) {
      long t = T0 - 1_000_000_000L + (long) (random.nextDouble() * 32_000_000_000L);  // also before and after the span
      assertEquals(bridge.mapRounded(t), clock.map(t), "t = " + t);
    }
    for (Segment s : trace.getSegmentsList()) {
      for (long t : new long[] {s.getFirstNs() - 1, s.getFirstNs(), s.getFirstNs() + 1, s.getLastNs()}) {
        assertEquals(bridge.mapRounded(t), clock.map(t), "at a piece's end, t = " + t);
      }
    }
    // The second piece applies from its first instant on (the later piece where two meet).
    long start = T0 + 10_000_000_000L;
    BigDecimal second = new BigDecimal("0.999988100000000000000000000000000").multiply(BigDecimal.valueOf(start))
        .add(new BigDecimal("21029880000000.5"));
    assertEquals(second.setScale(0, java.math.RoundingMode.HALF_EVEN).longValueExact(), clock.map(start));
  }

  @Test
  void theEndsOfTimeAreClampedNotAnOverflow() {
    PiecewiseClock clock = TracePieces.of(threePieces("/t/h0/kernel")).orElseThrow();
    assertEquals(PiecewiseTransform.of(threePieces("/t/h0/kernel")).mapRounded(Long.MAX_VALUE),
        clock.map(Long.MAX_VALUE), "within a long: exact");
    PiecewiseClock fast = new PiecewiseClock(List.of(new PiecewiseClock.Piece(0, new BigDecimal("2"), BigDecimal.ONE)));
    assertEquals(Long.MAX_VALUE, fast.map(Long.MAX_VALUE));
    assertEquals(Long.MIN_VALUE, fast.map(Long.MIN_VALUE));
  }

  /** As Trace Compass stores it in the supplementary files and reads it back after a restart. */
  @Test
  void theClockSurvivesJavaSerializationExactly() throws Exception {
    PiecewiseClock clock = TracePieces.of(threePieces("/t/h0/kernel")).orElseThrow();
    PiecewiseClock back = (PiecewiseClock) deserialize(serialize(clock));
    assertEquals(clock, back);
    assertEquals(clock.toString(), back.toString(), "the 34-digit decimals, digit for digit");
    for (long t = T0; t <= T0 + 30_000_000_000L; t += 999_999_937L) assertEquals(clock.map(t), back.map(t));
  }

  @Test
  void aDamagedSerializedClockIsRefusedWhenRead() throws Exception {
    PiecewiseClock clock = new PiecewiseClock(List.of(new PiecewiseClock.Piece(5, BigDecimal.ONE, BigDecimal.ZERO),
        new PiecewiseClock.Piece(9, BigDecimal.ONE, BigDecimal.ONE)));
    byte[] bytes = serialize(clock);
    // The pieces' firsts are the long[] {5, 9}: swap them to {9, 5}, out of order.
    byte[] five = {0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 9};
    int at = indexOf(bytes, five);
    assertTrue(at > 0);
    bytes[at + 7] = 9;
    bytes[at + 15] = 5;
    InvalidObjectException e = assertThrows(InvalidObjectException.class, () -> deserialize(bytes));
    assertEquals("piece 1 starts at 5, not after piece 0 (9)", e.getMessage());
  }

  @Test
  void piecesAreCheckedWhenMade() {
    assertThrows(IllegalArgumentException.class, () -> new PiecewiseClock(List.of()));
    assertThrows(IllegalArgumentException.class,
        () -> new PiecewiseClock(List.of(new PiecewiseClock.Piece(0, BigDecimal.ZERO, BigDecimal.ONE))));
    Trace gap = threePieces("/t").toBuilder().setSegments(1, segment(T0 + 10_000_000_001L, T0 + 20_000_000_000L,
        "1", "0")).build();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> TracePieces.of(gap));
    assertTrue(e.getMessage().contains("segment 1"), e.getMessage());
  }

  @Test
  void aFolderOfTracesHasPiecesOnlyWhenTheyAgree() {
    Snapshot snapshot = Snapshot.newBuilder().addTraces(threePieces("/t/h0/kernel"))
        .addTraces(threePieces("/t/h0/ust")).build();
    SnapshotTraces traces = new SnapshotTraces(snapshot);
    assertEquals(TracePieces.of(threePieces("/x")), traces.piecesAt("/t/h0"));
    Trace other = threePieces("/t/h0/ust").toBuilder().setSegments(2, segment(T0 + 20_000_000_000L,
        T0 + 30_000_000_000L, "0.9999866", "23680718750001")).build();
    SnapshotTraces disagreeing = new SnapshotTraces(Snapshot.newBuilder().addTraces(threePieces("/t/h0/kernel"))
        .addTraces(other).build());
    assertThrows(IllegalStateException.class, () -> disagreeing.piecesAt("/t/h0"));
    assertEquals(Optional.empty(), traces.piecesAt("/elsewhere"));
    assertNotEquals(TracePieces.of(other), TracePieces.of(threePieces("/x")));
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) continue outer;
      }
      return i;
    }
    return -1;
  }
}
