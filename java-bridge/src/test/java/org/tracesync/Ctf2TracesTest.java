// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.tracesync.proto.Link;
import org.tracesync.proto.Snapshot;
import org.tracesync.proto.Trace;

/**
 * CTF 2 (LTTng 2.15's default) through the bridge: the shared scp traces given CTF 2 metadata by
 * {@code tracesync to-ctf2} over their unchanged stream files synchronize as the CTF 1.8 originals
 * do (the same transforms, exactly, and the same links), read by the scanner.
 */
@Tag("traces")
class Ctf2TracesTest {
  private Path fixtures;
  private Path work;

  @BeforeEach
  void findFixtures() throws IOException {
    fixtures = TestEnvironment.scpFixtures();
    assumeTrue(
        Files.isDirectory(fixtures.resolve("scp_src")) && Files.isDirectory(fixtures.resolve("scp_dest")),
        "the shared LTTng fixtures are absent (looked in " + fixtures + "; set TRACESYNC_SHARED_DIR)");
    work = Files.createTempDirectory("tracesync-ctf2-");
  }

  @AfterEach
  void removeWork() throws IOException {
    if (work == null) {
      return;
    }
    try (Stream<Path> paths = Files.walk(work)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  /** `trace`'s stream files linked into a new folder, with CTF 2 metadata translated from its own. */
  private Path ctf2Twin(String trace) throws Exception {
    Path source = fixtures.resolve(trace);
    Path twin = Files.createDirectories(work.resolve(trace));
    try (Stream<Path> entries = Files.list(source)) {
      for (Path entry : entries.toList()) {
        if (!entry.getFileName().toString().equals("metadata")) {
          Files.createSymbolicLink(twin.resolve(entry.getFileName()), entry);
        }
      }
    }
    Process translate =
        new ProcessBuilder(
                TestEnvironment.cli().toString(), "to-ctf2", source.toString(), "-o",
                twin.resolve("metadata").toString())
            .redirectErrorStream(true)
            .start();
    String said = new String(translate.getInputStream().readAllBytes());
    assertEquals(0, translate.waitFor(), "tracesync to-ctf2: " + said);
    assertEquals('\u001e', Files.readString(twin.resolve("metadata")).charAt(0));
    return twin;
  }

  private static Snapshot synchronize(Path a, Path b) throws Exception {
    try (TraceSync sync = TraceSync.open(Options.defaults())) {
      sync.addTrace(a);
      sync.addTrace(b);
      sync.run(null);
      return sync.snapshot();
    }
  }

  private static Map<String, LinearTransform> transformsByHost(Snapshot snapshot) {
    Map<String, LinearTransform> out = new TreeMap<>();
    for (Trace trace : snapshot.getTracesList()) {
      out.put(trace.getHostname(), LinearTransform.of(trace));
    }
    return out;
  }

  @Test
  void ctf2TwinsSynchronizeAsTheirCtf18Originals() throws Exception {
    Snapshot original = synchronize(fixtures.resolve("scp_src"), fixtures.resolve("scp_dest"));
    Snapshot ctf2 = synchronize(ctf2Twin("scp_src"), ctf2Twin("scp_dest"));
    assertTrue(ctf2.getComplete());
    assertEquals(2, ctf2.getTracesCount());
    for (Trace trace : ctf2.getTracesList()) {
      assertEquals("scanner", trace.getReader(), trace.getReaderReason());
      assertTrue(trace.getEvents() > 0);
    }
    assertEquals(transformsByHost(original), transformsByHost(ctf2));
    assertEquals(1, ctf2.getLinksCount());
    Link a = original.getLinks(0);
    Link b = ctf2.getLinks(0);
    assertEquals(a.getMessages(), b.getMessages());
    assertEquals(a.getQuality(), b.getQuality());
    assertEquals(original.getMatching().getMatches(), ctf2.getMatching().getMatches());
  }
}
