package org.tracesync.tracecompass.view.model;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.tracesync.proto.Link;
import org.tracesync.proto.Snapshot;
import org.tracesync.tracecompass.snapshot.Decimals;
import org.tracesync.tracecompass.snapshot.DomainLabels;
import org.tracesync.tracecompass.snapshot.QualityNames;

/** The link table: one row per link of a snapshot, in the snapshot's (a, b) order, and the columns that show them. */
public final class LinkTableModel {
  /** One column: its header, how wide it likes to be, and the text of a row in it. */
  public record Column(String header, int preferredWidth, boolean numeric, Function<Row, String> text) {}

  /** One link, with the labels of its ends resolved. {@code index} is the link's position in the snapshot. */
  public record Row(int index, Link link, String labelA, String labelB) {
    public String ends() {
      return labelA + " \u2194 " + labelB;
    }
  }

  public static final List<Column> COLUMNS = List.of(
      new Column("Link", 200, false, Row::ends),
      new Column("Quality", 90, false, r -> QualityNames.of(r.link().getQuality())),
      new Column("Alpha", 150, true, r -> Decimals.display(Decimals.exactOr(r.link().getAlpha(), BigDecimal.ONE))),
      new Column("Beta (ns)", 150, true, r -> Decimals.display(Decimals.exactOr(r.link().getBeta(), BigDecimal.ZERO))),
      new Column("Accuracy", 100, true, LinkTableModel::accuracy),
      new Column("Uncertainty", 100, true, LinkTableModel::uncertainty),
      new Column("Messages", 80, true, r -> Long.toString(r.link().getMessages())),
      new Column("Accurate", 80, true, r -> Long.toString(r.link().getAccurateMessages())),
      new Column("Hull (lower/upper)", 120, true, r -> r.link().getLowerHull() + " / " + r.link().getUpperHull()),
      new Column("In tree", 60, false, r -> r.link().getInTree() ? "yes" : ""));

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
