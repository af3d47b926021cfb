// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the tests find their inputs: system properties set by the CTest command line. */
final class TestEnvironment {
  private TestEnvironment() {}

  /** The steering repository's shared/ folder; it may be absent. */
  static Path sharedDir() {
    return Path.of(property("tracesync.shared.dir"));
  }

  /** The real LTTng 2.1 kernel traces of two hosts (scp_src on VM1, scp_dest on VM3). */
  static Path scpFixtures() {
    return sharedDir().resolve("fixtures/lttng-modules-2.1-addons");
  }

  /** The built tracesync command. */
  static Path cli() {
    Path cli = Path.of(property("tracesync.cli"));
    assertTrue(Files.isExecutable(cli), "the tracesync command is not built: " + cli);
    return cli;
  }

  /** The built native library. */
  static Path nativeLibrary() {
    for (String folder : property("java.library.path").split(java.io.File.pathSeparator)) {
      Path candidate = Path.of(folder, System.mapLibraryName(NativeLibrary.NAME));
      if (Files.isRegularFile(candidate)) {
        return candidate;
      }
    }
    throw new AssertionError("lib" + NativeLibrary.NAME + ".so is not on java.library.path");
  }

  private static String property(String name) {
    String value = System.getProperty(name);
    if (value == null || value.isEmpty()) {
      throw new AssertionError("the tests need -D" + name + " (CTest sets it)");
    }
    return value;
  }
}
