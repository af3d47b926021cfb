// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A made-up experiment with known clocks: hosts whose clocks drift by up to 50 ppm and are off by
 * up to a second, on a random connected graph, exchanging messages with random delays. Every
 * host's true clock is {@code c(t) = T0 + offset + (t - T0) * (1 + drift)}.
 */
final class GeneratedExperiment {
  /** Mid-November 2023, in ns since the epoch. */
  static final long T0 = 1_700_000_000_000_000_000L;

  /** One matched message: sender, its send time, receiver, its receive time (host clocks). */
  record Message(String sender, long send, String receiver, long receive) {}

  final int hosts;
  final double[] drift;
  final long[] offset;
  final List<Message> messages = new ArrayList<>();

  /**
   * @param hosts how many hosts
   * @param extraLinks links added to a random spanning tree
   * @param exchangesPerLink round trips per link, spread over {@code spanNs}
   */
  GeneratedExperiment(int hosts, int extraLinks, int exchangesPerLink, long spanNs, long seed) {
    this.hosts = hosts;
    Random random = new Random(seed);
    drift = new double[hosts];
    offset = new long[hosts];
    for (int h = 0; h < hosts; h++) {
      drift[h] = (random.nextDouble() - 0.5) * 1e-4;
      offset[h] = (long) ((random.nextDouble() - 0.5) * 2e9);
    }
    List<int[]> links = new ArrayList<>();
    for (int h = 1; h < hosts; h++) {
      links.add(new int[] {random.nextInt(h), h});
    }
    for (int k = 0; k < extraLinks; k++) {
      int a = random.nextInt(hosts);
      int b = random.nextInt(hosts - 1);
      links.add(new int[] {a, b >= a ? b + 1 : b});
    }
    for (int[] link : links) {
      for (int e = 0; e < exchangesPerLink; e++) {
        long t = (long) (random.nextDouble() * spanNs);
        long there = 20_000 + random.nextInt(200_000);
        long back = 20_000 + random.nextInt(200_000);
        add(link[0], t, link[1], t + there);
        add(link[1], t + there + 5_000, link[0], t + there + 5_000 + back);
      }
    }
  }

  static String name(int host) {
    return String.format("host%04d", host);
  }

  /** Host h's clock at true time T0 + t. */
  long clock(int h, long t) {
    return T0 + offset[h] + t + Math.round(t * drift[h]);
  }

  /** The true time (relative to T0) at which host h's clock reads c. */
  double trueTime(int h, long c) {
    return (c - T0 - offset[h]) / (1 + drift[h]);
  }

  private void add(int from, long sendTime, int to, long receiveTime) {
    messages.add(new Message(name(from), clock(from, sendTime), name(to), clock(to, receiveTime)));
  }

  void feed(TraceSync sync) {
    for (Message m : messages) {
      sync.addMatch(m.sender(), m.send(), m.receiver(), m.receive());
    }
  }

  /** The messages as a match stream for `tracesync sync --matches`. */
  void write(Path file) throws IOException {
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.US_ASCII)) {
      for (Message m : messages) {
        out.write(m.sender() + " " + m.send() + " " + m.receiver() + " " + m.receive() + "\n");
      }
    }
  }
}
