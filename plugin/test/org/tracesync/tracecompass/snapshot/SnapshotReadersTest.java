// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.tracesync.proto.Decimal;
import org.tracesync.proto.Quality;
import org.tracesync.proto.Snapshot;
import org.tracesync.proto.Trace;

class SnapshotReadersTest {
  @Test
  void exactDecimalsKeepAllThirtyFourDigits() {
    String text = "1.000002999999999999999999999999999";
    BigDecimal value = Decimals.exact(Decimal.newBuilder().setExact(text).setApprox(1.000003).build()).orElseThrow();
    assertEquals(34, value.precision());
    assertEquals(text, value.toPlainString());
    // The double beside it could not tell this slope from 1.000003.
    assertTrue(value.compareTo(new BigDecimal("1.000003")) < 0);
  }

  @Test
  void missingDecimalReadsAsTheFallback() {
    assertTrue(Decimals.exact(Decimal.getDefaultInstance()).isEmpty());
    assertEquals(BigDecimal.ONE, Decimals.exactOr(Decimal.getDefaultInstance(), BigDecimal.ONE));
  }

  @Test
  void malformedDecimalIsAClearError() {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
        () -> Decimals.exact(Decimal.newBuilder().setExact("1.0e").build()));
    assertTrue(error.getMessage().contains("'1.0e'"), error.getMessage());
  }

  @Test
  void displayRoundsToFifteenDigitsWithoutExponent() {
    assertEquals("1.00000299999999", Decimals.display(new BigDecimal("1.000002999999994999")));
    assertEquals("-5100000000000", Decimals.display(new BigDecimal("-5.1E+12")));
  }

  @Test
  void labelsUseHostnamesAndTellTwoBootsApart() {
    Snapshot snapshot = Snapshot.newBuilder()
        .addTraces(Trace.newBuilder().setDomain("aaaa1111-boot1").setHostname("web"))
        .addTraces(Trace.newBuilder().setDomain("bbbb2222-boot2").setHostname("web"))
        .addTraces(Trace.newBuilder().setDomain("cccc3333").setHostname("db"))
        .addTraces(Trace.newBuilder().setDomain("/traces/anonymous")).build();
    DomainLabels labels = DomainLabels.of(snapshot);
    assertEquals("db", labels.shortLabel("cccc3333"));
    assertEquals("web [aaaa1111]", labels.shortLabel("aaaa1111-boot1"));
    assertEquals("web [bbbb2222]", labels.shortLabel("bbbb2222-boot2"));
    assertEquals("db (cccc3333)", labels.fullLabel("cccc3333"));
    assertEquals("/traces/anonymous", labels.fullLabel("/traces/anonymous"));
    assertEquals("unknown-domain", labels.hostname("unknown-domain"));
  }

  @Test
  void qualityNamesAreTraceCompassWords() {
    assertEquals("Accurate", QualityNames.of(Quality.ACCURATE));
    assertEquals("Approximate", QualityNames.of(Quality.APPROXIMATE));
    assertEquals("Incomplete", QualityNames.of(Quality.INCOMPLETE));
    assertEquals("Absent", QualityNames.of(Quality.ABSENT));
    assertEquals("Fail", QualityNames.of(Quality.FAIL));
  }
}
