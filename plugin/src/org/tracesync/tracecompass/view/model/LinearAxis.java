// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.model;

import java.util.ArrayList;
import java.util.List;

/**
 * Maps a range of data values onto a range of pixels, and picks round tick values (1, 2 or 5 times a power of ten)
 * inside it. The pixel range may run backwards (a vertical axis grows upwards).
 */
public final class LinearAxis {
  private final double min;
  private final double max;
  private final double pixelAtMin;
  private final double pixelAtMax;

  public LinearAxis(double min, double max, double pixelAtMin, double pixelAtMax) {
    if (!(max > min)) throw new IllegalArgumentException("empty axis range [" + min + ", " + max + "]");
    this.min = min;
    this.max = max;
    this.pixelAtMin = pixelAtMin;
    this.pixelAtMax = pixelAtMax;
  }

  public double min() {
    return min;
  }

  public double max() {
    return max;
  }

  public double toPixel(double value) {
    return pixelAtMin + (value - min) / (max - min) * (pixelAtMax - pixelAtMin);
  }

  /** The round values inside [min, max], at most {@code maxTicks} of them (and at least one step apart). */
  public List<Double> ticks(int maxTicks) {
    double step = niceStep((max - min) / Math.max(1, maxTicks));
    while ((max - min) / step + 1 > maxTicks + 1e-9 && maxTicks > 0) step = niceStep(step * 1.01);
    List<Double> ticks = new ArrayList<>();
    for (double k = Math.ceil(min / step); k * step <= max + step * 1e-9; k++) {
      ticks.add(k == 0 ? 0.0 : k * step);  // no "-0"
    }
    return ticks;
  }

  /** The smallest of 1, 2, 5 times a power of ten that is at least {@code rough}. */
  static double niceStep(double rough) {
    double power = Math.pow(10, Math.floor(Math.log10(rough)));
    for (double factor : new double[] {1, 2, 5, 10}) {
      if (factor * power >= rough * (1 - 1e-12)) return factor * power;
    }
    return 10 * power;
  }
}
