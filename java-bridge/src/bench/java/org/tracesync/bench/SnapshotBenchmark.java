// SPDX-License-Identifier: EPL-2.0
package org.tracesync.bench;

import java.util.Random;
import org.tracesync.Options;
import org.tracesync.TraceSync;
import org.tracesync.proto.Snapshot;

/**
 * How long a snapshot of a 1,000-trace experiment takes to cross JNI and be parsed in Java: the
 * median of many {@link TraceSync#snapshot()} calls after a warm-up. The session keeps its
 * serialized snapshot until it changes, so this is the JNI copy and {@code Snapshot.parseFrom};
 * the cost of rebuilding the snapshot after a change is measured apart. Prints figures; passes
 * whatever they are.
 *
 * <p>Arguments (optional): hosts (1000), links beyond a random spanning tree (500), round trips
 * per link (4), iterations (2000).
 */
public final class SnapshotBenchmark {
  private SnapshotBenchmark() {}

  public static void main(String[] args) {
    int hosts = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int extraLinks = args.length > 1 ? Integer.parseInt(args[1]) : 500;
    int roundTrips = args.length > 2 ? Integer.parseInt(args[2]) : 4;
    int iterations = args.length > 3 ? Integer.parseInt(args[3]) : 2000;
    try (TraceSync sync = TraceSync.open(Options.defaults())) {
      feedRandomExperiment(sync, hosts, extraLinks, roundTrips, new Random(1));
      Snapshot first = sync.snapshot();
      System.out.printf("experiment: %d traces, %d links, %d island(s), %d messages; snapshot %d bytes%n",
          first.getTracesCount(), first.getLinksCount(), first.getIslandsCount(), first.getMessages(),
          first.getSerializedSize());
      for (int i = 0; i < iterations / 2; i++) {
        sync.snapshot(); // warm-up: JIT, allocator
      }
      long[] cached = new long[iterations];
      for (int i = 0; i < iterations; i++) {
        long start = System.nanoTime();
        Snapshot s = sync.snapshot();
        cached[i] = System.nanoTime() - start;
        if (s.getTracesCount() != hosts) throw new AssertionError("lost traces");
      }
      // After a change the native side rebuilds the snapshot (network refresh, decimals).
      int rebuilds = Math.max(5, iterations / 100);
      long[] rebuilt = new long[rebuilds];
      for (int i = 0; i < rebuilds; i++) {
        sync.addMatch("host0", 2_000_000_000_000_000_000L + i, "host1", 2_000_000_000_000_100_000L + i);
        long start = System.nanoTime();
        sync.snapshot();
        rebuilt[i] = System.nanoTime() - start;
      }
      System.out.printf("snapshot() unchanged session (JNI copy + parseFrom): median %.1f us, p90 %.1f us, %d calls%n",
          Medians.medianMicros(cached), Medians.percentile(cached, 0.9) / 1e3, iterations);
      System.out.printf("snapshot() after a change (native rebuild + JNI + parseFrom): median %.1f us, %d calls%n",
          Medians.medianMicros(rebuilt), rebuilds);
    }
  }

  /** Hosts host0..hostN-1 on a random connected graph, clocks off by up to 1 s and 50 ppm. */
  static void feedRandomExperiment(TraceSync sync, int hosts, int extraLinks, int roundTrips, Random random) {
    final long t0 = 1_700_000_000_000_000_000L;
    double[] drift = new double[hosts];
    long[] offset = new long[hosts];
    for (int h = 0; h < hosts; h++) {
      drift[h] = (random.nextDouble() - 0.5) * 1e-4;
      offset[h] = (long) ((random.nextDouble() - 0.5) * 2e9);
    }
    int links = hosts - 1 + extraLinks;
    for (int k = 0; k < links; k++) {
      int a = k < hosts - 1 ? random.nextInt(k + 1) : random.nextInt(hosts);
      int b = k < hosts - 1 ? k + 1 : (a + 1 + random.nextInt(hosts - 1)) % hosts;
      for (int r = 0; r < roundTrips; r++) {
        long t = t0 + (long) (random.nextDouble() * 60e9);
        long there = 20_000 + random.nextInt(200_000);
        long back = 20_000 + random.nextInt(200_000);
        sync.addMatch("host" + a, clock(t0, drift[a], offset[a], t), "host" + b,
            clock(t0, drift[b], offset[b], t + there));
        sync.addMatch("host" + b, clock(t0, drift[b], offset[b], t + there + 5000), "host" + a,
            clock(t0, drift[a], offset[a], t + there + 5000 + back));
      }
    }
  }

  private static long clock(long t0, double drift, long offset, long t) {
    return t + offset + Math.round((t - t0) * drift);
  }
}
