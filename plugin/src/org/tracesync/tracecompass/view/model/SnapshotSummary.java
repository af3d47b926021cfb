// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.model;

import org.tracesync.proto.Link;
import org.tracesync.proto.Snapshot;

/**
 * The one line the Trace Synchronization view shows above a result: "2 traces, 1 link (1 in the tree), 1 island,
 * 46 messages", then what is wrong with it, if anything.
 */
public final class SnapshotSummary {
  private SnapshotSummary() {}

  public static String of(Snapshot result) {
    long inTree = result.getLinksList().stream().filter(Link::getInTree).count();
    StringBuilder text = new StringBuilder();
    text.append(CountFormat.of(result.getTracesCount(), "trace")).append(", ")
        .append(CountFormat.of(result.getLinksCount(), "link")).append(" (").append(inTree).append(" in the tree), ")
        .append(CountFormat.of(result.getIslandsCount(), "island")).append(", ")
        .append(CountFormat.of(result.getMessages(), "message"));
    long unsynchronized = TraceTableModel.of(result).rows().stream().filter(r -> !r.isSynchronized()).count();
    if (unsynchronized > 0) text.append(", ").append(unsynchronized).append(" not synchronized");
    if (result.getProblemsCount() > 0) text.append(", ").append(CountFormat.of(result.getProblemsCount(), "problem"));
    if (!result.getComplete()) text.append(", incomplete");
    return text.toString();
  }
}
