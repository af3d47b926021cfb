// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tracesync.NativeLibrary;
import org.tracesync.Options;
import org.tracesync.proto.Snapshot;

/**
 * The view's follower on real trace folders (django-vote-v1's kernel traces, finished): results come, then the final
 * one; stop() ends it. The JNI library and the shared fixtures are needed; skipped when either is absent.
 */
class LiveFollowingTest {
  private List<String> folders;

  @BeforeEach
  void findFixturesAndLibrary() throws IOException {
    String shared = System.getProperty("tracesync.shared.dir", "");
    Path set = Path.of(shared.isEmpty() ? "/nonexistent" : shared, "fixtures/lttng-modules-2.4-addons/django-vote-v1");
    assumeTrue(Files.isDirectory(set), "the shared LTTng fixtures are absent (looked in " + set + ")");
    String library = System.getProperty("tracesync.jni.library", "");
    assumeTrue(!library.isEmpty() && Files.isRegularFile(Path.of(library)),
        "libtracesync_jni.so is not built (-Dtracesync.jni.library=" + library + ")");
    NativeLibrary.load(Path.of(library));
    try (Stream<Path> found = Files.walk(set)) {
      folders = found.filter(p -> p.getFileName().toString().equals("metadata")).map(p -> p.getParent().toString())
          .sorted().collect(Collectors.toList());
    }
  }

  @Test
  void givesResultsThenTheFinalOne() throws Exception {
    List<Snapshot> results = new CopyOnWriteArrayList<>();
    CompletableFuture<LiveFollowing.End> end = new CompletableFuture<>();
    LiveFollowing following = LiveFollowing.start(folders, Options.defaults(), Duration.ofMillis(100),
        Duration.ofSeconds(1), Duration.ZERO, results::add, end::complete);
    LiveFollowing.End outcome = end.get(120, TimeUnit.SECONDS);
    assertTrue(following.join(Duration.ofSeconds(10)));
    assertNull(outcome.error());
    assertFalse(outcome.stopped());
    assertNotNull(outcome.finalResult());
    assertTrue(outcome.finalResult().getComplete());
    assertEquals(3, outcome.finalResult().getTracesCount());
    assertTrue(outcome.finalResult().getMessages() > 0);
    assertFalse(results.isEmpty(), "no result before the final one");
    assertEquals("Live, final result: 3 traces, " + outcome.finalResult().getMessages() + " messages",
        LiveFollowing.caption(outcome.finalResult(), folders.size()));
    assertTrue(LiveFollowing.caption(results.get(0), 3).startsWith("Live, following 3 sources: "));
  }

  @Test
  void stopEndsFollowing() throws Exception {
    CompletableFuture<LiveFollowing.End> end = new CompletableFuture<>();
    CompletableFuture<Snapshot> first = new CompletableFuture<>();
    LiveFollowing following = LiveFollowing.start(folders, Options.defaults(), Duration.ofMillis(100),
        Duration.ofMinutes(10), Duration.ZERO, first::complete, end::complete);
    first.get(120, TimeUnit.SECONDS);  // following is under way
    following.stop();
    LiveFollowing.End outcome = end.get(30, TimeUnit.SECONDS);
    assertTrue(outcome.stopped(), "stopped: " + outcome);
    assertNull(outcome.finalResult());
  }
}
