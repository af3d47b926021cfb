// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.stats;

import static org.tracesync.tracecompass.stats.StatisticNames.*;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import org.tracesync.proto.Island;
import org.tracesync.proto.Link;
import org.tracesync.proto.Snapshot;
import org.tracesync.tracecompass.snapshot.Decimals;
import org.tracesync.tracecompass.snapshot.DomainLabels;
import org.tracesync.tracecompass.snapshot.QualityNames;
import org.tracesync.tracecompass.view.model.NanosecondFormat;

/**
 * The statistics map that Trace Compass's Synchronization view shows (SynchronizationAlgorithm.getStats()): one group
 * per link, in the snapshot's (a, b) order, each with Trace Compass's entries followed by tracesync's. The view prints
 * every value with toString(), so exact values go in as BigDecimal and counts as Long.
 */
public final class LinkStatistics {
  private LinkStatistics() {}

  public static Map<String, Map<String, Object>> of(Snapshot snapshot) {
    DomainLabels labels = DomainLabels.of(snapshot);
    Map<String, Map<String, Object>> groups = new LinkedHashMap<>();
    for (Link link : snapshot.getLinksList()) {
      groups.put(linkKey(labels.fullLabel(link.getA()), labels.fullLabel(link.getB())),
          entries(snapshot, link, labels));
    }
    return groups;
  }

  private static Map<String, Object> entries(Snapshot snapshot, Link link, DomainLabels labels) {
    BigDecimal alpha = Decimals.exactOr(link.getAlpha(), BigDecimal.ONE);
    BigDecimal beta = Decimals.exactOr(link.getBeta(), BigDecimal.ZERO);
    Map<String, Object> e = new LinkedHashMap<>();
    e.put(T0, labels.fullLabel(link.getA()));
    e.put(T1, labels.fullLabel(link.getB()));
    e.put(QUALITY, QualityNames.of(link.getQuality()));
    e.put(ALPHA, alpha);
    e.put(BETA, beta);
    e.put(UPPER_HULL, countOrNotAvailable(link.getUpperHull()));
    e.put(LOWER_HULL, countOrNotAvailable(link.getLowerHull()));
    e.put(ACCURACY, link.hasAccuracy() ? Decimals.exactOr(link.getAccuracy(), BigDecimal.ZERO) : NOT_AVAILABLE);
    e.put(MATCHED_PACKETS, countOrNotAvailable(link.getMessages()));
    e.put(ACCURATE_PACKETS, countOrNotAvailable(link.getAccurateMessages()));
    // Trace Compass writes T1's clock as a function of T0's: C_T1(t) = alpha * T_T0 + beta.
    String t0Clock = "T_" + labels.hostname(link.getA());
    e.put(T0_FORMULA, t0Clock);
    e.put(T1_FORMULA, alpha.toString() + "*" + t0Clock + " + " + beta.toString());
    // In the unit that keeps its digits few ("37.301 ms"), not a double's toString ("3.730064838113866E7").
    e.put(UNCERTAINTY, link.hasUncertaintyNs() ? "\u00b1 " + NanosecondFormat.format(link.getUncertaintyNs()) : "unbounded");
    e.put(IN_TREE, link.getInTree() ? "yes" : "no");
    e.put(REFERENCE, referenceOf(snapshot, link, labels));
    return e;
  }

  private static Object countOrNotAvailable(long count) {
    return count == 0 ? NOT_AVAILABLE : (Object) count;
  }

  /**
   * The reference clock of the link's island. A link that the tree could not use may join two islands: their
   * references are then both named, and the two ends are not comparable.
   */
  private static String referenceOf(Snapshot snapshot, Link link, DomainLabels labels) {
    Island islandOfA = islandOf(snapshot, link.getA());
    Island islandOfB = islandOf(snapshot, link.getB());
    if (islandOfA == null || islandOfB == null) return NOT_AVAILABLE;
    if (islandOfA.getId() == islandOfB.getId()) return describe(islandOfA, labels);
    return describe(islandOfA, labels) + " / " + describe(islandOfB, labels) + " (different islands)";
  }

  private static String describe(Island island, DomainLabels labels) {
    return labels.fullLabel(island.getReference()) + (island.getForced() ? ", chosen" : ", automatic");
  }

  private static Island islandOf(Snapshot snapshot, String domain) {
    for (Island island : snapshot.getIslandsList()) {
      if (island.getDomainsList().contains(domain)) return island;
    }
    return null;
  }
}
