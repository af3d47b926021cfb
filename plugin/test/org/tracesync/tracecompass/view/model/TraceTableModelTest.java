// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.tracesync.proto.Snapshot;
import org.tracesync.proto.Trace;
import org.tracesync.tracecompass.testing.LinkFixture;
import org.tracesync.tracecompass.testing.TestSnapshots;
import org.tracesync.tracecompass.view.model.LinkPlotModel.PlotPoint;

class TraceTableModelTest {
  private final Snapshot snapshot = TestSnapshots.withPiecesAndAnUnsynchronizedTrace();
  private final Map<String, TableColumn<TraceTableModel.Row>> columns =
      TraceTableModel.COLUMNS.stream().collect(Collectors.toMap(TableColumn::header, Function.identity()));

  private String cell(int trace, String header) {
    return columns.get(header).text().apply(TraceTableModel.of(snapshot).rows().get(trace));
  }

  @Test
  void rolesAreSaidInWords() {
    assertEquals("synchronized", cell(0, "Status"));
    assertEquals("reference", cell(1, "Status"));
    assertEquals("not synchronized: its only link (with VM3) is one-way", cell(3, "Status"));
    for (String header : List.of("Drift", "Shift at first event", "Worst bound")) {
      assertEquals("-", cell(3, header), header + " of a trace that is not synchronized");
    }
  }

  @Test
  void driftShiftAndBoundAreInHumanUnitsFromExactValues() {
    Trace trace = TestSnapshots.trace("t", "/t", "h", "d", false, new BigDecimal("1.0000125"),
        new BigDecimal("-21250000.5")).toBuilder().setFirstNs(LinkFixture.EPOCH_NS).setUncertaintyNs(1234).build();
    TraceTableModel.Row row = TraceTableModel.of(Snapshot.newBuilder().addTraces(trace).build()).rows().get(0);
    assertEquals(12.5, row.driftPpm(), 1e-9);
    // slope * t + offset - t at t = 1.7e18: 12.5e-6 * 1.7e18 - 21250000.5 = 2.125e13 - 2.12500005e7 ns
    assertEquals(2.125e13 - 21_250_000.5, row.shiftNs(), 1e-3);
    assertEquals("+12.500 ppm", TraceTableModel.ppm(row.driftPpm()));
    assertEquals("\u00b1 1.234 us", columns.get("Worst bound").text().apply(row));
    assertEquals("+0.000 ppm", TraceTableModel.ppm(-0.0000001));
  }

  @Test
  void aTraceInPiecesReportsItsWorstEndAndItsPieces() {
    TraceTableModel.Row pieced = TraceTableModel.of(snapshot).rows().get(0);
    assertEquals(3, pieced.pieces());
    assertEquals(45_000, pieced.worstBoundNs());
    assertEquals(1, TraceTableModel.of(snapshot).rows().get(2).pieces(), "a single line is one piece");
  }

  @Test
  void oldSnapshotsWithoutTheNotionCountAsSynchronized() {
    assertTrue(TraceTableModel.of(TestSnapshots.threeHosts()).rows().stream()
        .allMatch(TraceTableModel.Row::isSynchronized));
    assertFalse(TraceTableModel.of(snapshot).rows().get(3).isSynchronized());
  }

  @Test
  void theBoundOverTimeJoinsThePiecesEnds() {
    TraceBoundModel bound = TraceBoundModel.of(snapshot.getTraces(0));
    assertEquals(6, bound.bound().size());
    assertEquals(new PlotPoint(0, 2_000), bound.bound().get(0));
    assertEquals(new PlotPoint(3e9, 900), bound.bound().get(2));
    assertEquals(List.of(3e9, 7e9), bound.pieceStarts());
    assertTrue(bound.vMax() > 45_000);
    TraceBoundModel single = TraceBoundModel.of(snapshot.getTraces(2));
    assertEquals(2, single.bound().size(), "a single line: its bound across the span");
    assertEquals(single.bound().get(0).v(), single.bound().get(1).v());
  }
}
