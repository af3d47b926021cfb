// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.tracesync.proto.Decimal;
import org.tracesync.proto.Trace;

class LinearTransformTest {
  private static final long EPOCH_2023 = 1_700_000_000_000_000_000L;

  @Test
  void mapsEpochTimestampsExactly() {
    // A slope a double cannot hold, as the engine writes it (34 significant digits).
    LinearTransform t = LinearTransform.of("1.000012345678901234567890123456789", "-123456.789");
    // 1.7e18 * 0.000012345678901234567890123456789
    //   = 12345678901234567890123456789 * 17 / 10^16 = 20987654132098.7654132098765413
    BigDecimal expected = new BigDecimal("1700020987654008641.9764132098765413");
    assertEquals(0, expected.compareTo(t.applyExact(EPOCH_2023)));
    assertEquals(1_700_020_987_654_008_642L, t.apply(EPOCH_2023));
  }

  @Test
  void roundsHalfToEven() {
    LinearTransform half = LinearTransform.of("0.5", "0");
    assertEquals(0, half.apply(1)); // 0.5 -> 0
    assertEquals(2, half.apply(3)); // 1.5 -> 2
    assertEquals(2, half.apply(5)); // 2.5 -> 2
    assertEquals(-2, half.apply(-3)); // -1.5 -> -2
  }

  @Test
  void applyAgreesWithABigIntegerOracle() {
    // slope = s / 10^34 and offset = o / 10^3: t_ref * 10^34 = s*t + o*10^31, in integers.
    Random random = new Random(7);
    BigInteger scale = BigInteger.TEN.pow(34);
    for (int i = 0; i < 2000; i++) {
      BigInteger s = scale.add(BigInteger.valueOf(random.nextInt(2_000_001) - 1_000_000).multiply(BigInteger.TEN.pow(24)))
          .add(new BigInteger(80, random));
      long o = random.nextLong() % 1_000_000_000_000L;
      long t = EPOCH_2023 + random.nextLong() % 100_000_000_000_000L;
      LinearTransform transform =
          LinearTransform.of(new BigDecimal(s, 34), BigDecimal.valueOf(o, 3));
      BigInteger numerator = s.multiply(BigInteger.valueOf(t)).add(BigInteger.valueOf(o).multiply(BigInteger.TEN.pow(31)));
      BigDecimal exact = new BigDecimal(numerator, 34);
      assertEquals(0, exact.compareTo(transform.applyExact(t)));
      long rounded = exact.setScale(0, RoundingMode.HALF_EVEN).longValueExact();
      assertEquals(rounded, transform.apply(t));
      // The nearest nanosecond: never more than half a nanosecond away.
      assertTrue(exact.subtract(BigDecimal.valueOf(rounded)).abs().compareTo(new BigDecimal("0.5")) <= 0);
    }
  }

  @Test
  void inverseUndoesTheTransformToTheNanosecond() {
    LinearTransform t = LinearTransform.of("0.9999871234567890123456789012345678", "21987654321.5");
    LinearTransform back = t.inverse(MathContext.DECIMAL128);
    for (long time = EPOCH_2023; time < EPOCH_2023 + 10_000_000_000_000L; time += 999_999_999_937L) {
      assertEquals(time, back.apply(t.apply(time)));
    }
    assertEquals(LinearTransform.IDENTITY, LinearTransform.IDENTITY.inverse(MathContext.DECIMAL128));
  }

  @Test
  void compositionIsExact() {
    LinearTransform outer = LinearTransform.of("1.5", "10");
    LinearTransform inner = LinearTransform.of("2", "-3");
    // 1.5 * (2t - 3) + 10 = 3t + 5.5
    assertEquals(LinearTransform.of("3", "5.5"), outer.after(inner));
    for (long time : new long[] {0, 1, -7, EPOCH_2023 / 4}) {
      assertEquals(0, outer.applyExact(inner.apply(time)).compareTo(outer.after(inner).applyExact(time)));
    }
    assertEquals(outer, outer.after(LinearTransform.IDENTITY));
    assertEquals(outer, LinearTransform.IDENTITY.after(outer));
  }

  @Test
  void equalityIsNumerical() {
    assertEquals(LinearTransform.of("1.000", "0"), LinearTransform.of("1", "0.00"));
    assertEquals(LinearTransform.of("1.000", "0").hashCode(), LinearTransform.of("1", "0.00").hashCode());
    assertNotEquals(LinearTransform.of("1", "0"), LinearTransform.of("1", "0.001"));
    assertEquals("t_ref = 0.5 * t + -500", LinearTransform.of("0.5", "-500").toString());
  }

  @Test
  void readsATraceOfASnapshot() {
    Trace trace =
        Trace.newBuilder()
            .setName("B")
            .setSlope(Decimal.newBuilder().setExact("0.5000000000000000000000000000000000").setApprox(0.5))
            .setOffset(Decimal.newBuilder().setExact("-500.0000000000000000000000000000000").setApprox(-500))
            .build();
    assertEquals(LinearTransform.of("0.5", "-500"), LinearTransform.of(trace));
  }

  @Test
  void refusesWhatIsNotAClockTransform() {
    IllegalArgumentException notANumber =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                LinearTransform.of(
                    Trace.newBuilder()
                        .setName("B")
                        .setSlope(Decimal.newBuilder().setExact("nan"))
                        .setOffset(Decimal.newBuilder().setExact("0"))
                        .build()));
    assertEquals("the slope of trace 'B' is not a decimal number: 'nan'", notANumber.getMessage());
    // A trace without a transform (an empty Decimal) is not silently the identity.
    assertThrows(IllegalArgumentException.class, () -> LinearTransform.of(Trace.getDefaultInstance()));
    assertThrows(IllegalArgumentException.class, () -> LinearTransform.of("1", "1e"));
    assertThrows(IllegalArgumentException.class, () -> LinearTransform.of("0", "1"));
    assertThrows(IllegalArgumentException.class, () -> LinearTransform.of("-1", "1"));
    assertThrows(NullPointerException.class, () -> LinearTransform.of((String) null, "1"));
    assertThrows(NullPointerException.class, () -> LinearTransform.of((Trace) null));
    assertThrows(ArithmeticException.class, () -> LinearTransform.of("4", "0").apply(Long.MAX_VALUE));
  }
}
