// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.proto.Link;
import org.tracesync.proto.MatchingStatistics;
import org.tracesync.proto.Snapshot;

/**
 * The match horizon TraceSync.follow follows with: {@code tracesync live}'s 1 min by default (sync's is 10 min), or
 * the one given. On a simulated experiment (the command's {@code simulate}, given LTTng index files here) whose host1
 * is 30 s ahead of host0 and host2 70 s behind (100 s from host1), followed as finished folders: with 1 min the
 * messages recorded 30 s apart are matched and those 100 s apart counted at both ends, as {@code tracesync live} and
 * {@code sync --match-horizon 1min} do.
 */
class FollowMatchHorizonTest {
  private static final Duration ONE_MINUTE = Duration.ofMinutes(1);
  private static final Duration TEN_MINUTES = Duration.ofMinutes(10);

  @TempDir static Path work;
  private static List<String> traces;
  private static Snapshot syncOneMinute;
  private static Snapshot syncTenMinutes;

  @BeforeAll
  static void simulate() throws Exception {
    Path simulated = work.resolve("horizon");
    Process simulate = new ProcessBuilder(TestEnvironment.cli().toString(), "simulate", "--quiet", "--output",
        simulated.toString(), "--hosts", "3", "--seed", "29", "--duration", "20s", "--rate", "20", "--clock",
        "1:30000000000:0", "--clock", "2:-70000000000:0").inheritIO().start();
    assertTrue(simulate.waitFor(120, TimeUnit.SECONDS), "simulate did not end within 2 minutes");
    assertEquals(0, simulate.exitValue(), "simulate failed");
    try (Stream<Path> found = Files.walk(simulated)) {
      traces = found.filter(p -> p.getFileName().toString().equals("metadata")).map(Path::getParent).sorted()
          .map(Path::toString).collect(Collectors.toList());
    }
    assertEquals(3, traces.size(), "simulate wrote " + traces);
    for (String trace : traces) {
      writeLttngIndex(Path.of(trace));
    }
    syncOneMinute = sync(ONE_MINUTE);
    syncTenMinutes = sync(TEN_MINUTES);
  }

  private static Snapshot sync(Duration horizon) throws IOException {
    try (TraceSync sync = TraceSync.open(Options.builder().matchHorizon(horizon).build())) {
      for (String trace : traces) {
        sync.addTrace(Path.of(trace));
      }
      sync.run(null);
      return sync.snapshot();
    }
  }

  /**
   * Follows the finished folders with these options: each is read whole at once, then ended 300 ms later (nothing
   * new), as it would be after a longer quiet.
   */
  private static Snapshot follow(Options session, FollowOptions.Builder options) {
    try (TraceSync live = TraceSync.open(session)) {
      return live.follow(traces, options.interval(Duration.ofMillis(100)).quiet(Duration.ofMillis(300)).build(),
          result -> {});
    }
  }

  @Test
  void followsWithLivesHorizonByDefault() throws Exception {
    Snapshot followed = follow(Options.defaults(), FollowOptions.builder());
    assertEquals(ONE_MINUTE.toNanos(), followed.getOptions().getMatchHorizonNs());
    assertEquals(liveCommandsHorizon(), followed.getOptions().getMatchHorizonNs(),
        "the default is not tracesync live's");

    // host0 - host1 (30 s apart) matched as with 10 min; host2's messages (100 s from host1) not matched.
    Map<String, Long> all = messagesByLink(syncTenMinutes);
    long beyond = all.entrySet().stream().filter(e -> e.getKey().contains("host2")).mapToLong(Map.Entry::getValue)
        .sum();
    assertTrue(beyond > 0, "no message to or from host2: " + all);
    Map<String, Long> near = new TreeMap<>(all);
    near.keySet().removeIf(link -> link.contains("host2"));
    assertFalse(near.isEmpty());
    assertEquals(near, messagesByLink(followed), "the messages recorded 30 s apart are not all matched");
    // Each message beyond the horizon counted at both ends.
    assertEquals(oneEnded(syncTenMinutes.getMatching()) + 2 * beyond, oneEnded(followed.getMatching()));
    // The final result is sync's given the same horizon.
    assertEquals(syncOneMinute.getMatching(), followed.getMatching());
    assertEquals(LiveFollowTest.essence(syncOneMinute), LiveFollowTest.essence(followed));
  }

  @Test
  void aHorizonGivenToFollowIsTheOneItMatchesWith() {
    Snapshot followed = follow(Options.defaults(), FollowOptions.builder().matchHorizon(TEN_MINUTES));
    assertEquals(TEN_MINUTES.toNanos(), followed.getOptions().getMatchHorizonNs());
    assertEquals(messagesByLink(syncTenMinutes), messagesByLink(followed));
    assertEquals(syncTenMinutes.getMatching(), followed.getMatching());
    assertEquals(LiveFollowTest.essence(syncTenMinutes), LiveFollowTest.essence(followed));
    assertNotEquals(LiveFollowTest.essence(syncOneMinute), LiveFollowTest.essence(followed));
  }

  @Test
  void theSessionsHorizonIsFollowedWithWhenFollowGivesNone() {
    Snapshot followed = follow(Options.builder().matchHorizon(TEN_MINUTES).build(), FollowOptions.builder());
    assertEquals(TEN_MINUTES.toNanos(), followed.getOptions().getMatchHorizonNs());
    assertEquals(messagesByLink(syncTenMinutes), messagesByLink(followed));
  }

  @Test
  void aBadHorizonIsAnIllegalArgumentNamingIt() {
    try (TraceSync live = TraceSync.open(Options.defaults())) {
      IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () -> live.follow(traces,
          FollowOptions.builder().matchHorizon(Duration.ofNanos(-5)).build(), result -> {}));
      assertEquals("the match horizon to follow with must be positive, not -5 ns", negative.getMessage());
      IllegalArgumentException huge = assertThrows(IllegalArgumentException.class, () -> live.follow(traces,
          FollowOptions.builder().matchHorizon(Duration.ofDays(365L * 1000)).build(), result -> {}));
      assertTrue(huge.getMessage().startsWith("matchHorizon PT8760000H does not fit"), huge.getMessage());
      assertTrue(live.snapshot() != null, "the session is still usable");
    }
  }

  /** The JNI layer checks the horizon itself, whatever the Java side let through. */
  @Test
  void theNativeFollowRefusesANegativeHorizon() {
    try (TraceSync live = TraceSync.open(Options.defaults())) {
      long handle = ErrorPathTest.handleOf(live);
      IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class,
          () -> NativeBridge.follow(handle, traces.toArray(new String[0]), 100_000_000L, 1_000_000_000L, 0L,
              Long.MIN_VALUE, serialized -> {}));
      assertEquals("the match horizon to follow with must be positive, not " + Long.MIN_VALUE + " ns",
          thrown.getMessage());
    }
  }

  /** The match horizon of `tracesync live`'s final result on the same folders, given none. */
  private static long liveCommandsHorizon() throws Exception {
    List<String> command = new ArrayList<>(List.of(TestEnvironment.cli().toString(), "live", "--quiet", "300ms"));
    command.addAll(traces);
    Path out = work.resolve("live.jsonl");
    Process live = new ProcessBuilder(command).redirectOutput(out.toFile())
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    assertTrue(live.waitFor(120, TimeUnit.SECONDS), "tracesync live did not end within 2 minutes");
    List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).toList();
    assertFalse(lines.isEmpty(), "tracesync live printed no result (exit " + live.exitValue() + ")");
    Matcher horizon = Pattern.compile("\"match_horizon_ns\":\\s*\"?(\\d+)").matcher(lines.get(lines.size() - 1));
    assertTrue(horizon.find(), "no match_horizon_ns in live's final result");
    return Long.parseLong(horizon.group(1));
  }

  private static Map<String, Long> messagesByLink(Snapshot s) {
    Map<String, Long> out = new TreeMap<>();
    for (Link link : s.getLinksList()) {
      if (link.getMessages() > 0) out.put(link.getAHostname() + "-" + link.getBHostname(), link.getMessages());
    }
    return out;
  }

  private static long oneEnded(MatchingStatistics m) {
    return m.getExpired() + m.getUnmatchedSends() + m.getUnmatchedReceives();
  }

  /**
   * LTTng index files for a simulated kernel trace, whose packets have a fixed layout: header magic, uuid,
   * stream_id, stream_instance_id; context packet_size, content_size, timestamp_begin, timestamp_end,
   * events_discarded, packet_seq_num, cpu_id (little-endian). A folder is read by its index, as LTTng writes it.
   */
  static void writeLttngIndex(Path trace) throws IOException {
    Files.createDirectories(trace.resolve("index"));
    List<Path> streams;
    try (Stream<Path> files = Files.list(trace)) {
      streams = files.filter(p -> p.getFileName().toString().startsWith("channel")).sorted()
          .collect(Collectors.toList());
    }
    for (Path stream : streams) {
      ByteBuffer data = ByteBuffer.wrap(Files.readAllBytes(stream)).order(ByteOrder.LITTLE_ENDIAN);
      List<long[]> entries = new ArrayList<>();
      for (int at = 0; at < data.capacity(); ) {
        long streamId = data.getLong(at + 20);
        long instance = data.getLong(at + 28);
        long bits = data.getLong(at + 36);
        entries.add(new long[] {at, bits, data.getLong(at + 44), data.getLong(at + 52), data.getLong(at + 60),
            data.getLong(at + 68), streamId, instance, data.getLong(at + 76)});
        at += (int) (bits / 8);
      }
      ByteBuffer index = ByteBuffer.allocate(16 + 72 * entries.size()).order(ByteOrder.BIG_ENDIAN);
      index.putInt(0xC1F1DCC1).putInt(1).putInt(1).putInt(72);
      for (long[] entry : entries) {
        for (long field : entry) {
          index.putLong(field);
        }
      }
      Files.write(trace.resolve("index").resolve(stream.getFileName() + ".idx"), index.array());
    }
  }
}
