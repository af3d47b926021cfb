// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.proto.EngineOptions;
import org.tracesync.proto.Island;
import org.tracesync.proto.Snapshot;

class OptionsTest {
  private static Options everyOption() {
    return Options.builder()
        .algorithm("window-replace")
        .window(Duration.ofMillis(1500))
        .confidence(95)
        .network("baseline")
        .reference("B")
        .reference("D")
        .matchKey("strict")
        .matchHorizon(Duration.ofMinutes(2))
        .jobs(3)
        .domainOverride("/traces/kernel", "host-1")
        .domainOverride("/traces/ust", "host-1")
        .openTimeout(Duration.ofMinutes(5))
        .messages("send=tsapp:msg_send,recv=tsapp:msg_recv,key=msg_id")
        .messages("name=rpc,send=rpc:out,recv=rpc:in,key=conn+seq")
        .reader("babeltrace2")
        .build();
  }

  @Test
  void everyOptionReachesTheProto() {
    EngineOptions proto = everyOption().toProto();
    assertEquals("window-replace", proto.getAlgorithm());
    assertEquals(1_500_000_000L, proto.getWindowNs());
    assertEquals(0.95, proto.getConfidence());
    assertEquals("baseline", proto.getNetwork());
    assertEquals(List.of("B", "D"), proto.getForcedReferencesList());
    assertEquals("strict", proto.getMatchKey());
    assertEquals(120_000_000_000L, proto.getMatchHorizonNs());
    assertEquals(3, proto.getJobs());
    assertEquals(
        Map.of("/traces/kernel", "host-1", "/traces/ust", "host-1"), proto.getDomainOverridesMap());
    assertEquals(300_000_000_000L, proto.getOpenTimeoutNs());
    assertEquals(2, proto.getMessageKindsCount());
    assertEquals("name=rpc,send=rpc:out,recv=rpc:in,key=conn+seq", proto.getMessageKinds(1).getSpec());
    assertEquals("babeltrace2", proto.getReader());
    assertTrue(Options.builder().readInProcess().build().toProto().getInProcess());
  }

  @Test
  void optionsSurviveSerialization() throws Exception {
    Options options = everyOption();
    Options back = Options.fromProto(EngineOptions.parseFrom(options.toProto().toByteArray()));
    assertEquals(options, back);
    assertEquals(options.hashCode(), back.hashCode());
  }

  @Test
  void defaultsAreEmptyAndTheEngineFillsThemIn() {
    assertEquals(EngineOptions.getDefaultInstance(), Options.defaults().toProto());
    try (TraceSync sync = TraceSync.open(Options.defaults())) {
      EngineOptions used = sync.snapshot().getOptions();
      assertEquals("hull", used.getAlgorithm());
      assertEquals(3_000_000_000L, used.getWindowNs());
      assertEquals(0.90, used.getConfidence());
      assertEquals("incremental", used.getNetwork());
      assertEquals(100.0, used.getClockStabilityPpm());
    }
  }

  @Test
  void aClockStabilityOfZeroTakesTheClocksToBeLinear() {
    try (TraceSync sync = TraceSync.open(Options.builder().clockStabilityPpm(0).build())) {
      EngineOptions used = sync.snapshot().getOptions();
      assertTrue(used.hasClockStabilityPpm());
      assertEquals(0.0, used.getClockStabilityPpm());
    }
    try (TraceSync sync = TraceSync.open(Options.builder().clockStabilityPpm(12.5).build())) {
      assertEquals(12.5, sync.snapshot().getOptions().getClockStabilityPpm());
    }
  }

  @Test
  void theEngineReportsTheOptionsItWasOpenedWith() {
    Options options =
        Options.builder()
            .algorithm("linreg")
            .window(Duration.ofSeconds(7))
            .confidence(99)
            .network("baseline")
            .reference("B")
            .build();
    try (TraceSync sync = TraceSync.open(options)) {
      sync.addMatch("A", 0, "B", 10);
      Snapshot snapshot = sync.snapshot();
      EngineOptions used = snapshot.getOptions();
      assertEquals("linreg", used.getAlgorithm());
      assertEquals(7_000_000_000L, used.getWindowNs());
      assertEquals(0.99, used.getConfidence());
      assertEquals("baseline", used.getNetwork());
      assertEquals(List.of("B"), used.getForcedReferencesList());
      // Whatever the links, B's island has B for reference, because it was forced.
      Island island =
          snapshot.getIslandsList().stream()
              .filter(i -> i.getDomainsList().contains("B"))
              .findFirst()
              .orElseThrow();
      assertEquals("B", island.getReference());
      assertTrue(island.getForced());
    }
  }

  private static void assertRejected(Options options, String expectedMessagePart) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> TraceSync.open(options).close());
    assertTrue(
        e.getMessage().contains(expectedMessagePart),
        "message '" + e.getMessage() + "' should contain '" + expectedMessagePart + "'");
  }

  @Test
  void theEngineRejectsBadOptionsWithItsMessage() {
    assertRejected(
        Options.builder().algorithm("magic").build(),
        "unknown algorithm 'magic' (choose one of: hull, linreg,");
    assertRejected(
        Options.builder().window(Duration.ofSeconds(-1)).build(), "the window length must be positive");
    assertRejected(
        Options.builder().confidence(42).build(), "the confidence level must be 90, 95 or 99");
    assertRejected(
        Options.builder().network("mesh").build(),
        "the network must be 'incremental' or 'baseline', not 'mesh'");
    assertRejected(
        Options.builder().matchKey("loose").build(), "the match key must be 'tc' or 'strict'");
    assertRejected(
        Options.builder().matchHorizon(Duration.ofNanos(-5)).build(),
        "the match horizon must be positive");
    assertRejected(Options.builder().reference("").build(), "--reference needs a domain id");
    assertRejected(
        Options.builder().messages("send=a:b,recv=a:c").build(),
        "the message spec 'send=a:b,recv=a:c' names no key field");
    assertRejected(
        Options.builder().messagesFile(Path.of("/nonexistent/kinds.txt")).build(),
        "cannot read the message specs file '/nonexistent/kinds.txt'");
    assertRejected(
        Options.builder().simultaneous("event=gps:pps,jitter=2").build(),
        "the signal spec 'event=gps:pps,jitter=2' has jitter='2', not a duration");
    assertRejected(
        Options.builder().simultaneousFile(Path.of("/nonexistent/signals.txt")).build(),
        "cannot read the signal specs file '/nonexistent/signals.txt'");
    assertRejected(
        Options.builder().simultaneous("event=net_dev_queue,jitter=1us").build(),
        "a kernel network event tracesync reads as TCP already");
  }

  /**
   * Simultaneous signals and the probe's port through the Java API, as {@code sync --simultaneous}
   * and {@code --probe-port}: two simulated hosts that exchange nothing but a pulse every second
   * and tracesync probe's bursts (on port 7300) are synchronized, and the snapshot says what the
   * link rests on.
   */
  @Test
  void signalsAndTheProbePortReachTheEngine(@TempDir Path temporary) throws Exception {
    Path experiment = temporary.resolve("experiment");
    Process simulate =
        new ProcessBuilder(
                TestEnvironment.cli().toString(), "simulate", "-q", "-o", experiment.toString(),
                "--hosts", "2", "--duration", "30s", "--rate", "0", "--probe-rounds", "5",
                "--signal-rate", "1", "--signal-jitter", "1", "--loss", "0", "--retransmit", "0")
            .redirectErrorStream(true)
            .start();
    String output = new String(simulate.getInputStream().readAllBytes());
    assertEquals(0, simulate.waitFor(), output);
    Path signals = Files.writeString(temporary.resolve("signals.txt"),
        "# the simulated PPS line\nname=pps,event=irq_handler_entry,filter=irq==199,jitter=1us\n");
    try (TraceSync sync =
        TraceSync.open(
            Options.builder()
                .readingProgram(TestEnvironment.cli())
                .simultaneousFile(signals)
                .probePort(7300)
                .build())) {
      sync.addTrace(experiment);
      sync.run(null);
      Snapshot snapshot = sync.snapshot();
      assertEquals(List.of(7300), snapshot.getOptions().getProbePortsList());
      assertEquals(1, snapshot.getLinksCount());
      org.tracesync.proto.Link link = snapshot.getLinks(0);
      assertEquals(1, link.getSignalsCount(), link.toString());
      assertEquals("pps", link.getSignals(0).getName());
      assertEquals("messages", link.getSignals(0).getAlignedBy());
      assertTrue(link.getSignals(0).getPairs() >= 25, link.getSignals(0).toString());
      org.tracesync.proto.LinkDetail detail =
          org.tracesync.proto.LinkDetail.parseFrom(link.getDetail());
      // A handshake and two bursts of 5 round trips, all on port 7300.
      assertEquals(23, detail.getMatching().getProbeMatches());
    }
    assertThrows(IllegalArgumentException.class, () -> Options.builder().probePort(0));
    assertThrows(IllegalArgumentException.class, () -> Options.builder().probePort(65536));
  }

  @Test
  void messageSpecsReachTheEngineAndItsSnapshot() {
    try (TraceSync sync =
        TraceSync.open(
            Options.builder()
                .messages("send=tsapp:msg_send,recv=tsapp:msg_recv,key=msg_id")
                .messages("name=rpc,send=rpc:out,recv=rpc:in,key=conn+context.vtid")
                .build())) {
      EngineOptions reported = sync.snapshot().getOptions();
      assertEquals(2, reported.getMessageKindsCount());
      assertEquals("tsapp:msg_send", reported.getMessageKinds(0).getName());
      assertEquals(1, reported.getMessageKinds(0).getKind());
      assertEquals("rpc", reported.getMessageKinds(1).getName());
      assertEquals(List.of("conn", "context.vtid"), reported.getMessageKinds(1).getKeyList());
    }
  }

  @Test
  void theBuilderRejectsWhatTheProtoCannotSay() {
    assertThrows(IllegalArgumentException.class, () -> Options.builder().jobs(-1));
    IllegalArgumentException tooLong =
        assertThrows(
            IllegalArgumentException.class,
            () -> Options.builder().matchHorizon(Duration.ofDays(365L * 1000)));
    assertTrue(tooLong.getMessage().contains("does not fit in 64-bit nanoseconds"));
  }

  @Test
  void nullsAreRefusedWithTheirName() {
    Options.Builder builder = Options.builder();
    assertEquals("algorithm", assertThrows(NullPointerException.class, () -> builder.algorithm(null)).getMessage());
    assertEquals("window", assertThrows(NullPointerException.class, () -> builder.window(null)).getMessage());
    assertEquals("network", assertThrows(NullPointerException.class, () -> builder.network(null)).getMessage());
    assertEquals("reference", assertThrows(NullPointerException.class, () -> builder.reference(null)).getMessage());
    assertEquals("matchKey", assertThrows(NullPointerException.class, () -> builder.matchKey(null)).getMessage());
    assertEquals(
        "matchHorizon", assertThrows(NullPointerException.class, () -> builder.matchHorizon(null)).getMessage());
    assertEquals(
        "trace", assertThrows(NullPointerException.class, () -> builder.domainOverride(null, "d")).getMessage());
    assertEquals(
        "domain", assertThrows(NullPointerException.class, () -> builder.domainOverride("t", null)).getMessage());
    assertEquals("options", assertThrows(NullPointerException.class, () -> TraceSync.open(null)).getMessage());
    assertEquals(
        "tracesync", assertThrows(NullPointerException.class, () -> builder.readingProgram(null)).getMessage());
    assertEquals("messages", assertThrows(NullPointerException.class, () -> builder.messages(null)).getMessage());
    assertEquals(
        "messagesFile", assertThrows(NullPointerException.class, () -> builder.messagesFile(null)).getMessage());
    assertEquals(
        "simultaneous", assertThrows(NullPointerException.class, () -> builder.simultaneous(null)).getMessage());
    assertEquals(
        "simultaneousFile",
        assertThrows(NullPointerException.class, () -> builder.simultaneousFile(null)).getMessage());
  }

  @Test
  void aReadingProgramIsAnAbsolutePathTheEngineChecks(@TempDir Path temporary) throws Exception {
    Path relative = Path.of("bin", "..", "bin", "tracesync");
    assertEquals(
        relative.toAbsolutePath().normalize().toString(),
        Options.builder().readingProgram(relative).build().toProto().getReadingProgram());
    assertRejected(
        Options.builder().readingProgram(temporary.resolve("missing")).build(),
        "the reading program '" + temporary.resolve("missing") + "' is not an executable file");
    Path notExecutable = Files.writeString(temporary.resolve("text"), "not a program");
    assertRejected(Options.builder().readingProgram(notExecutable).build(), "is not an executable file");
    assertRejected(Options.builder().readingProgram(temporary).build(), "is not an executable file");
    try (TraceSync sync = TraceSync.open(Options.builder().readingProgram(TestEnvironment.cli()).build())) {
      sync.addMatch("A", 0, "B", 1);
      assertEquals(1, sync.snapshot().getMessages());
      assertEquals(
          TestEnvironment.cli().toRealPath().toString(), sync.snapshot().getOptions().getReadingProgram());
    }
    assertRejected(
        Options.builder().readingProgram(TestEnvironment.cli()).readInProcess().build(),
        "a reading program and reading in-process exclude each other");
  }

  /**
   * By default the engine reads traces with the tracesync command that came with its library (here
   * build/bin beside build/lib), so that a trace babeltrace2 aborts on cannot end the JVM.
   */
  @Test
  void byDefaultTracesAreReadByTheTracesyncBesideTheLibrary() throws Exception {
    try (TraceSync sync = TraceSync.open(Options.defaults())) {
      assertEquals(
          TestEnvironment.cli().toRealPath().toString(), sync.snapshot().getOptions().getReadingProgram());
    }
    try (TraceSync sync = TraceSync.open(Options.builder().readInProcess().build())) {
      assertEquals("", sync.snapshot().getOptions().getReadingProgram());
    }
  }

  @Test
  void theEngineRejectsAnUnknownReader() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> TraceSync.open(Options.builder().reader("fast").build()).close());
    assertTrue(e.getMessage().contains("'auto', 'scanner' or 'babeltrace2', not 'fast'"), e.getMessage());
  }
}
