// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.proto.Link;
import org.tracesync.proto.Snapshot;
import org.tracesync.proto.Trace;

/**
 * Names that are not UTF-8 (issue 20, item 4): a trace whose metadata host name is Latin-1, a
 * trace under a Latin-1 directory. The snapshot parses (it used to be refused as "a library and a
 * jar of different builds"), shows readable text, and gives back the exact bytes.
 */
class NonUtf8NamesTest {
  /** "hôte" in Latin-1: ô is the byte F4. */
  private static final byte[] LATIN1_HOST = {'h', (byte) 0xF4, 't', 'e'};

  private static final String READABLE_HOST = "h\\xf4te";

  @TempDir Path experiment;

  private static void run(String... command) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(120, TimeUnit.SECONDS));
    assertEquals(0, process.exitValue(), output);
  }

  private void simulateTwoHosts() throws Exception {
    run(TestEnvironment.cli().toString(), "simulate", "--quiet", "--output", experiment.toString(),
        "--hosts", "2", "--duration", "1s", "--cpus", "1");
  }

  private Snapshot synchronize() throws Exception {
    try (TraceSync sync = TraceSync.open(Options.defaults())) {
      sync.addTrace(experiment);
      sync.run(null);
      return sync.snapshot();
    }
  }

  private static byte[] replace(byte[] text, byte[] what, byte[] with) {
    String haystack = new String(text, StandardCharsets.ISO_8859_1);
    String needle = new String(what, StandardCharsets.ISO_8859_1);
    int at = haystack.indexOf(needle);
    assertTrue(at >= 0, "not found: " + needle);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(text, 0, at);
    out.writeBytes(with);
    out.write(text, at + what.length, text.length - at - what.length);
    return out.toByteArray();
  }

  @Test
  void aTraceWhoseMetadataHostnameIsLatin1() throws Exception {
    simulateTwoHosts();
    Path metadata = experiment.resolve("host1/kernel/metadata");
    ByteArrayOutputStream latin1Entry = new ByteArrayOutputStream();
    latin1Entry.writeBytes("hostname = \"".getBytes(StandardCharsets.US_ASCII));
    latin1Entry.writeBytes(LATIN1_HOST);
    latin1Entry.writeBytes("\";".getBytes(StandardCharsets.US_ASCII));
    Files.write(metadata, replace(Files.readAllBytes(metadata),
        "hostname = \"host1\";".getBytes(StandardCharsets.US_ASCII), latin1Entry.toByteArray()));

    Snapshot snapshot = synchronize();
    assertEquals(2, snapshot.getTracesCount());
    Trace trace = snapshot.getTraces(1);
    assertEquals(READABLE_HOST, trace.getHostname());
    assertFalse(Names.isExact(trace.getHostnameRaw()));
    assertArrayEquals(LATIN1_HOST, Names.exact(trace.getHostname(), trace.getHostnameRaw()));
    assertTrue(Names.isExact(trace.getNameRaw()));
    assertArrayEquals(trace.getName().getBytes(StandardCharsets.UTF_8),
        Names.exact(trace.getName(), trace.getNameRaw()));
    Link link = snapshot.getLinks(0);
    ByteString linkHostname =
        link.getAHostname().equals("host0") ? link.getBHostnameRaw() : link.getAHostnameRaw();
    assertArrayEquals(LATIN1_HOST, linkHostname.toByteArray());
  }

  @Test
  void aTraceUnderALatin1Directory() throws Exception {
    simulateTwoHosts();
    // Java cannot name a file with bytes that are not UTF-8: the shell renames it.
    run("/bin/sh", "-c", "mv \"$1/host1\" \"$1/$(printf 'h\\364te')\"", "sh", experiment.toString());

    Snapshot snapshot = synchronize();
    assertEquals(2, snapshot.getTracesCount());
    Trace trace = snapshot.getTraces(1);
    byte[] expected = (experiment + "/" + new String(LATIN1_HOST, StandardCharsets.ISO_8859_1) + "/kernel")
        .getBytes(StandardCharsets.ISO_8859_1);
    assertArrayEquals(expected, Names.exact(trace.getPath(), trace.getPathRaw()));
    assertEquals(experiment + "/" + READABLE_HOST + "/kernel", trace.getPath());
    assertTrue(trace.getSynchronized());
  }
}
