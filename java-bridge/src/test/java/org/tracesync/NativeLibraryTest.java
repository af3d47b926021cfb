// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Loading the library from java.library.path or from an explicit file, in fresh JVMs. */
class NativeLibraryTest {
  /** The program the fresh JVMs run: {@code load} or {@code load <file>}, then one session. */
  public static final class Probe {
    public static void main(String[] args) {
      try {
        if (args.length == 1) {
          NativeLibrary.load(Path.of(args[0]));
          NativeLibrary.load(Path.of(args[0])); // the same file again: nothing to do
          System.out.println("loaded=" + NativeLibrary.isLoaded());
        }
        try (TraceSync sync = TraceSync.open(Options.defaults())) {
          sync.addMatch("A", 0, "B", 1);
          System.out.println("messages=" + sync.snapshot().getMessages());
        }
      } catch (UnsatisfiedLinkError e) {
        System.out.println("UnsatisfiedLinkError: " + e.getMessage());
      }
    }
  }

  private static String jarOf(Class<?> type) throws Exception {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }

  /** Runs Probe in a new JVM without java.library.path pointing at our library. */
  private static String probe(String... args) throws Exception {
    String classPath =
        String.join(
            File.pathSeparator,
            jarOf(TraceSync.class),
            jarOf(NativeLibraryTest.class),
            jarOf(com.google.protobuf.Message.class));
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of("-Djava.library.path=/nonexistent", "-cp", classPath, Probe.class.getName()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, process.exitValue(), output);
    return output;
  }

  @Test
  void loadsFromAnExplicitFile() throws Exception {
    String output = probe(TestEnvironment.nativeLibrary().toString());
    assertTrue(output.contains("loaded=true") && output.contains("messages=1"), output);
  }

  @Test
  void saysWhereItLookedWhenTheLibraryIsNotFound() throws Exception {
    String output = probe();
    assertTrue(output.contains("UnsatisfiedLinkError: cannot load libtracesync_jni.so"), output);
    assertTrue(output.contains("java.library.path=/nonexistent"), output);
  }

  @Test
  void loadsOnceFromJavaLibraryPath() {
    NativeLibrary.load();
    NativeLibrary.load();
    assertTrue(NativeLibrary.isLoaded());
    // Another file cannot replace the loaded library.
    assertThrows(IllegalStateException.class, () -> NativeLibrary.load(TestEnvironment.nativeLibrary()));
  }
}
