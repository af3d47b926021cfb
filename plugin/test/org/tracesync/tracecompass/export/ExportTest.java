// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.tracecompass.sync.ReferenceChoice;

class ExportTest {
  private static final Path PROGRAM = Path.of("/bundle/lib/linux/x86_64/tracesync");

  /** A manifest as tracesync apply 0.2.0 wrote it (trimmed): host1 and host0 copied, host2 outside the island. */
  private static final String MANIFEST = """
      {
        "format": "tracesync-manifest/1",
        "tracesync_version": "0.2.0",
        "command_line": ["tracesync", "apply", "--output", "/out"],
        "complete": true,
        "traces": [
          {"name": "kernel", "input": "/t/sim2/host1/kernel", "output": "kernel", "hostname": "host1",
           "reference": true, "synchronized": true, "span_ns": [1767225600324981806, 1767225610318852470],
           "transform": [{"slope": "1.000000000000000000000000000000000", "offset": "0",
                          "uncertainty_first_ns": 0.0, "uncertainty_last_ns": 7.5e-1}]},
          {"name": "kernel", "input": "/t/sim2/host0/kernel/", "output": "kernel-2", "hostname": "host0",
           "reference": false, "synchronized": true},
          {"name": "kernel", "input": "/t/sim2/host2/kernel", "output": null, "hostname": "h\\u00f6st2",
           "synchronized": false, "note": "outside the main island: no link with usable messages"}
        ],
        "problems": [{"input": "/t/sim2/broken", "skipped": true, "reason": "babeltrace2: no \\"metadata\\""}]
      }
      """;

  @Test
  void theCommandLinePutsOptionsBeforeTheTracesAndNamesTheChosenReference() {
    ApplyCommand automatic = new ApplyCommand(PROGRAM, List.of("/t/h0/kernel", "/t/h1/kernel"), Path.of("/out"),
        ReferenceChoice.automatic(), false);
    assertEquals(List.of("/bundle/lib/linux/x86_64/tracesync", "apply", "--output", "/out", "/t/h0/kernel",
        "/t/h1/kernel"), automatic.arguments());
    assertEquals(Path.of("/out/tracesync-manifest.json"), automatic.manifest());

    ApplyCommand chosen = new ApplyCommand(PROGRAM, List.of("/t/h0/kernel", "/t/h1/kernel"), Path.of("/out"),
        ReferenceChoice.trace("h1/kernel", "/t/h1/kernel"), true);
    assertEquals(List.of("/bundle/lib/linux/x86_64/tracesync", "apply", "--output", "/out", "--force",
        "--reference", "/t/h1/kernel", "/t/h0/kernel", "/t/h1/kernel"), chosen.arguments());
    assertThrows(IllegalArgumentException.class,
        () -> new ApplyCommand(PROGRAM, List.of(), Path.of("/out"), ReferenceChoice.automatic(), false));
  }

  @Test
  void everyDocumentedExitCodeHasItsMeaning() {
    assertEquals(ApplyExit.Severity.OK, ApplyExit.of(0).severity());
    assertTrue(ApplyExit.of(0).copiesWritten());
    for (int partial : new int[] {3, 4}) {
      assertEquals(ApplyExit.Severity.WARNING, ApplyExit.of(partial).severity(), "code " + partial);
      assertTrue(ApplyExit.of(partial).copiesWritten(), "code " + partial + ": the other traces were copied");
    }
    assertTrue(ApplyExit.of(3).message().contains("could not be read"));
    assertTrue(ApplyExit.of(4).message().contains("not synchronized with the rest"));
    for (int failed : new int[] {1, 2}) {
      assertEquals(ApplyExit.Severity.ERROR, ApplyExit.of(failed).severity(), "code " + failed);
      assertFalse(ApplyExit.of(failed).copiesWritten(), "code " + failed + ": apply writes nothing");
      assertTrue(ApplyExit.of(failed).message().endsWith("nothing was written"));
    }
    assertEquals(ApplyExit.Severity.CANCELLED, ApplyExit.of(130).severity());
    assertEquals("stopped by signal 15: nothing was written", ApplyExit.of(143).message());
    assertFalse(ApplyExit.of(143).copiesWritten());
    assertEquals(ApplyExit.Severity.ERROR, ApplyExit.of(5).severity(), "check-truth's code is not apply's");
    assertEquals("tracesync ended with unknown exit code 5", ApplyExit.of(5).message());
  }

  @Test
  void theManifestGivesEachCopyAndWhyTheOthersHaveNone(@TempDir Path out) throws IOException {
    Files.writeString(out.resolve("tracesync-manifest.json"), MANIFEST);
    ExportManifest manifest = ExportManifest.read(out.resolve("tracesync-manifest.json"));
    assertEquals(List.of(new ExportManifest.Copy("/t/sim2/host1/kernel", out.resolve("kernel"), "host1"),
        new ExportManifest.Copy("/t/sim2/host0/kernel/", out.resolve("kernel-2"), "host0")), manifest.copies());
    assertEquals(List.of("/t/sim2/host2/kernel: outside the main island: no link with usable messages",
        "/t/sim2/broken: babeltrace2: no \"metadata\""), manifest.withoutCopy());
  }

  @Test
  void aDamagedManifestIsAnIOExceptionNamingTheFile(@TempDir Path out) throws IOException {
    Path file = out.resolve("tracesync-manifest.json");
    Files.writeString(file, MANIFEST.substring(0, MANIFEST.length() / 2));
    IOException e = assertThrows(IOException.class, () -> ExportManifest.read(file));
    assertTrue(e.getMessage().startsWith(file + ": not a tracesync manifest: JSON: "), e.getMessage());
    Files.writeString(file, "{\"format\": \"something-else/1\", \"traces\": []}");
    e = assertThrows(IOException.class, () -> ExportManifest.read(file));
    assertTrue(e.getMessage().contains("unknown format something-else/1"), e.getMessage());
  }

  @Test
  void theCopiesOpenUnderTheOriginalsNamesInAFreshFolderAndExperiment() {
    ExportManifest manifest = ExportManifest.parse(MANIFEST, Path.of("/out"));
    Map<String, String> originals = new LinkedHashMap<>();
    originals.put("host0/kernel_", "/t/sim2/host0/kernel");  // a trailing '/' in the manifest is the same folder
    originals.put("host1/kernel", "/t/sim2/host1/kernel");
    originals.put("host2/kernel", "/t/sim2/host2/kernel");  // no copy
    CopiesExperiment plan = CopiesExperiment.plan("sim2", originals, manifest,
        Set.of("sim2-synchronized")::contains, Set.of("sim2-synchronized", "sim2-synchronized-2")::contains);
    assertEquals("sim2-synchronized-2", plan.folder());
    assertEquals("sim2-synchronized-3", plan.experiment());
    assertEquals(List.of(new CopiesExperiment.Link("host0/kernel_", Path.of("/out/kernel-2"), "host0/kernel_"),
        new CopiesExperiment.Link("host1/kernel", Path.of("/out/kernel"), "host1/kernel")), plan.links());
  }

  @Test
  void theProposedFolderIsNewAndATypedFolderMustNotBeOrHoldATrace(@TempDir Path home) throws IOException {
    assertEquals(home.resolve("sim2-synchronized"), ExportFolder.proposal(home, "sim2"));
    Files.createDirectory(home.resolve("sim2-synchronized"));
    assertEquals(home.resolve("sim2-synchronized-2"), ExportFolder.proposal(home, "sim2"));

    List<String> traces = List.of("/t/sim2/host0/kernel", "/t/sim2/host1/kernel");
    assertEquals(Optional.empty(), ExportFolder.problem(home.resolve("sim2-synchronized").toString(), traces));
    assertEquals(Optional.empty(), ExportFolder.problem("/t/sim2-out", traces, folder -> true),
        "a sibling of the traces is fine");
    assertEquals(Optional.of("Enter the folder to write the copies to."), ExportFolder.problem("  ", traces));
    assertEquals(Optional.of("Enter an absolute path."), ExportFolder.problem("out", traces));
    assertEquals(Optional.of("The copies cannot go inside the trace /t/sim2/host0/kernel."),
        ExportFolder.problem("/t/sim2/host0/kernel/out", traces));
    assertEquals(Optional.of("The folder holds the trace /t/sim2/host0/kernel: choose another."),
        ExportFolder.problem("/t/sim2/", traces));
    Files.writeString(home.resolve("file"), "x");
    assertEquals(Optional.of(home.resolve("file") + " is a file."),
        ExportFolder.problem(home.resolve("file").toString(), traces));
  }

  @Test
  void aFolderWhoseParentCannotBeWrittenInIsRefusedAtOnce(@TempDir Path home) throws IOException {
    List<String> traces = List.of("/t/sim2/host0/kernel", "/t/sim2/host1/kernel");
    Path readOnly = Files.createDirectory(home.resolve("ro"));
    // The copies are staged beside the folder: its nearest existing ancestor is what must be writable.
    assertEquals(Optional.of(readOnly + " cannot be written in (read-only, or no permission): choose another folder."),
        ExportFolder.problem(readOnly.resolve("out/deeper").toString(), traces, folder -> !folder.equals(readOnly)));
    assertEquals(Optional.empty(),
        ExportFolder.problem(readOnly.toString(), traces, folder -> !folder.equals(readOnly)),
        "the read-only folder itself is replaced from its writable parent");
    assertEquals(Optional.empty(), ExportFolder.problem(home.resolve("new/out").toString(), traces),
        "a new folder under a writable temporary folder, with the file system's own answer");
    Files.writeString(home.resolve("file"), "x");
    assertEquals(Optional.of(home.resolve("file") + " is a file."),
        ExportFolder.problem(home.resolve("file/out").toString(), traces, folder -> true));
  }

  @Test
  void theQuestionBeforeReplacingAFolderSaysWhatItHolds(@TempDir Path home) throws IOException {
    Path folder = Files.createDirectory(home.resolve("out"));
    assertEquals("", ExportFolder.contents(folder));
    Files.writeString(folder.resolve("notes.txt"), "keep?");
    assertEquals("notes.txt", ExportFolder.contents(folder));
    Files.createDirectory(folder.resolve("kernel"));
    Files.writeString(folder.resolve("a.txt"), "");
    assertEquals("a.txt, kernel and notes.txt", ExportFolder.contents(folder));
    for (String name : List.of("b", "c", "d", "e")) Files.writeString(folder.resolve(name), "");
    assertEquals("a.txt, b, c, d, e and 2 more", ExportFolder.contents(folder));
  }

  @Test
  void applysErrorsAreShownWithoutTheHintAtItsCommandLine() {
    List<String> stderr = List.of("tracesync apply: cannot write --output /ro/out (in /ro): Read-only file system",
        "Try 'tracesync apply --help'.", "");
    assertEquals("tracesync apply: cannot write --output /ro/out (in /ro): Read-only file system",
        ApplyStderr.forUser(stderr, 20));
    List<String> many = List.of("one", "two", "", "three", "four");
    assertEquals("three\nfour", ApplyStderr.forUser(many, 2));
    assertEquals("", ApplyStderr.forUser(List.of(), 20));
  }
}
