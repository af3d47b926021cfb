// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.widgets;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.ImageLoader;
import org.eclipse.swt.graphics.RGB;

/** Reading rendered pixels, and leaving the picture in the build folder for people to look at. */
final class Pixels {
  private final ImageData data;
  private final RGB[] rgb;  // decoded once: scans read many pixels

  Pixels(Image image) {
    this.data = image.getImageData();
    this.rgb = new RGB[data.width * data.height];
    int[] row = new int[data.width];
    for (int y = 0; y < data.height; y++) {
      data.getPixels(0, y, data.width, row, 0);
      for (int x = 0; x < data.width; x++) rgb[y * data.width + x] = data.palette.getRGB(row[x]);
    }
  }

  RGB at(int x, int y) {
    return rgb[y * data.width + x];
  }

  int width() {
    return data.width;
  }

  int height() {
    return data.height;
  }

  /** True when a pixel within {@code radius} of (x, y) has the colour (to a small tolerance for antialiasing). */
  boolean near(int x, int y, int radius, RGB colour) {
    for (int dy = -radius; dy <= radius; dy++) {
      for (int dx = -radius; dx <= radius; dx++) {
        int px = x + dx;
        int py = y + dy;
        if (px >= 0 && py >= 0 && px < width() && py < height() && same(at(px, py), colour)) return true;
      }
    }
    return false;
  }

  static boolean same(RGB a, RGB b) {
    return Math.abs(a.red - b.red) + Math.abs(a.green - b.green) + Math.abs(a.blue - b.blue) <= 12;
  }

  /** Saves the picture as {@code name} in the render folder (-Dtracesync.render.dir), and returns its path. */
  Path save(String name) throws java.io.IOException {
    Path dir = Paths.get(System.getProperty("tracesync.render.dir", System.getProperty("java.io.tmpdir")));
    Files.createDirectories(dir);
    Path file = dir.resolve(name);
    ImageLoader loader = new ImageLoader();
    loader.data = new ImageData[] {data};
    loader.save(file.toString(), SWT.IMAGE_PNG);
    return file;
  }
}
