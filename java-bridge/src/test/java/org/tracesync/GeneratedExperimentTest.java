// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.proto.Quality;
import org.tracesync.proto.Snapshot;
import org.tracesync.proto.Trace;

/** A generated experiment through Java, against the CLI and against the clocks it was made with. */
class GeneratedExperimentTest {
  @TempDir Path temporary;

  private static final GeneratedExperiment EXPERIMENT =
      new GeneratedExperiment(40, 30, 12, 60_000_000_000L, 2024);

  private static Snapshot throughJava(GeneratedExperiment experiment) throws Exception {
    try (TraceSync sync = TraceSync.open(Options.defaults())) {
      experiment.feed(sync);
      sync.run(null);
      return sync.snapshot();
    }
  }

  @Test
  void javaAndTheCliReportTheSameSnapshot() throws Exception {
    Path matches = temporary.resolve("matches.txt");
    Path report = temporary.resolve("report.pb");
    EXPERIMENT.write(matches);
    Process cli =
        new ProcessBuilder(
                TestEnvironment.cli().toString(), "sync", "--matches", matches.toString(),
                "--format", "protobuf", "-o", report.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(cli.getInputStream().readAllBytes());
    assertTrue(cli.waitFor(120, TimeUnit.SECONDS));
    assertEquals(0, cli.exitValue(), output);

    Snapshot fromCli = Snapshot.parseFrom(Files.readAllBytes(report));
    Snapshot fromJava = throughJava(EXPERIMENT);
    assertEquals(fromCli, fromJava);
  }

  @Test
  void everyTransformFindsTheTrueClockWithinItsUncertainty() throws Exception {
    Snapshot snapshot = throughJava(EXPERIMENT);
    assertEquals(1, snapshot.getIslandsCount());
    assertEquals(EXPERIMENT.hosts, snapshot.getTracesCount());
    assertTrue(snapshot.getLinksList().stream().allMatch(l -> l.getQuality() == Quality.ACCURATE));
    int reference = Integer.parseInt(snapshot.getIslands(0).getReference().substring(4));

    for (Trace trace : snapshot.getTracesList()) {
      int host = Integer.parseInt(trace.getName().substring(4));
      LinearTransform toReference = LinearTransform.of(trace);
      for (long c = trace.getFirstNs(); c <= trace.getLastNs(); c += (trace.getLastNs() - trace.getFirstNs()) / 8) {
        // Where the reference's clock truly was when this host's clock read c.
        double t = EXPERIMENT.trueTime(host, c);
        BigDecimal truth = BigDecimal.valueOf(EXPERIMENT.clock(reference, Math.round(t)));
        double error = toReference.applyExact(c).subtract(truth).abs().doubleValue();
        // 1 ns for rounding the true time; the engine's bound otherwise.
        assertTrue(
            error <= trace.getUncertaintyNs() + 1.0,
            trace.getName() + " at " + c + ": " + error + " ns off, uncertainty " + trace.getUncertaintyNs());
      }
    }
  }
}
