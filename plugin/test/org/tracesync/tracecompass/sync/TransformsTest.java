// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.tracesync.proto.Snapshot;
import org.tracesync.proto.Trace;
import org.tracesync.tracecompass.testing.LinkFixture;
import org.tracesync.tracecompass.testing.TestSnapshots;

class TransformsTest {
  /** A trace outside the main island has a transform that means nothing: the snapshot says why, and it is kept. */
  @Test
  void unsynchronizedTracesAreKnownByTheirReason() {
    SnapshotTraces traces = new SnapshotTraces(TestSnapshots.withPiecesAndAnUnsynchronizedTrace());
    assertEquals("its only link (with VM3) is one-way", traces.unsynchronizedReason("/traces/vm4/kernel").orElseThrow());
    assertTrue(traces.unsynchronizedReason("/traces/vm1/kernel").isEmpty());
    assertTrue(new SnapshotTraces(TestSnapshots.threeHosts()).unsynchronizedReason("/traces/vm1").isEmpty());
  }

  /** A skipped trace is reported once, by the snapshot's problem, not again as "read no trace there". */
  @Test
  void problemsAreFoundByTheTraceTheyAreAbout() {
    Snapshot snapshot = TestSnapshots.threeHosts().toBuilder()
        .addProblems(org.tracesync.proto.Problem.newBuilder().setSource("/traces/vm5/kernel").setSkipped(true)
            .setMessage("cannot be opened"))
        .addProblems(org.tracesync.proto.Problem.newBuilder().setSource("messages.txt").setLine(3).setMessage("x"))
        .build();
    SnapshotTraces traces = new SnapshotTraces(snapshot);
    assertTrue(traces.hasProblemAt("/traces/vm5/kernel"));
    assertTrue(traces.hasProblemAt("/traces/vm5"), "a folder holding the trace");
    assertFalse(traces.hasProblemAt("/traces/vm1/kernel"));
  }

  @Test
  void referenceTracesHaveTheIdentity() {
    Snapshot snapshot = TestSnapshots.threeHosts();
    SnapshotTraces traces = new SnapshotTraces(snapshot);
    assertTrue(traces.transformAt("/traces/vm2/kernel").orElseThrow().isIdentity());
    assertFalse(traces.transformAt("/traces/vm1/kernel").orElseThrow().isIdentity());
  }

  @Test
  void transformsMapTheOtherClockOntoTheReferenceExactly() {
    // VM1's transform is the VM1 -> VM2 link's estimate: t_VM2 = alpha * t_VM1 + beta.
    Snapshot snapshot = TestSnapshots.threeHosts();
    TraceTransform vm1 = new SnapshotTraces(snapshot).transformAt("/traces/vm1/kernel").orElseThrow();
    BigDecimal alpha = new BigDecimal(snapshot.getLinks(0).getAlpha().getExact());
    BigDecimal beta = new BigDecimal(snapshot.getLinks(0).getBeta().getExact());
    long t = LinkFixture.EPOCH_NS + 5_000_000_000L;
    assertEquals(0, alpha.multiply(BigDecimal.valueOf(t)).add(beta).compareTo(vm1.apply(t)));
  }

  @Test
  void locationsMatchAfterNormalizationAndFoldersFindTheTracesInside() {
    SnapshotTraces traces = new SnapshotTraces(TestSnapshots.threeHosts());
    assertEquals("vm1-kernel", traces.at("/traces/vm1/./kernel/").get(0).getName());
    assertEquals("vm3-kernel", traces.at("/traces/vm3").get(0).getName());
    assertTrue(traces.at("/traces/vm4").isEmpty());
    assertTrue(traces.transformAt("/traces/vm4").isEmpty());
    assertTrue(traces.at("/traces/vm").isEmpty(), "a path prefix is not a parent folder");
  }

  @Test
  void folderWithTwoClocksHasNoSingleTransform() {
    Snapshot snapshot = Snapshot.newBuilder()
        .addTraces(TestSnapshots.trace("k", "/s/kernel", "h", "d1", false, new BigDecimal("1.1"), BigDecimal.ONE))
        .addTraces(TestSnapshots.trace("u", "/s/ust", "h", "d2", true, BigDecimal.ONE, BigDecimal.ZERO)).build();
    IllegalStateException error = assertThrows(IllegalStateException.class,
        () -> new SnapshotTraces(snapshot).transformAt("/s"));
    assertTrue(error.getMessage().contains("different clocks"), error.getMessage());
  }

  @Test
  void traceCompassGetsWholeNanosecondOffsetsForUnitSlopes() {
    TraceTransform halfway = new TraceTransform(new BigDecimal("1.000"), new BigDecimal("2500.5"));
    TraceTransform forTc = halfway.forTraceCompass();
    assertSame(BigDecimal.ONE, forTc.slope());  // TC compares with equals(): "1.000" would not do
    assertEquals(new BigDecimal("2500"), forTc.offset());  // half to even
    assertEquals(new BigDecimal("2502"), new TraceTransform(BigDecimal.ONE, new BigDecimal("2501.5"))
        .forTraceCompass().offset());
    assertEquals(0, forTc.offset().scale());
    TraceTransform drifting = new TraceTransform(new BigDecimal("1.000003"), new BigDecimal("-5.1e12"));
    assertSame(drifting, drifting.forTraceCompass());
  }

  @Test
  void missingDecimalsMeanTheIdentity() {
    assertTrue(TraceTransform.of(Trace.getDefaultInstance()).isIdentity());
    assertTrue(TraceTransform.IDENTITY.isIdentity());
  }

  @Test
  void referenceChoiceKeysTheCache() {
    ReferenceChoice auto = ReferenceChoice.automatic();
    ReferenceChoice vm1 = ReferenceChoice.trace("vm1-kernel", "/traces/vm1/kernel");
    assertTrue(auto.isAutomatic() && auto.tracePath().isEmpty());
    assertEquals("/traces/vm1/kernel", vm1.tracePath().orElseThrow());
    assertNotEquals(auto.cacheKey(), vm1.cacheKey());
    assertEquals(vm1, ReferenceChoice.trace("renamed", "/traces/vm1/kernel"));
    assertThrows(IllegalArgumentException.class, () -> ReferenceChoice.trace("", "/x"));
  }
}
