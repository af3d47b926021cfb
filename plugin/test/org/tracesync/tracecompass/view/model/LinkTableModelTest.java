// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.tracesync.proto.Link;
import org.tracesync.proto.Quality;
import org.tracesync.proto.Snapshot;
import org.tracesync.tracecompass.testing.TestSnapshots;
import org.tracesync.tracecompass.view.model.LinkTableModel.Row;

class LinkTableModelTest {
  private static String cell(Row row, String header) {
    Map<String, TableColumn<LinkTableModel.Row>> byHeader = LinkTableModel.COLUMNS.stream().collect(Collectors.toMap(TableColumn::header, c -> c));
    return byHeader.get(header).text().apply(row);
  }

  @Test
  void oneRowPerLinkWithItsValues() {
    Snapshot snapshot = TestSnapshots.threeHosts();
    List<Row> rows = LinkTableModel.of(snapshot).rows();
    assertEquals(3, rows.size());
    Row first = rows.get(0);
    Link link = snapshot.getLinks(0);
    assertEquals(0, first.index());
    assertEquals("VM1 \u2194 VM2", cell(first, "Link"));
    assertEquals("Accurate", cell(first, "Quality"));
    assertEquals(new java.math.BigDecimal(link.getAlpha().getExact()).round(new java.math.MathContext(15))
        .stripTrailingZeros().toPlainString(), cell(first, "Alpha"));
    assertEquals(Long.toString(link.getMessages()), cell(first, "Messages"));
    assertEquals(link.getLowerHull() + " / " + link.getUpperHull(), cell(first, "Hull (lower/upper)"));
    assertEquals("1.234 us", cell(first, "Uncertainty"));
    assertEquals("yes", cell(first, "In tree"));
    assertEquals("", cell(rows.get(1), "In tree"));
  }

  @Test
  void unboundedLinksSayUnbounded() {
    Snapshot snapshot = Snapshot.newBuilder().addLinks(Link.newBuilder().setA("a").setB("b")
        .setQuality(Quality.INCOMPLETE)).build();
    Row row = LinkTableModel.of(snapshot).rows().get(0);
    assertEquals("unbounded", cell(row, "Accuracy"));
    assertEquals("unbounded", cell(row, "Uncertainty"));
    assertEquals("1", cell(row, "Alpha"));  // no alpha: the identity slope
  }
}
