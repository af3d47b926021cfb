// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.tracesync.NativeLibrary;
import org.tracesync.Options;
import org.tracesync.proto.Problem;
import org.tracesync.proto.Snapshot;

/**
 * The view's follower on real trace folders (django-vote-v1's kernel traces, finished): results come, then the final
 * one; stop() ends it; a relay that is not there ends following with the problem named. The JNI library and, for the
 * folders, the shared fixtures are needed; a test is skipped when what it needs is absent. The captions need neither.
 */
class LiveFollowingTest {
  private List<String> folders;

  private static void loadLibrary() {
    String library = System.getProperty("tracesync.jni.library", "");
    assumeTrue(!library.isEmpty() && Files.isRegularFile(Path.of(library)),
        "libtracesync_jni.so is not built (-Dtracesync.jni.library=" + library + ")");
    NativeLibrary.load(Path.of(library));
  }

  private void findFixturesAndLibrary() throws IOException {
    String shared = System.getProperty("tracesync.shared.dir", "");
    Path set = Path.of(shared.isEmpty() ? "/nonexistent" : shared, "fixtures/lttng-modules-2.4-addons/django-vote-v1");
    assumeTrue(Files.isDirectory(set), "the shared LTTng fixtures are absent (looked in " + set + ")");
    loadLibrary();
    try (Stream<Path> found = Files.walk(set)) {
      folders = found.filter(p -> p.getFileName().toString().equals("metadata")).map(p -> p.getParent().toString())
          .sorted().collect(Collectors.toList());
    }
  }

  @Test
  void givesResultsThenTheFinalOne() throws Exception {
    findFixturesAndLibrary();
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
    assertEquals(Duration.ofMinutes(1).toNanos(), outcome.finalResult().getOptions().getMatchHorizonNs(),
        "not tracesync live's match horizon");
    assertFalse(results.isEmpty(), "no result before the final one");
    assertEquals("Live, final result", LiveFollowing.endCaption(outcome.finalResult()));
    assertTrue(LiveFollowing.caption(results.get(0), 3).startsWith("Live, following 3 sources"));
  }

  @Test
  void stopEndsFollowing() throws Exception {
    findFixturesAndLibrary();
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

  /**
   * A session URL whose relay does not listen (a loopback port just freed), not waited for: following ends with a
   * result, incomplete, whose problem names the URL, and the view's caption says following ended without it and why
   * (it said "following" before: the final result of a lost source is not complete).
   */
  @Test
  void aRelayThatIsNotThereEndsFollowingWithTheProblemNamed() throws Exception {
    loadLibrary();
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    String url = "net://127.0.0.1:" + port + "/host/nohost/s";
    CompletableFuture<LiveFollowing.End> end = new CompletableFuture<>();
    LiveFollowing following = LiveFollowing.start(List.of(url), Options.defaults(), Duration.ofMillis(100),
        Duration.ofSeconds(1), Duration.ZERO, result -> {}, end::complete);
    LiveFollowing.End outcome = end.get(60, TimeUnit.SECONDS);
    assertTrue(following.join(Duration.ofSeconds(10)));
    assertNull(outcome.error());
    assertNotNull(outcome.finalResult());
    Snapshot result = outcome.finalResult();
    assertFalse(result.getComplete());
    assertEquals(0, result.getTracesCount());
    assertEquals(1, result.getProblemsCount());
    assertEquals(url, result.getProblems(0).getSource());
    String caption = LiveFollowing.endCaption(result);
    assertTrue(caption.startsWith("Live, ended incomplete (" + url + ": "), caption);
    assertTrue(caption.contains(result.getProblems(0).getMessage()), caption);
    assertTrue(caption.contains("Connection refused"), caption);
  }

  @Test
  void captionsSayWhetherFollowingGoesOnAndNameEachProblem() {
    Snapshot running = Snapshot.newBuilder().setMessages(1).addProblems(Problem.newBuilder()
        .setSource("net://relay/host/b/s").setMessage("the relay went away")).build();
    assertEquals("Live, following 2 sources (net://relay/host/b/s: the relay went away)",
        LiveFollowing.caption(running, 2));
    Snapshot last = running.toBuilder().addProblems(Problem.newBuilder().setSource("/srv/c").setMessage("lost"))
        .build();
    assertEquals("Live, ended incomplete (net://relay/host/b/s: the relay went away; /srv/c: lost)",
        LiveFollowing.endCaption(last));
    assertEquals("Live, final result",
        LiveFollowing.endCaption(Snapshot.newBuilder().setMessages(1).setComplete(true).build()));
    assertEquals("Following net://r/host/a/s /srv/b: waiting for the first result (a source not there yet is "
        + "looked for during a minute).", LiveFollowing.waitingCaption(List.of("net://r/host/a/s", "/srv/b"),
        Duration.ofMinutes(1)));
    assertEquals("Following /srv/b: waiting for the first result (a source not there yet is looked for during "
        + "10 s).", LiveFollowing.waitingCaption(List.of("/srv/b"), Duration.ofSeconds(10)));
    assertEquals("Following /srv/b: waiting for the first result.",
        LiveFollowing.waitingCaption(List.of("/srv/b"), Duration.ZERO));
  }
}
