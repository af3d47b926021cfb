// SPDX-License-Identifier: EPL-2.0
package org.tracesync.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.tracesync.Options;
import org.tracesync.TraceSync;
import org.tracesync.proto.Snapshot;

/**
 * Synchronizing a CTF experiment through Java against the CLI on the same traces, alternating
 * the two, K runs each: median wall times and their ratio. The experiment is written once by
 * {@code tracesync simulate}. Prints figures; passes whatever they are.
 *
 * <p>System properties: tracesync.cli (the command), tracesync.work.dir. Arguments (optional):
 * hosts (8), seconds of traffic (60), runs (5).
 */
public final class SyncBenchmark {
  private SyncBenchmark() {}

  public static void main(String[] args) throws Exception {
    int hosts = args.length > 0 ? Integer.parseInt(args[0]) : 8;
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 60;
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    String cli = System.getProperty("tracesync.cli", "build/bin/tracesync");
    Path work = Path.of(System.getProperty("tracesync.work.dir", System.getProperty("java.io.tmpdir")));
    Path experiment = work.resolve("sync-benchmark-experiment");
    Files.createDirectories(work);
    command(cli, "simulate", "--quiet", "--overwrite", "--output", experiment.toString(), "--hosts",
        Integer.toString(hosts), "--topology", "random", "--duration", seconds + "s");

    long[] viaCli = new long[runs];
    long[] viaJava = new long[runs];
    long events = 0;
    for (int r = 0; r < runs; r++) {
      long start = System.nanoTime();
      command(cli, "sync", experiment.toString(), "--format", "protobuf", "--output", "/dev/null");
      viaCli[r] = System.nanoTime() - start;

      start = System.nanoTime();
      try (TraceSync sync = TraceSync.open(Options.defaults())) {
        sync.addTrace(experiment);
        sync.run(null);
        Snapshot s = sync.snapshot();
        events = s.getTracesList().stream().mapToLong(t -> t.getEvents()).sum();
      }
      viaJava[r] = System.nanoTime() - start;
    }
    System.out.printf("experiment: %d hosts, %d s of traffic, %d events; median of %d runs each, alternating%n",
        hosts, seconds, events, runs);
    System.out.printf("CLI (process included): %.3f s; Java (open + addTrace + run + snapshot): %.3f s; "
        + "Java / CLI = %.3f%n", Medians.medianSeconds(viaCli), Medians.medianSeconds(viaJava),
        Medians.medianSeconds(viaJava) / Medians.medianSeconds(viaCli));
  }

  private static void command(String... argv) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
    byte[] output = p.getInputStream().readAllBytes();
    if (p.waitFor() != 0) {
      throw new IOException(String.join(" ", argv) + " failed: " + new String(output));
    }
  }
}
