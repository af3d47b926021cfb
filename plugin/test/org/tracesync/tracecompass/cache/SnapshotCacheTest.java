// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.proto.Snapshot;
import org.tracesync.tracecompass.testing.TestSnapshots;

class SnapshotCacheTest {
  @TempDir Path dir;
  private Path vm1;
  private Path vm2;

  @BeforeEach
  void makeTraces() throws IOException {
    vm1 = trace("vm1");
    vm2 = trace("vm2");
  }

  private Path trace(String name) throws IOException {
    Path trace = Files.createDirectories(dir.resolve(name).resolve("kernel"));
    Files.writeString(trace.resolve("metadata"), "/* CTF 1.8 */");
    Files.write(trace.resolve("channel0_0"), new byte[4096]);
    Files.createDirectories(trace.resolve("index"));
    Files.write(trace.resolve("index").resolve("channel0_0.idx"), new byte[64]);
    return trace;
  }

  private String key(Path... traces) throws IOException {
    List<TraceIdentity> identities = new java.util.ArrayList<>();
    for (Path trace : traces) identities.add(TraceIdentity.of(trace));
    return CacheKey.of(identities);
  }

  @Test
  void identityListsEveryFileWithSizeAndTime() throws IOException {
    TraceIdentity identity = TraceIdentity.of(vm1);
    assertEquals(vm1.toRealPath().toString(), identity.location());
    assertEquals(List.of("channel0_0", "index/channel0_0.idx", "metadata"),
        identity.files().stream().map(TraceIdentity.FileStamp::relativePath).toList());
    assertEquals(4096, identity.files().get(0).size());
    assertEquals(Files.getLastModifiedTime(vm1.resolve("metadata")).toMillis(), identity.files().get(2).modifiedMillis());
  }

  @Test
  void keyIgnoresTheOrderOfTraces() throws IOException {
    assertEquals(key(vm1, vm2), key(vm2, vm1));
  }

  @Test
  void keyFollowsEveryChangeOfTheTraces() throws IOException {
    String before = key(vm1, vm2);
    Files.setLastModifiedTime(vm2.resolve("channel0_0"), FileTime.fromMillis(1_000_000_000_000L));
    String touched = key(vm1, vm2);
    assertNotEquals(before, touched);
    Files.write(vm2.resolve("channel0_0"), new byte[4097]);
    Files.setLastModifiedTime(vm2.resolve("channel0_0"), FileTime.fromMillis(1_000_000_000_000L));
    String grown = key(vm1, vm2);
    assertNotEquals(touched, grown);
    Files.write(vm1.resolve("channel0_1"), new byte[1]);
    assertNotEquals(grown, key(vm1, vm2));
    assertNotEquals(key(vm1, vm2), key(vm1));
  }

  @Test
  void twoRoutesToOneTraceHaveOneIdentity() throws IOException {
    Path link = Files.createSymbolicLink(dir.resolve("link-to-vm1"), vm1);
    assertEquals(key(vm1), key(link));
    assertEquals(key(vm1), key(dir.resolve("vm1/../vm1/kernel")));
  }

  @Test
  void missingTraceIsAnErrorNamingIt() {
    IOException error = assertThrows(IOException.class, () -> TraceIdentity.of(dir.resolve("gone")));
    assertTrue(error.getMessage().contains("gone"), error.getMessage());
  }

  @Test
  void writtenEntryReadsBackAndIsFoundOnlyByItsKeys() throws IOException {
    SnapshotCache cache = new SnapshotCache(dir.resolve("suppl/sync_data").resolve(SnapshotCache.FILE_NAME));
    assertTrue(cache.read().isEmpty());
    Snapshot snapshot = TestSnapshots.threeHosts();
    cache.write(new SnapshotCache.Entry("traces-1", "reference=automatic", snapshot));
    SnapshotCache.Entry entry = cache.read().orElseThrow();
    assertEquals(snapshot, entry.snapshot());
    assertEquals(snapshot, cache.find("traces-1", "reference=automatic").orElseThrow());
    assertEquals(snapshot, cache.find("traces-1", null).orElseThrow());  // any options: reopening an experiment
    assertTrue(cache.find("traces-2", null).isEmpty());
    assertTrue(cache.find("traces-1", "reference=/traces/vm1").isEmpty());
    assertTrue(Files.list(cache.file().getParent()).allMatch(p -> p.equals(cache.file())), "no partial file left");
    cache.clear();
    assertTrue(cache.read().isEmpty());
  }

  @Test
  void damagedFilesAreErrorsNamingTheFile() throws IOException {
    SnapshotCache cache = new SnapshotCache(dir.resolve(SnapshotCache.FILE_NAME));
    cache.write(new SnapshotCache.Entry("k", "o", TestSnapshots.threeHosts()));
    byte[] good = Files.readAllBytes(cache.file());

    Files.write(cache.file(), Arrays.copyOf(good, good.length / 2));
    assertDamaged(cache, "runs past the end");
    Files.write(cache.file(), Arrays.copyOf(good, 30));
    assertDamaged(cache, "ends too early");
    Files.writeString(cache.file(), "something else entirely, and long enough to hold a header");
    assertDamaged(cache, "not a tracesync snapshot cache");
    byte[] garbled = good.clone();
    for (int i = good.length - 200; i < good.length; i++) garbled[i] = (byte) 0xff;
    Files.write(cache.file(), garbled);
    assertDamaged(cache, "does not parse");
  }

  private static void assertDamaged(SnapshotCache cache, String why) {
    IOException error = assertThrows(IOException.class, cache::read);
    assertTrue(error.getMessage().contains(cache.file().toString()), error.getMessage());
    assertTrue(error.getMessage().contains(why), error.getMessage());
  }
}
