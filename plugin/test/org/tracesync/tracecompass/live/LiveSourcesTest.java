// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class LiveSourcesTest {
  @Test
  void urlsAndAbsoluteFoldersInOrderEachOnce() {
    assertEquals(List.of("net://relay:5344/host/alpha/s", "/srv/traces/beta", "net://relay/host/gamma/s"),
        LiveSources.parse("  net://relay:5344/host/alpha/s\n/srv/traces/beta   net://relay/host/gamma/s\n"
            + "/srv/traces/beta\n"));
  }

  @Test
  void whatIsNeitherIsRefusedByName() {
    IllegalArgumentException relative = assertThrows(IllegalArgumentException.class,
        () -> LiveSources.parse("net://relay/host/a/s traces/beta"));
    assertTrue(relative.getMessage().startsWith("'traces/beta' is not an absolute folder"), relative.getMessage());
    IllegalArgumentException scheme = assertThrows(IllegalArgumentException.class,
        () -> LiveSources.parse("tcp://relay/host/a/s"));
    assertTrue(scheme.getMessage().startsWith("'tcp://relay/host/a/s' is not a live session URL"),
        scheme.getMessage());
    IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> LiveSources.parse(" \n "));
    assertTrue(none.getMessage().startsWith("give the live sessions"), none.getMessage());
  }
}
