// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tracesync.tracecompass.testing.TestSnapshots.VM1;
import static org.tracesync.tracecompass.testing.TestSnapshots.VM2;
import static org.tracesync.tracecompass.testing.TestSnapshots.VM3;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tracesync.proto.Island;
import org.tracesync.proto.Link;
import org.tracesync.proto.Quality;
import org.tracesync.proto.Snapshot;
import org.tracesync.tracecompass.testing.TestSnapshots;

class LinkStatisticsTest {
  private final Snapshot snapshot = TestSnapshots.threeHosts();

  @Test
  void oneGroupPerLinkInSnapshotOrder() {
    Map<String, Map<String, Object>> stats = LinkStatistics.of(snapshot);
    assertEquals(List.of("VM1 (" + VM1 + ") <==> VM2 (" + VM2 + ")", "VM1 (" + VM1 + ") <==> VM3 (" + VM3 + ")",
        "VM2 (" + VM2 + ") <==> VM3 (" + VM3 + ")"), List.copyOf(stats.keySet()));
  }

  @Test
  void entriesAreTraceCompassesThenOurs() {
    // Trace Compass's convex-hull algorithm fills its view with these names, in this order (its
    // messages.properties); a tracesync link must read the same, then add uncertainty, tree and reference.
    List<String> traceCompass = List.of("T0", "T1", "Quality", "Alpha", "Beta", "Number of points in upper hull",
        "Number of points in lower hull", "Accuracy", "Number of matching packets received",
        "Number of accurate packets", "C_T0(t)", "C_T1(t)");
    for (Map<String, Object> entries : LinkStatistics.of(snapshot).values()) {
      List<String> names = List.copyOf(entries.keySet());
      assertEquals(traceCompass, names.subList(0, traceCompass.size()));
      assertEquals(List.of("Uncertainty", "In spanning tree", "Reference"),
          names.subList(traceCompass.size(), names.size()));
    }
  }

  @Test
  void valuesComeExactlyFromTheLink() {
    Link link = snapshot.getLinks(0);
    Map<String, Object> entries = LinkStatistics.of(snapshot).values().iterator().next();
    assertEquals("VM1 (" + VM1 + ")", entries.get("T0"));
    assertEquals("VM2 (" + VM2 + ")", entries.get("T1"));
    assertEquals("Accurate", entries.get("Quality"));
    BigDecimal alpha = assertInstanceOf(BigDecimal.class, entries.get("Alpha"));
    assertEquals(link.getAlpha().getExact(), alpha.toPlainString());
    assertEquals(new BigDecimal(link.getBeta().getExact()), entries.get("Beta"));
    assertEquals(link.getUpperHull(), entries.get("Number of points in upper hull"));
    assertEquals(link.getLowerHull(), entries.get("Number of points in lower hull"));
    assertEquals(new BigDecimal(link.getAccuracy().getExact()), entries.get("Accuracy"));
    assertEquals(link.getMessages(), entries.get("Number of matching packets received"));
    assertEquals("T_VM1", entries.get("C_T0(t)"));
    assertEquals(alpha + "*T_VM1 + " + entries.get("Beta"), entries.get("C_T1(t)"));
    assertEquals("\u00b1 1.234 us", entries.get("Uncertainty"));
    assertEquals("yes", entries.get("In spanning tree"));
    assertEquals("VM2 (" + VM2 + "), automatic", entries.get("Reference"));
  }

  @Test
  void linkLeftOutOfTheTreeSaysSo() {
    Map<String, Object> entries = List.copyOf(LinkStatistics.of(snapshot).values()).get(1);
    assertEquals("no", entries.get("In spanning tree"));
  }

  @Test
  void emptyCountsAndUnboundedValuesReadNotAvailable() {
    Link incomplete = Link.newBuilder().setA(VM1).setB(VM3).setQuality(Quality.INCOMPLETE)
        .setAlpha(TestDecimal.of("1")).setBeta(TestDecimal.of("2500.5")).setMessages(3).build();
    Snapshot twoIslands = Snapshot.newBuilder().addLinks(incomplete)
        .addIslands(Island.newBuilder().setId(0).setReference(VM1).setForced(true).addDomains(VM1))
        .addIslands(Island.newBuilder().setId(1).setReference(VM3).addDomains(VM3)).build();
    Map<String, Object> entries = LinkStatistics.of(twoIslands).values().iterator().next();
    assertEquals("Incomplete", entries.get("Quality"));
    assertEquals("N/A", entries.get("Number of points in upper hull"));
    assertEquals("N/A", entries.get("Number of points in lower hull"));
    assertEquals("N/A", entries.get("Accuracy"));
    assertEquals("N/A", entries.get("Number of accurate packets"));
    assertEquals(3L, entries.get("Number of matching packets received"));
    assertEquals("unbounded", entries.get("Uncertainty"));
    String reference = (String) entries.get("Reference");
    assertTrue(reference.contains(VM1 + ", chosen") && reference.contains(VM3 + ", automatic")
        && reference.contains("different islands"), reference);
  }

  /** A decimal as the engine writes it. */
  static final class TestDecimal {
    static org.tracesync.proto.Decimal of(String exact) {
      return org.tracesync.proto.Decimal.newBuilder().setExact(exact).setApprox(Double.parseDouble(exact)).build();
    }
  }
}
