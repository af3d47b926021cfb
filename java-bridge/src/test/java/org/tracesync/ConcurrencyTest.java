// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tracesync.proto.Link;
import org.tracesync.proto.Snapshot;
import org.tracesync.proto.Trace;

/** Sessions shared between threads, and sessions side by side. */
class ConcurrencyTest {
  private static final int THREADS = 4;
  private static final int MESSAGES_PER_THREAD = 2000;
  private static final long TIMEOUT_SECONDS = 60;

  private ExecutorService pool;

  @BeforeEach
  void startPool() {
    pool = Executors.newFixedThreadPool(THREADS + 1);
  }

  @AfterEach
  void stopPool() throws InterruptedException {
    pool.shutdownNow();
    assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS));
  }

  /**
   * Thread k's i-th message: four hosts in a ring, clocks 1 us apart per host, 50 ns of delay plus
   * a little jitter, both directions.
   */
  private static void addMessage(TraceSync sync, int thread, int i) {
    int from = (thread + i) % 4;
    int to = (from + 1 + i % 3) % 4;
    long send = 1_000_000L * (thread * MESSAGES_PER_THREAD + i) + from * 1_000L;
    long receive = send - from * 1_000L + to * 1_000L + 50 + (i * 7919L + thread) % 97;
    sync.addMatch("host" + from, send, "host" + to, receive);
  }

  private <T> List<T> await(List<Future<T>> futures) throws Exception {
    List<T> results = new ArrayList<>();
    for (Future<T> f : futures) {
      results.add(f.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
    }
    return results;
  }

  @Test
  void oneSessionFedFromFourThreadsLosesNothing() throws Exception {
    try (TraceSync shared = TraceSync.open(Options.defaults());
        TraceSync sequential = TraceSync.open(Options.defaults())) {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Long>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  long lastSeen = 0;
                  for (int i = 0; i < MESSAGES_PER_THREAD; i++) {
                    addMessage(shared, thread, i);
                    if (i % 250 == 0) {
                      // Snapshots in between see a growing, consistent count.
                      long seen = shared.snapshot().getMessages();
                      assertTrue(seen >= lastSeen + 1, seen + " after " + lastSeen);
                      lastSeen = seen;
                    }
                  }
                  return lastSeen;
                }));
      }
      start.countDown();
      await(futures);

      for (int t = 0; t < THREADS; t++) {
        for (int i = 0; i < MESSAGES_PER_THREAD; i++) {
          addMessage(sequential, t, i);
        }
      }
      Snapshot concurrent = shared.snapshot();
      Snapshot expected = sequential.snapshot();
      assertEquals((long) THREADS * MESSAGES_PER_THREAD, concurrent.getMessages());
      long perLink = concurrent.getLinksList().stream().mapToLong(Link::getMessages).sum();
      assertEquals(concurrent.getMessages(), perLink);
      // Link results do not depend on arrival order: same bounds, same transforms.
      assertEquals(expected.getLinksCount(), concurrent.getLinksCount());
      for (int k = 0; k < expected.getLinksCount(); k++) {
        Link a = expected.getLinks(k);
        Link b = concurrent.getLinks(k);
        assertEquals(a.getMessages(), b.getMessages());
        assertEquals(a.getQuality(), b.getQuality());
        assertEquals(Links.detail(a), Links.detail(b));
      }
      for (int k = 0; k < expected.getTracesCount(); k++) {
        Trace a = expected.getTraces(k);
        Trace b = concurrent.getTraces(k);
        assertEquals(LinearTransform.of(a), LinearTransform.of(b), a.getName());
      }
    }
  }

  @Test
  void sessionsRunSideBySide() throws Exception {
    // Session one's run is held inside its listener until session two has done a whole
    // synchronization: if the sessions shared a lock, the latch would time out.
    CountDownLatch twoDone = new CountDownLatch(1);
    try (TraceSync one = TraceSync.open(Options.defaults());
        TraceSync two = TraceSync.open(Options.defaults())) {
      Future<Boolean> held =
          pool.submit(
              () -> {
                one.run((bd, bt, td, tt) -> awaitQuietly(twoDone));
                return true;
              });
      Future<Long> other =
          pool.submit(
              () -> {
                for (int i = 0; i < 100; i++) {
                  addMessage(two, 0, i);
                }
                two.run(null);
                long messages = two.snapshot().getMessages();
                twoDone.countDown();
                return messages;
              });
      assertEquals(100, other.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
      assertTrue(held.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
    }
  }

  @Test
  void manySessionsInParallelAgree() throws Exception {
    List<Future<Snapshot>> futures = new ArrayList<>();
    for (int s = 0; s < THREADS * 2; s++) {
      futures.add(
          pool.submit(
              () -> {
                try (TraceSync sync = TraceSync.open(Options.defaults())) {
                  for (int t = 0; t < THREADS; t++) {
                    for (int i = 0; i < 500; i++) {
                      addMessage(sync, t, i);
                    }
                  }
                  sync.run(null);
                  return sync.snapshot();
                }
              }));
    }
    List<Snapshot> snapshots = await(futures);
    for (Snapshot s : snapshots) {
      assertEquals(snapshots.get(0), s);
    }
    assertEquals(THREADS * 500, snapshots.get(0).getMessages());
  }

  @Test
  void callsOnOneSessionWaitForEachOther() throws Exception {
    CountDownLatch listenerEntered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (TraceSync sync = TraceSync.open(Options.defaults())) {
      Future<Boolean> running =
          pool.submit(
              () -> {
                sync.run(
                    (bd, bt, td, tt) -> {
                      listenerEntered.countDown();
                      return awaitQuietly(release);
                    });
                return true;
              });
      assertTrue(listenerEntered.await(TIMEOUT_SECONDS, TimeUnit.SECONDS));
      Future<Long> waiting = pool.submit(() -> sync.snapshot().getMessages());
      // The snapshot cannot be taken while the run holds the session.
      assertThrows(java.util.concurrent.TimeoutException.class, () -> waiting.get(300, TimeUnit.MILLISECONDS));
      release.countDown();
      assertTrue(running.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
      assertEquals(0, waiting.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
    }
  }

  @Test
  void closeDuringARunWaitsForItAndCancelsIt() throws Exception {
    CountDownLatch listenerEntered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    TraceSync sync = TraceSync.open(Options.defaults());
    sync.addMatch("A", 0, "B", 1);
    Future<Throwable> running =
        pool.submit(
            () -> {
              try {
                sync.run(
                    (bd, bt, td, tt) -> {
                      listenerEntered.countDown();
                      return awaitQuietly(release);
                    });
                return null;
              } catch (Throwable e) {
                return e;
              }
            });
    assertTrue(listenerEntered.await(TIMEOUT_SECONDS, TimeUnit.SECONDS));
    Future<?> closing = pool.submit(sync::close);
    // close() waits for the run in progress.
    assertThrows(java.util.concurrent.TimeoutException.class, () -> closing.get(300, TimeUnit.MILLISECONDS));
    assertFalse(closing.isDone());
    release.countDown();
    closing.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    Throwable outcome = running.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    assertTrue(outcome instanceof IllegalStateException, "the run learns the session closed: " + outcome);
    assertThrows(IllegalStateException.class, sync::snapshot);
  }

  @Test
  void closingFromManyThreadsAtOnceIsSafe() throws Exception {
    for (int round = 0; round < 50; round++) {
      TraceSync sync = TraceSync.open(Options.defaults());
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Object>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  try {
                    if (thread % 2 == 0) {
                      sync.close();
                    } else {
                      addMessage(sync, thread, 0);
                      sync.snapshot();
                    }
                  } catch (IllegalStateException closed) {
                    // Expected once the session is closed.
                  }
                  return null;
                }));
      }
      start.countDown();
      await(futures);
      assertThrows(IllegalStateException.class, sync::snapshot);
    }
  }

  private static boolean awaitQuietly(CountDownLatch latch) {
    try {
      return latch.await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

}
