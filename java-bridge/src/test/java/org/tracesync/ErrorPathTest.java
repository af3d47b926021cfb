// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.proto.Problem;
import org.tracesync.proto.Snapshot;

/** Every way a call can go wrong ends in a Java exception that says what happened. */
class ErrorPathTest {
  @TempDir Path temporary;

  private static void assertMessageContains(Throwable e, String part) {
    assertTrue(
        e.getMessage() != null && e.getMessage().contains(part),
        "message '" + e.getMessage() + "' should contain '" + part + "'");
  }

  @Test
  void aMissingTraceIsAnIOExceptionNamingIt() {
    Path missing = temporary.resolve("no-such-trace");
    try (TraceSync sync = TraceSync.open(Options.defaults())) {
      IOException e = assertThrows(IOException.class, () -> sync.addTrace(missing));
      assertMessageContains(e, missing.toString());
      assertMessageContains(e, "does not exist");
      // The session is still usable.
      sync.addMatch("A", 0, "B", 1);
      assertEquals(1, sync.snapshot().getMessages());
    }
  }

  @Test
  void aFolderWithoutTracesIsAnIOExceptionNamingIt() throws Exception {
    Path empty = Files.createDirectory(temporary.resolve("empty"));
    try (TraceSync sync = TraceSync.open(Options.defaults())) {
      sync.addMatch("A", 0, "B", 1);
      // Refused when added, or skipped by the run: an IOException either way.
      IOException e =
          assertThrows(
              IOException.class,
              () -> {
                sync.addTrace(empty);
                sync.run(null);
              });
      assertMessageContains(e, empty.toString());
      // What was given besides is kept.
      Snapshot snapshot = sync.snapshot();
      assertEquals(1, snapshot.getMessages());
    }
  }

  /**
   * Zeroed bytes at the end of a stream make its last events run past their packet: babeltrace2
   * records an error yet may report the stream as ended, and any babeltrace2 call made with that
   * error pending aborts the process, here the JVM (the traces are read in it: readInProcess).
   * The trace must instead fail alone, with the other host and what came before the damage kept.
   */
  @Test
  void aStreamDamagedAtItsEndFailsOnlyItsTrace() throws Exception {
    Path generated = temporary.resolve("generated");
    Process simulate =
        new ProcessBuilder(
                TestEnvironment.cli().toString(), "simulate", "-q", "-o", generated.toString(),
                "--hosts", "2", "--duration", "1s", "--cpus", "1", "--seed", "4")
            .redirectErrorStream(true)
            .start();
    String output = new String(simulate.getInputStream().readAllBytes());
    assertEquals(0, simulate.waitFor(), output);
    int damaged = 0;
    for (int tail : new int[] {24, 32, 48, 96}) {
      Path experiment = temporary.resolve("zeroed-" + tail);
      copyTree(generated, experiment);
      Path stream = experiment.resolve("host0/kernel/channel0_0");
      byte[] bytes = Files.readAllBytes(stream);
      java.util.Arrays.fill(bytes, bytes.length - tail, bytes.length, (byte) 0);
      Files.write(stream, bytes);
      try (TraceSync sync = TraceSync.open(Options.builder().readInProcess().build())) {
        sync.addTrace(experiment);
        sync.run(null); // a trace read in part is not skipped: its problem is in the snapshot
        Snapshot snapshot = sync.snapshot();
        assertEquals(2, snapshot.getTracesCount());
        if (snapshot.getProblemsCount() == 0) {
          continue; // the zeros happened to decode
        }
        damaged++;
        assertEquals(1, snapshot.getProblemsCount());
        Problem problem = snapshot.getProblems(0);
        assertEquals(experiment.resolve("host0/kernel").toString(), problem.getSource());
        assertTrue(problem.getMessage().startsWith("reading stopped after"), problem.getMessage());
        assertFalse(problem.getSkipped());
        assertTrue(snapshot.getMessages() > 0, "the messages before the damage are kept");
      }
    }
    assertTrue(damaged > 0, "no zeroed tail made a stream fail: the case under test did not occur");
  }

  private Path simulate(String name, String... arguments) throws Exception {
    Path experiment = temporary.resolve(name);
    java.util.List<String> command =
        new java.util.ArrayList<>(
            java.util.List.of(
                TestEnvironment.cli().toString(), "simulate", "-q", "-o", experiment.toString()));
    command.addAll(java.util.List.of(arguments));
    Process simulate = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(simulate.getInputStream().readAllBytes());
    assertEquals(0, simulate.waitFor(), output);
    return experiment;
  }

  /** babeltrace2 in reading processes: the cases below are babeltrace2's own aborts and loops. */
  private static Options babeltrace2InReadingProcesses() {
    return Options.builder().readingProgram(TestEnvironment.cli()).reader("babeltrace2").build();
  }

  /**
   * Garbage in a packet's context makes babeltrace2 2.0 fail an assertion and abort: in this JVM,
   * the JVM would die. Read by a reading process, the trace is skipped with babeltrace2's words and
   * the other hosts are synchronized.
   */
  @Test
  void aTraceBabeltrace2AbortsOnIsSkippedWhenReadInAReadingProcess() throws Exception {
    Path generated =
        simulate("generated", "--hosts", "3", "--topology", "star", "--duration", "1s", "--rate", "50",
            "--cpus", "1");
    byte[] garbage = {
      0x5b, 0x62, (byte) 0x90, 0x6a, (byte) 0xff, (byte) 0x8f, 0x1f, (byte) 0x83, (byte) 0xff,
      (byte) 0xf7, 0x11, (byte) 0xa0, 0x75, 0x2d, 0x46, 0x2e, 0x75, (byte) 0xb5, (byte) 0xe5, 0x6f,
      (byte) 0xb7
    };
    int aborted = 0;
    for (int run = 0; run < 14; run++) {
      int at = 24 + 4 * (run % 7);
      // An explicit reading program, then the default (the one beside the library).
      Options options =
          run < 7 ? babeltrace2InReadingProcesses() : Options.builder().reader("babeltrace2").build();
      Path experiment = temporary.resolve("garbage-" + run);
      copyTree(generated, experiment);
      Path stream = experiment.resolve("host1/kernel/channel0_0");
      byte[] clean = Files.readAllBytes(stream);
      byte[] damaged = new byte[clean.length + garbage.length];
      System.arraycopy(clean, 0, damaged, 0, at);
      System.arraycopy(garbage, 0, damaged, at, garbage.length);
      System.arraycopy(clean, at, damaged, at + garbage.length, clean.length - at);
      Files.write(stream, damaged);
      try (TraceSync sync = TraceSync.open(options)) {
        sync.addTrace(experiment);
        try {
          sync.run(null);
        } catch (IOException skipped) {
          assertMessageContains(skipped, experiment.resolve("host1/kernel").toString());
        }
        Snapshot snapshot = sync.snapshot();
        boolean babeltrace2Aborted =
            snapshot.getProblemsList().stream()
                .anyMatch(p -> p.getMessage().contains("babeltrace2 aborted (SIGABRT)"));
        if (!babeltrace2Aborted) {
          continue;
        }
        aborted++;
        assertEquals(2, snapshot.getTracesCount(), "host0 and host2 are read");
        assertTrue(
            snapshot.getLinksList().stream()
                .anyMatch(l -> l.getQuality() == org.tracesync.proto.Quality.ACCURATE),
            "host0 and host2 are synchronized");
      }
    }
    assertTrue(aborted > 0, "no insertion made babeltrace2 abort: the case under test did not occur");
  }

  /**
   * LTTng index files for a simulated kernel trace, whose packets have a fixed layout (as
   * tests/e2e/live_folder_replay_test.py writes them): a followed folder's packets are read once
   * their index entry is there.
   */
  private static void writeLttngIndex(Path trace) throws IOException {
    Files.createDirectories(trace.resolve("index"));
    try (java.util.stream.Stream<Path> files = Files.list(trace)) {
      for (Path stream : files.filter(p -> p.getFileName().toString().startsWith("channel")).toList()) {
        java.nio.ByteBuffer data =
            java.nio.ByteBuffer.wrap(Files.readAllBytes(stream)).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        java.io.ByteArrayOutputStream index = new java.io.ByteArrayOutputStream();
        java.nio.ByteBuffer header = java.nio.ByteBuffer.allocate(16).putInt(0xC1F1DCC1).putInt(1).putInt(1).putInt(72);
        index.write(header.array());
        for (int at = 0; at < data.capacity(); ) {
          long bits = data.getLong(at + 36);
          java.nio.ByteBuffer entry = java.nio.ByteBuffer.allocate(72); // big-endian
          entry.putLong(at).putLong(bits).putLong(data.getLong(at + 44)).putLong(data.getLong(at + 52));
          entry.putLong(data.getLong(at + 60)).putLong(data.getLong(at + 68)).putLong(data.getLong(at + 20));
          entry.putLong(data.getLong(at + 28)).putLong(data.getLong(at + 76));
          index.write(entry.array());
          at += (int) (bits / 8);
        }
        Files.write(trace.resolve("index").resolve(stream.getFileName() + ".idx"), index.toByteArray());
      }
    }
  }

  /**
   * Following folders, one of whose streams makes babeltrace2 abort (garbage over its packet's
   * sizes): each followed source is read in a reading process of its own, so the JVM survives, the
   * folder is named as lost with babeltrace2's words, and the others are followed to their end and
   * synchronized. With the reading program given, then with the default (the one beside the
   * library, which following used to ignore).
   */
  @Test
  void aFollowedFolderBabeltrace2AbortsOnIsLostAndTheOthersAreFollowed() throws Exception {
    Path generated =
        simulate("followed", "--hosts", "3", "--topology", "star", "--duration", "3s", "--rate", "50",
            "--cpus", "1", "--seed", "4");
    java.util.List<String> folders = new java.util.ArrayList<>();
    for (String host : new String[] {"host0", "host1", "host2"}) {
      writeLttngIndex(generated.resolve(host).resolve("kernel"));
      folders.add(generated.resolve(host).resolve("kernel").toString());
    }
    Path stream = generated.resolve("host1/kernel/channel0_0");
    byte[] bytes = Files.readAllBytes(stream);
    byte[] garbage = {
      0x5b, 0x62, (byte) 0x90, 0x6a, (byte) 0xff, (byte) 0x8f, 0x1f, (byte) 0x83, (byte) 0xff,
      (byte) 0xf7, 0x11, (byte) 0xa0, 0x75, 0x2d, 0x46, 0x2e, 0x75, (byte) 0xb5, (byte) 0xe5, 0x6f,
      (byte) 0xb7
    };
    System.arraycopy(garbage, 0, bytes, 36, garbage.length); // the first packet's sizes
    Files.write(stream, bytes);
    for (Options options :
        new Options[] {babeltrace2InReadingProcesses(), Options.builder().reader("babeltrace2").build()}) {
      try (TraceSync live = TraceSync.open(options)) {
        Snapshot last =
            live.follow(
                folders, java.time.Duration.ofMillis(100), java.time.Duration.ofSeconds(1),
                java.time.Duration.ZERO, result -> {});
        assertEquals(1, last.getProblemsCount(), last.getProblemsList().toString());
        Problem problem = last.getProblems(0);
        assertEquals(folders.get(1), problem.getSource());
        assertMessageContains(new Exception(problem.getMessage()), "babeltrace2 aborted (SIGABRT)");
        assertEquals(2, last.getTracesCount(), "host0 and host2 are followed to their end");
        assertTrue(
            last.getLinksList().stream()
                .anyMatch(l -> l.getQuality() == org.tracesync.proto.Quality.ACCURATE),
            "host0 and host2 are synchronized");
        assertFalse(last.getOptions().getReadingProgram().isEmpty(), "read by the reading program");
      }
    }
  }

  /** Two hosts; host1's first packet says its sizes are 0, which babeltrace2 2.0.4 indexes forever. */
  private Path twoHostsBabeltrace2LoopsOnTheSecond(String name) throws Exception {
    Path experiment = simulate(name, "--hosts", "2", "--duration", "1s", "--cpus", "1");
    Path stream = experiment.resolve("host1/kernel/channel0_0");
    byte[] bytes = Files.readAllBytes(stream);
    java.util.Arrays.fill(bytes, 36, 52, (byte) 0); // packet_size and content_size
    Files.write(stream, bytes);
    return experiment;
  }

  /**
   * A first packet whose sizes are 0 makes babeltrace2 2.0.4 index it forever. Read in a reading
   * process, a listener returning false ends the run: the process is killed, and the snapshot holds
   * what was read.
   */
  @Test
  void aRunStuckOnATraceBabeltrace2LoopsOnCanBeCancelled() throws Exception {
    Path experiment = twoHostsBabeltrace2LoopsOnTheSecond("looping");
    long started = System.nanoTime();
    try (TraceSync sync = TraceSync.open(babeltrace2InReadingProcesses())) {
      sync.addTrace(experiment);
      assertTimeoutPreemptively(
          java.time.Duration.ofSeconds(20),
          () ->
              sync.run(
                  (done, total, tracesDone, tracesTotal) ->
                      System.nanoTime() - started < 1_000_000_000L));
      Snapshot snapshot = sync.snapshot();
      assertEquals(1, snapshot.getTracesCount());
      assertEquals("host0", snapshot.getTraces(0).getHostname());
      // host0 was read in full; the trace that never opened leaves its extent alone.
      assertTrue(snapshot.getTraces(0).getEvents() > 0, snapshot.getTraces(0).toString());
      assertTrue(
          snapshot.getTraces(0).getLastNs() > snapshot.getTraces(0).getFirstNs(),
          snapshot.getTraces(0).toString());
      assertTrue(
          snapshot.getProblemsList().stream().anyMatch(p -> p.getMessage().contains("cancelled")),
          snapshot.getProblemsList().toString());
    }
  }

  /**
   * A listener returning false on its first report, while the only trace is still opening (here
   * babeltrace2 loops on it): the run ends, the JVM lives, and the snapshot holds no trace and says
   * why.
   */
  @Test
  void aListenerReturningFalseBeforeAnyTraceOpensCancelsTheRun() throws Exception {
    Path experiment = twoHostsBabeltrace2LoopsOnTheSecond("looping-alone");
    try (var paths = Files.walk(experiment.resolve("host0"))) {
      for (Path path : (Iterable<Path>) paths.sorted(java.util.Comparator.reverseOrder())::iterator) {
        Files.delete(path);
      }
    }
    AtomicInteger calls = new AtomicInteger();
    try (TraceSync sync = TraceSync.open(babeltrace2InReadingProcesses())) {
      sync.addTrace(experiment);
      assertTimeoutPreemptively(
          java.time.Duration.ofSeconds(20),
          () ->
              sync.run(
                  (done, total, tracesDone, tracesTotal) -> {
                    calls.incrementAndGet();
                    return false;
                  }));
      assertEquals(1, calls.get());
      Snapshot snapshot = sync.snapshot();
      assertEquals(0, snapshot.getTracesCount());
      assertTrue(
          snapshot.getProblemsList().stream()
              .anyMatch(p -> p.getMessage().contains("1 trace was not opened yet")),
          snapshot.getProblemsList().toString());
    }
  }

  /** With an opening time limit, no cancel is needed: the trace is skipped, the rest kept. */
  @Test
  void anOpeningTimeLimitSkipsATraceBabeltrace2LoopsOn() throws Exception {
    Path experiment = twoHostsBabeltrace2LoopsOnTheSecond("looping-limited");
    Options options =
        Options.builder().openTimeout(java.time.Duration.ofMillis(800)).reader("babeltrace2").build();
    try (TraceSync sync = TraceSync.open(options)) {
      sync.addTrace(experiment);
      IOException skipped =
          assertTimeoutPreemptively(
              java.time.Duration.ofSeconds(20), () -> assertThrows(IOException.class, () -> sync.run(null)));
      assertMessageContains(skipped, "babeltrace2 was still opening it after 0.8 s");
      Snapshot snapshot = sync.snapshot();
      assertEquals(1, snapshot.getTracesCount());
      assertEquals("host0", snapshot.getTraces(0).getHostname());
    }
    assertMessageContains(
        assertThrows(
            IllegalArgumentException.class,
            () ->
                TraceSync.open(
                        Options.builder()
                            .readInProcess()
                            .openTimeout(java.time.Duration.ofSeconds(1))
                            .build())
                    .close()),
        "an opening time limit needs traces read in processes of their own");
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (var paths = Files.walk(from)) {
      for (Path path : (Iterable<Path>) paths::iterator) {
        Files.copy(path, to.resolve(from.relativize(path).toString()));
      }
    }
  }

  @Test
  void aClosedSessionIsAnIllegalStateException() {
    TraceSync sync = TraceSync.open(Options.defaults());
    sync.close();
    assertThrows(IllegalStateException.class, () -> sync.addMatch("A", 0, "B", 1));
    assertThrows(IllegalStateException.class, () -> sync.addTrace(temporary));
    assertThrows(IllegalStateException.class, () -> sync.run(null));
    assertThrows(IllegalStateException.class, sync::snapshot);
    assertDoesNotThrow(sync::close); // idempotent
  }

  @Test
  void nullArgumentsAreNamed() {
    try (TraceSync sync = TraceSync.open(Options.defaults())) {
      assertEquals("sender", assertThrows(NullPointerException.class, () -> sync.addMatch(null, 0, "B", 1)).getMessage());
      assertEquals("receiver", assertThrows(NullPointerException.class, () -> sync.addMatch("A", 0, null, 1)).getMessage());
      assertEquals("traceDirectory", assertThrows(NullPointerException.class, () -> sync.addTrace(null)).getMessage());
      assertDoesNotThrow(() -> sync.run(null)); // a null listener is allowed
    }
  }

  @Test
  void theNativeSideRefusesNullsToo() {
    try (TraceSync sync = TraceSync.open(Options.defaults())) {
      long handle = handleOf(sync);
      assertMessageContains(
          assertThrows(NullPointerException.class, () -> NativeBridge.addMatch(handle, null, 0, "B", 1)),
          "the sender must not be null");
      assertMessageContains(
          assertThrows(NullPointerException.class, () -> NativeBridge.addMatch(handle, "A", 0, null, 1)),
          "the receiver must not be null");
      assertMessageContains(
          assertThrows(NullPointerException.class, () -> NativeBridge.addTracePath(handle, null)),
          "the trace path must not be null");
      assertMessageContains(
          assertThrows(IllegalArgumentException.class, () -> NativeBridge.addTracePath(handle, "/tmp\0/x")),
          "NUL");
    }
    assertMessageContains(
        assertThrows(NullPointerException.class, () -> NativeBridge.open(null)), "the engine options must not be null");
    assertMessageContains(
        assertThrows(IllegalArgumentException.class, () -> NativeBridge.open(new byte[] {(byte) 0xff, 1, 2})),
        "not a serialized tracesync.v1.EngineOptions");
  }

  @Test
  void aListenerThatThrowsCancelsTheRunAndItsExceptionReachesTheCaller() {
    IllegalStateException thrown = new IllegalStateException("the listener gives up");
    try (TraceSync sync = TraceSync.open(Options.defaults())) {
      sync.addMatch("A", 0, "B", 1);
      IllegalStateException caught =
          assertThrows(
              IllegalStateException.class,
              () ->
                  sync.run(
                      (bytesDone, bytesTotal, tracesDone, tracesTotal) -> {
                        throw thrown;
                      }));
      assertTrue(caught == thrown, "the listener's own exception, not a copy: " + caught);
      // The session stays usable.
      assertEquals(1, sync.snapshot().getMessages());
      assertDoesNotThrow(() -> sync.run(null));
    }
  }

  @Test
  void aListenerThatThrowsAnErrorPassesItOn() {
    try (TraceSync sync = TraceSync.open(Options.defaults())) {
      AssertionError error =
          assertThrows(
              AssertionError.class,
              () -> sync.run((bd, bt, td, tt) -> { throw new AssertionError("from the listener"); }));
      assertEquals("from the listener", error.getMessage());
    }
  }

  @Test
  void aListenerThatReturnsFalseCancelsTheRunQuietly() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    try (TraceSync sync = TraceSync.open(Options.defaults())) {
      sync.addMatch("A", 0, "B", 1);
      sync.run(
          (bytesDone, bytesTotal, tracesDone, tracesTotal) -> {
            calls.incrementAndGet();
            assertTrue(bytesDone <= bytesTotal && tracesDone <= tracesTotal);
            return false;
          });
      // Cancelled after the first report, and what was given is kept.
      assertEquals(1, calls.get());
      assertEquals(1, sync.snapshot().getMessages());
    }
  }

  @Test
  void aListenerCannotCallItsOwnSession() {
    try (TraceSync sync = TraceSync.open(Options.defaults())) {
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class,
              () ->
                  sync.run(
                      (bd, bt, td, tt) -> {
                        sync.snapshot(); // would wait for itself
                        return true;
                      }));
      assertMessageContains(e, "from within its own call");
      assertEquals(0, sync.snapshot().getMessages());
    }
  }

  @Test
  void aListenerMayCloseItsOwnSession() {
    TraceSync sync = TraceSync.open(Options.defaults());
    sync.addMatch("A", 0, "B", 1);
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                sync.run(
                    (bd, bt, td, tt) -> {
                      sync.close();
                      return true;
                    }));
    assertMessageContains(e, "closed while it was running");
    assertThrows(IllegalStateException.class, sync::snapshot);
    assertDoesNotThrow(sync::close);
  }

  @Test
  void aListenerMayUseAnotherSession() throws Exception {
    try (TraceSync outer = TraceSync.open(Options.defaults());
        TraceSync inner = TraceSync.open(Options.defaults())) {
      outer.run(
          (bd, bt, td, tt) -> {
            inner.addMatch("X", 1, "Y", 2);
            return true;
          });
      assertEquals(1, inner.snapshot().getMessages());
    }
  }

  @Test
  void textSurvivesTheCrossingWhateverItHolds() {
    String emoji = "h\u00f4te-\uD83D\uDE80";
    String withNul = "a\0b";
    String unpaired = "x\uD800y";
    try (TraceSync sync = TraceSync.open(Options.defaults())) {
      sync.addMatch(emoji, 0, withNul, 1);
      sync.addMatch(unpaired, 0, withNul, 1);
      Snapshot snapshot = sync.snapshot();
      assertEquals(3, snapshot.getTracesCount());
      assertTrue(snapshot.getTracesList().stream().anyMatch(t -> t.getName().equals(emoji)));
      assertTrue(snapshot.getTracesList().stream().anyMatch(t -> t.getName().equals(withNul)));
      // An unpaired surrogate is not text: it becomes U+FFFD.
      assertTrue(snapshot.getTracesList().stream().anyMatch(t -> t.getName().equals("x\uFFFDy")));
      assertFalse(snapshot.getTracesList().stream().anyMatch(t -> t.getName().equals(unpaired)));
    }
  }

  /** The handle of an open session, for the tests that call NativeBridge directly. */
  static long handleOf(TraceSync sync) {
    try {
      java.lang.reflect.Field field = TraceSync.class.getDeclaredField("handle");
      field.setAccessible(true);
      return field.getLong(sync);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }
}
