// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A library with no tracesync program beside it reads traces in the JVM: the snapshot says why and
 * TraceSync.open warns, instead of silently losing the protection of reading processes. The library
 * can be loaded once per JVM, so the copy alone in a folder is loaded by a child JVM.
 */
class ReadingProgramMissingTest {
  /** The child JVM: loads the library named by args[0] and prints the snapshot's reason. */
  public static final class Child {
    public static void main(String[] args) {
      NativeLibrary.load(Path.of(args[0]));
      try (TraceSync sync = TraceSync.open(Options.defaults())) {
        System.out.println("reading_program=" + sync.snapshot().getOptions().getReadingProgram());
        System.out.println("in_process_reason=" + sync.snapshot().getOptions().getInProcessReason());
      }
    }
  }

  @Test
  void aLibraryWithoutItsProgramSaysSoAndWarns(@TempDir Path folder) throws Exception {
    Path library = folder.resolve(TestEnvironment.nativeLibrary().getFileName());
    Files.copy(TestEnvironment.nativeLibrary(), library);
    List<String> output = runChild(library);
    String all = String.join("\n", output);
    assertTrue(output.contains("reading_program="), all);
    assertTrue(
        output.stream().anyMatch(line -> line.startsWith("in_process_reason=no tracesync program was found")),
        all);
    assertTrue(all.contains("WARNING") && all.contains("tracesync: no tracesync program was found"), all);
  }

  @Test
  void theLibraryBesideItsProgramNeedsNoReason() throws Exception {
    try (TraceSync sync = TraceSync.open(Options.defaults())) {
      assertEquals("", sync.snapshot().getOptions().getInProcessReason());
    }
    try (TraceSync sync = TraceSync.open(Options.builder().readInProcess().build())) {
      assertEquals("readInProcess() was asked for", sync.snapshot().getOptions().getInProcessReason());
    }
  }

  /** The jars or folders these classes came from (the launcher's class path is not java.class.path). */
  private static String classPathOf(Class<?>... classes) throws java.net.URISyntaxException {
    List<String> entries = new java.util.ArrayList<>();
    for (Class<?> c : classes) {
      entries.add(Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
    }
    return String.join(java.io.File.pathSeparator, entries);
  }

  private static List<String> runChild(Path library)
      throws IOException, InterruptedException, java.net.URISyntaxException {
    Path javaCommand = Path.of(System.getProperty("java.home"), "bin", "java");
    Process child =
        new ProcessBuilder(
                javaCommand.toString(),
                "-cp",
                classPathOf(ReadingProgramMissingTest.class, TraceSync.class, com.google.protobuf.Message.class),
                Child.class.getName(),
                library.toString())
            .redirectErrorStream(true)
            .start();
    byte[] bytes = child.getInputStream().readAllBytes();
    assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child JVM did not finish");
    String text = new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    assertEquals(0, child.exitValue(), text);
    return text.lines().toList();
  }
}
