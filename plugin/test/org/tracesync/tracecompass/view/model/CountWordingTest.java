// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.tracesync.proto.Problem;
import org.tracesync.proto.Snapshot;
import org.tracesync.tracecompass.testing.TestSnapshots;

/** Counts shown to the user take the noun's number: "1 problem", never "1 problems" or "1 problem(s)". */
class CountWordingTest {
  @Test
  void oneTakesTheSingularAndEveryOtherCountThePlural() {
    assertEquals("1 problem", CountFormat.of(1, "problem"));
    assertEquals("2 problems", CountFormat.of(2, "problem"));
    assertEquals("0 traces", CountFormat.of(0, "trace"));
    assertEquals("1 copy", CountFormat.of(1, "copy", "copies"));
    assertEquals("3 copies", CountFormat.of(3, "copy", "copies"));
    assertEquals("0 copies", CountFormat.of(0, "copy", "copies"));
  }

  @Test
  void theSummaryOfAResultWithOneOfEachIsSingular() {
    Snapshot three = TestSnapshots.threeHosts();
    Snapshot one = three.toBuilder().clearLinks().addLinks(three.getLinks(0)).setMessages(1)
        .addProblems(Problem.newBuilder().setSource("/traces/vm9/kernel").setMessage("no metadata").setSkipped(true))
        .build();
    assertEquals("3 traces, 1 link (1 in the tree), 1 island, 1 message, 1 problem", SnapshotSummary.of(one));
  }

  @Test
  void theSummaryOfAResultWithSeveralOfEachIsPlural() {
    Snapshot several = TestSnapshots.withPiecesAndAnUnsynchronizedTrace().toBuilder()
        .addProblems(Problem.newBuilder().setSource("/traces/vm8/kernel").setMessage("no metadata"))
        .addProblems(Problem.newBuilder().setSource("/traces/vm9/kernel").setMessage("no metadata"))
        .setComplete(false).build();
    assertEquals("4 traces, 3 links (2 in the tree), 2 islands, " + several.getMessages()
        + " messages, 1 not synchronized, 2 problems, incomplete", SnapshotSummary.of(several));
  }
}
