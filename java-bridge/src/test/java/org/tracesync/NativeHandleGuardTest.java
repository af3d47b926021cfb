// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The JVM must survive anything Java hands the native methods: forged, stale and closed handles
 * throw IllegalStateException, and garbage option bytes throw IllegalArgumentException or open a
 * session with whatever the bytes happen to say. A crash here would take the test run down.
 */
class NativeHandleGuardTest {
  @BeforeAll
  static void load() {
    NativeLibrary.load();
  }

  private static List<Long> forgedHandles() {
    List<Long> handles = new ArrayList<>(List.of(0L, -1L, 1L, 2L, 1L << 32, Long.MIN_VALUE, Long.MAX_VALUE));
    Random random = new Random(11);
    for (int i = 0; i < 500; i++) {
      handles.add(random.nextLong());
    }
    return handles;
  }

  private static void assertRefused(long handle) {
    assertThrows(IllegalStateException.class, () -> NativeBridge.addMatch(handle, "A", 0, "B", 1));
    assertThrows(IllegalStateException.class, () -> NativeBridge.addTracePath(handle, "/"));
    assertThrows(IllegalStateException.class, () -> NativeBridge.run(handle, null));
    assertThrows(IllegalStateException.class, () -> NativeBridge.snapshot(handle));
    assertThrows(IllegalStateException.class, () -> NativeBridge.close(handle));
  }

  @Test
  void forgedHandlesThrow() {
    // Keep one real session open so the registry is not empty.
    try (TraceSync open = TraceSync.open(Options.defaults())) {
      long real = ErrorPathTest.handleOf(open);
      for (long handle : forgedHandles()) {
        if (handle != real) {
          assertRefused(handle);
        }
      }
      assertEquals(0, open.snapshot().getMessages());
    }
  }

  @Test
  void closedHandlesThrowAndAreNeverReused() {
    long first = NativeBridge.open(new byte[0]);
    NativeBridge.close(first);
    assertRefused(first);
    long second = NativeBridge.open(new byte[0]);
    assertTrue(second != first);
    NativeBridge.close(second);
    assertRefused(second);
  }

  @Test
  void garbageOptionsNeverCrash() {
    Random random = new Random(13);
    int opened = 0;
    int refused = 0;
    for (int i = 0; i < 2000; i++) {
      byte[] bytes = new byte[random.nextInt(64)];
      random.nextBytes(bytes);
      long handle;
      try {
        handle = NativeBridge.open(bytes);
      } catch (IllegalArgumentException e) {
        refused++;
        continue;
      }
      opened++;
      NativeBridge.addMatch(handle, "A", 0, "B", 1);
      assertTrue(NativeBridge.snapshot(handle).length > 0);
      NativeBridge.close(handle);
    }
    assertEquals(2000, opened + refused);
    assertTrue(refused > 0);
  }

  @Test
  void garbageListenersAndStringsNeverCrash() throws Exception {
    long handle = NativeBridge.open(new byte[0]);
    try {
      StringBuilder noise = new StringBuilder();
      Random random = new Random(17);
      for (int i = 0; i < 2000; i++) {
        noise.append((char) random.nextInt(Character.MAX_VALUE + 1));
      }
      String text = noise.toString();
      NativeBridge.addMatch(handle, text, 1, text.substring(1000), 2);
      assertThrows(java.io.IOException.class, () -> NativeBridge.addTracePath(handle, text.replace('\0', 'x')));
      NativeBridge.run(handle, (bd, bt, td, tt) -> true);
      assertEquals(1, org.tracesync.proto.Snapshot.parseFrom(NativeBridge.snapshot(handle)).getMessages());
    } finally {
      NativeBridge.close(handle);
    }
  }
}
