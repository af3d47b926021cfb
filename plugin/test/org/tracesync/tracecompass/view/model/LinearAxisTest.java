// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LinearAxisTest {
  @Test
  void mapsEndsToPixelsEitherWay() {
    LinearAxis up = new LinearAxis(-50, 150, 400, 0);  // vertical: grows upwards
    assertEquals(400.0, up.toPixel(-50));
    assertEquals(0.0, up.toPixel(150));
    assertEquals(200.0, up.toPixel(50));
  }

  @Test
  void ticksAreRoundInsideTheRangeAndFewEnough() {
    Random random = new Random(7);
    for (int i = 0; i < 2000; i++) {
      double min = (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(12));
      double max = min + random.nextDouble() * Math.pow(10, random.nextInt(12)) + 1e-3;
      int maxTicks = 2 + random.nextInt(10);
      List<Double> ticks = new LinearAxis(min, max, 0, 100).ticks(maxTicks);
      assertTrue(ticks.size() <= maxTicks, ticks.size() + " ticks for at most " + maxTicks);
      for (double tick : ticks) assertTrue(tick >= min - 1e-9 * Math.abs(min) && tick <= max + 1e-9 * Math.abs(max));
      if (ticks.size() >= 2) {
        // Far from zero, a tick difference carries the rounding of the ticks themselves.
        double step = ticks.get(1) - ticks.get(0);
        double power = Math.pow(10, Math.floor(Math.log10(step)));
        double mantissa = step / power;
        double tolerance = 1e-6 + 4 * Math.ulp(Math.max(Math.abs(min), Math.abs(max))) / power;
        assertTrue(near(mantissa, 1, tolerance) || near(mantissa, 2, tolerance) || near(mantissa, 5, tolerance)
            || near(mantissa, 10, tolerance), "step " + step);
      }
    }
  }

  @Test
  void niceStepsAreOneTwoFiveTimesAPowerOfTen() {
    assertEquals(1.0, LinearAxis.niceStep(0.7));
    assertEquals(2.0, LinearAxis.niceStep(1.3));
    assertEquals(5.0, LinearAxis.niceStep(4.2));
    assertEquals(10.0, LinearAxis.niceStep(9));
    assertEquals(2e6, LinearAxis.niceStep(1.6e6), 1e-3);
  }

  @Test
  void emptyRangeIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> new LinearAxis(3, 3, 0, 10));
  }

  @Test
  void nanosecondsReadWithTheirUnit() {
    assertEquals("850 ns", NanosecondFormat.format(850));
    assertEquals("12.5 us", NanosecondFormat.format(12_500));
    assertEquals("-3.25 ms", NanosecondFormat.format(-3_250_000));
    assertEquals("2 s", NanosecondFormat.format(2e9));
    assertEquals("0 ns", NanosecondFormat.format(-0.0));
  }

  private static boolean near(double a, double b, double tolerance) {
    return Math.abs(a - b) < tolerance;
  }
}
