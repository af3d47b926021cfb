// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.tracesync.proto.Link;
import org.tracesync.proto.Quality;
import org.tracesync.proto.Snapshot;
import org.tracesync.proto.Trace;

/**
 * The real LTTng 2.1 kernel traces of an scp between two hosts (scp_src on VM1, scp_dest on VM3),
 * from the steering repository's shared/ folder. Skipped only when that folder is absent.
 */
@Tag("traces")
class ScpFixtureTest {
  private Path fixtures;

  @BeforeEach
  void findFixtures() {
    fixtures = TestEnvironment.scpFixtures();
    assumeTrue(
        Files.isDirectory(fixtures.resolve("scp_src")) && Files.isDirectory(fixtures.resolve("scp_dest")),
        "the shared LTTng fixtures are absent (looked in " + fixtures + "; set TRACESYNC_SHARED_DIR)");
  }

  private static void assertSynchronized(Snapshot snapshot) {
    assertEquals(2, snapshot.getTracesCount());
    Set<String> hostnames = snapshot.getTracesList().stream().map(Trace::getHostname).collect(Collectors.toSet());
    assertEquals(Set.of("VM1", "VM3"), hostnames);
    assertEquals(1, snapshot.getLinksCount());
    Link link = snapshot.getLinks(0);
    Set<String> domains = snapshot.getTracesList().stream().map(Trace::getDomain).collect(Collectors.toSet());
    assertEquals(domains, Set.of(link.getA(), link.getB()));
    assertEquals(Quality.ACCURATE, link.getQuality());
    assertTrue(link.getMessages() > 0);
    assertTrue(snapshot.getMatching().getMatches() > 0);

    assertEquals(1, snapshot.getIslandsCount());
    for (Trace trace : snapshot.getTracesList()) {
      LinearTransform transform = LinearTransform.of(trace);
      if (trace.getReference()) {
        assertEquals(LinearTransform.IDENTITY, transform);
      } else {
        // Two clocks of real machines: rates within 0.1 % of each other.
        assertTrue(transform.slope().subtract(BigDecimal.ONE).abs().compareTo(new BigDecimal("0.001")) < 0,
            "slope " + transform.slope());
      }
    }
  }

  @Test
  void theTwoTracesSynchronize() throws Exception {
    AtomicInteger reports = new AtomicInteger();
    try (TraceSync sync = TraceSync.open(Options.defaults())) {
      sync.addTrace(fixtures.resolve("scp_src"));
      sync.addTrace(fixtures.resolve("scp_dest"));
      sync.run(
          (bytesDone, bytesTotal, tracesDone, tracesTotal) -> {
            reports.incrementAndGet();
            assertTrue(bytesDone <= bytesTotal && tracesDone <= tracesTotal);
            return true;
          });
      Snapshot snapshot = sync.snapshot();
      assertTrue(snapshot.getComplete());
      assertSynchronized(snapshot);
      assertTrue(reports.get() > 0);
    }
  }

  /** Each reader, asked for by name, reads both traces, says so, and gives the same links. */
  @Test
  void eachReaderGivesTheSameLinksAndSaysWhichReadEachTrace() throws Exception {
    java.util.List<java.util.List<Link>> links = new java.util.ArrayList<>();
    for (String reader : new String[] {"scanner", "babeltrace2"}) {
      try (TraceSync sync = TraceSync.open(Options.builder().reader(reader).build())) {
        sync.addTrace(fixtures.resolve("scp_src"));
        sync.addTrace(fixtures.resolve("scp_dest"));
        sync.run(null);
        Snapshot snapshot = sync.snapshot();
        assertSynchronized(snapshot);
        for (Trace trace : snapshot.getTracesList()) {
          assertEquals(reader, trace.getReader(), trace.getPath());
        }
        links.add(snapshot.getLinksList());
      }
    }
    assertEquals(links.get(0), links.get(1));
  }

  @Test
  void aFolderOfTracesIsSearchedRecursively() throws Exception {
    try (TraceSync sync = TraceSync.open(Options.defaults())) {
      sync.addTrace(fixtures);
      sync.run(null);
      assertSynchronized(sync.snapshot());
    }
  }

  @Test
  void aCancelledRunStopsAtTheFirstReport() throws Exception {
    AtomicInteger reports = new AtomicInteger();
    try (TraceSync sync = TraceSync.open(Options.defaults())) {
      sync.addTrace(fixtures);
      sync.run((bd, bt, td, tt) -> reports.incrementAndGet() < 0);
      assertEquals(1, reports.get());
      assertTrue(sync.snapshot().getTracesCount() <= 2);
    }
  }
}
