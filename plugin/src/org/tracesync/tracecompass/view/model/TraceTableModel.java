// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.model;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.tracesync.proto.Segment;
import org.tracesync.proto.Snapshot;
import org.tracesync.proto.Trace;
import org.tracesync.tracecompass.snapshot.Decimals;

/**
 * The trace table: one row per trace of a snapshot, in the snapshot's order, saying in words and human units how
 * each trace was moved onto its reference: its role, its drift in ppm, its shift at its first event, its worst bound
 * and the pieces of its transform.
 */
public final class TraceTableModel {
  /** One trace; {@code index} is its position in the snapshot. */
  public record Row(int index, Trace trace) {
    /**
     * False for a trace that is not synchronized with the rest (outside the main island). Snapshots older than that
     * notion have no reason set; their traces count as synchronized.
     */
    public boolean isSynchronized() {
      return trace.getSynchronized() || trace.getUnsynchronizedReason().isEmpty();
    }

    public String status() {
      if (!isSynchronized()) return "not synchronized: " + trace.getUnsynchronizedReason();
      return trace.getReference() ? "reference" : "synchronized";
    }

    /** (slope - 1) in parts per million, from the exact slope. */
    public double driftPpm() {
      BigDecimal slope = Decimals.exactOr(trace.getSlope(), BigDecimal.ONE);
      return slope.subtract(BigDecimal.ONE).movePointRight(6).doubleValue();
    }

    /** t_ref - t at the trace's first event, in ns, computed exactly. */
    public double shiftNs() {
      BigDecimal slope = Decimals.exactOr(trace.getSlope(), BigDecimal.ONE);
      BigDecimal offset = Decimals.exactOr(trace.getOffset(), BigDecimal.ZERO);
      BigDecimal first = BigDecimal.valueOf(trace.getFirstNs());
      return slope.multiply(first, MathContext.UNLIMITED).add(offset).subtract(first).doubleValue();
    }

    /** The largest bound anywhere on the trace's span: the worst end of any piece. */
    public double worstBoundNs() {
      double worst = trace.getUncertaintyNs();
      for (Segment s : trace.getSegmentsList()) {
        worst = Math.max(worst, Math.max(s.getUncertaintyFirstNs(), s.getUncertaintyLastNs()));
      }
      return worst;
    }

    /** The pieces of the transform: one when the snapshot has none listed (the single line). */
    public int pieces() {
      return Math.max(1, trace.getSegmentsCount());
    }
  }

  public static final List<TableColumn<Row>> COLUMNS = List.of(
      new TableColumn<>("Trace", 180, false, r -> r.trace().getName()),
      new TableColumn<>("Host", 120, false, r -> r.trace().getHostname()),
      new TableColumn<>("Status", 300, false, Row::status),
      new TableColumn<>("Drift", 110, true, r -> r.isSynchronized() ? ppm(r.driftPpm()) : "-"),
      new TableColumn<>("Shift at first event", 140, true,
          r -> r.isSynchronized() ? signed(NanosecondFormat.format(r.shiftNs()), r.shiftNs()) : "-"),
      new TableColumn<>("Worst bound", 110, true,
          r -> r.isSynchronized() ? "\u00b1 " + NanosecondFormat.format(r.worstBoundNs()) : "-"),
      new TableColumn<>("Pieces", 60, true, r -> Integer.toString(r.pieces())));

  private final List<Row> rows;

  private TraceTableModel(List<Row> rows) {
    this.rows = List.copyOf(rows);
  }

  public static TraceTableModel of(Snapshot snapshot) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < snapshot.getTracesCount(); i++) rows.add(new Row(i, snapshot.getTraces(i)));
    return new TraceTableModel(rows);
  }

  public static TraceTableModel empty() {
    return new TraceTableModel(List.of());
  }

  public List<Row> rows() {
    return rows;
  }

  /** "+12.345 ppm": a drift with its sign, three decimals. */
  static String ppm(double value) {
    String text = String.format(Locale.ROOT, "%+.3f ppm", value);
    return text.equals("-0.000 ppm") ? "+0.000 ppm" : text;
  }

  private static String signed(String formatted, double value) {
    return value > 0 ? "+" + formatted : formatted;
  }
}
