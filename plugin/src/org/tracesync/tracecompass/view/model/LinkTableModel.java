// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.model;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.tracesync.proto.Link;
import org.tracesync.proto.Snapshot;
import org.tracesync.tracecompass.snapshot.Decimals;
import org.tracesync.tracecompass.snapshot.DomainLabels;
import org.tracesync.tracecompass.snapshot.QualityNames;

/** The link table: one row per link of a snapshot, in the snapshot's (a, b) order, and the columns that show them. */
public final class LinkTableModel {
  /** One link, with the labels of its ends resolved. {@code index} is the link's position in the snapshot. */
  public record Row(int index, Link link, String labelA, String labelB) {
    public String ends() {
      return labelA + " \u2194 " + labelB;
    }
  }

  public static final List<TableColumn<Row>> COLUMNS = List.of(
      new TableColumn<>("Link", 200, false, Row::ends),
      new TableColumn<>("Quality", 90, false, r -> QualityNames.of(r.link().getQuality())),
      new TableColumn<>("Alpha", 150, true, r -> Decimals.display(Decimals.exactOr(r.link().getAlpha(), BigDecimal.ONE))),
      new TableColumn<>("Beta (ns)", 150, true, r -> Decimals.display(Decimals.exactOr(r.link().getBeta(), BigDecimal.ZERO))),
      new TableColumn<>("Accuracy", 100, true, LinkTableModel::accuracy),
      new TableColumn<>("Uncertainty", 100, true, LinkTableModel::uncertainty),
      new TableColumn<>("Messages", 80, true, r -> Long.toString(r.link().getMessages())),
      new TableColumn<>("Accurate", 80, true, r -> Long.toString(r.link().getAccurateMessages())),
      new TableColumn<>("Hull (lower/upper)", 120, true, r -> r.link().getLowerHull() + " / " + r.link().getUpperHull()),
      new TableColumn<>("In tree", 60, false, r -> r.link().getInTree() ? "yes" : ""));

  private final List<Row> rows;

  private LinkTableModel(List<Row> rows) {
    this.rows = List.copyOf(rows);
  }

  public static LinkTableModel of(Snapshot snapshot) {
    DomainLabels labels = DomainLabels.of(snapshot);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < snapshot.getLinksCount(); i++) {
      Link link = snapshot.getLinks(i);
      rows.add(new Row(i, link, labels.shortLabel(link.getA()), labels.shortLabel(link.getB())));
    }
    return new LinkTableModel(rows);
  }

  public static LinkTableModel empty() {
    return new LinkTableModel(List.of());
  }

  public List<Row> rows() {
    return rows;
  }

  private static String accuracy(Row row) {
    if (!row.link().hasAccuracy()) return "unbounded";
    return String.format(Locale.ROOT, "%.3e", Decimals.exactOr(row.link().getAccuracy(), BigDecimal.ZERO).doubleValue());
  }

  private static String uncertainty(Row row) {
    return row.link().hasUncertaintyNs() ? NanosecondFormat.format(row.link().getUncertaintyNs()) : "unbounded";
  }
}
