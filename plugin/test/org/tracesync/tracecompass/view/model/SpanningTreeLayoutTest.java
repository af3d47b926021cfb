// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tracesync.tracecompass.testing.TestSnapshots.VM1;
import static org.tracesync.tracecompass.testing.TestSnapshots.VM2;
import static org.tracesync.tracecompass.testing.TestSnapshots.VM3;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.tracesync.proto.Island;
import org.tracesync.proto.Link;
import org.tracesync.proto.Snapshot;
import org.tracesync.proto.Trace;
import org.tracesync.tracecompass.testing.TestSnapshots;
import org.tracesync.tracecompass.view.model.SpanningTreeLayout.Edge;
import org.tracesync.tracecompass.view.model.SpanningTreeLayout.Node;

class SpanningTreeLayoutTest {
  @Test
  void referenceIsTheRootAndOthersHangBelowIt() {
    SpanningTreeLayout layout = SpanningTreeLayout.of(TestSnapshots.threeHosts());
    Node root = layout.node(VM2).orElseThrow();
    assertTrue(root.reference());
    assertEquals(0, root.depth());
    assertEquals(1, layout.node(VM1).orElseThrow().depth());
    assertEquals(1, layout.node(VM3).orElseThrow().depth());
    assertFalse(layout.node(VM1).orElseThrow().reference());
    assertEquals("VM1", layout.node(VM1).orElseThrow().label());
    // Children in label order, the parent centred over them.
    assertEquals(0.0, layout.node(VM1).orElseThrow().column());
    assertEquals(1.0, layout.node(VM3).orElseThrow().column());
    assertEquals(0.5, root.column());
    assertEquals(2, layout.depths());
  }

  @Test
  void everyLinkBecomesAnEdgeAndOnlyTreeLinksAreTreeEdges() {
    Snapshot snapshot = TestSnapshots.threeHosts();
    SpanningTreeLayout layout = SpanningTreeLayout.of(snapshot);
    assertEquals(snapshot.getLinksCount(), layout.edges().size());
    for (Edge edge : layout.edges()) {
      Link link = snapshot.getLinks(edge.linkIndex());
      assertEquals(link.getInTree(), edge.inTree());
      assertEquals(java.util.Set.of(link.getA(), link.getB()), java.util.Set.of(edge.from(), edge.to()));
    }
  }

  /** Property: for random forests, tree edges join depth d to d + 1, parents sit over their children, no overlap. */
  @Test
  void randomForestsAreLaidOutAsTrees() {
    Random random = new Random(11);
    for (int round = 0; round < 200; round++) {
      int hosts = 1 + random.nextInt(25);
      Snapshot.Builder snapshot = Snapshot.newBuilder();
      Map<Integer, Integer> islandOf = new HashMap<>();
      List<String> ids = new java.util.ArrayList<>();
      for (int h = 0; h < hosts; h++) {
        ids.add(String.format("host-%03d", h));
        snapshot.addTraces(Trace.newBuilder().setDomain(ids.get(h)).setHostname("h" + h));
      }
      // Each host joins a random earlier one (a tree edge) or starts a new island.
      for (int h = 0; h < hosts; h++) {
        if (h > 0 && random.nextInt(5) > 0) {
          int parent = random.nextInt(h);
          islandOf.put(h, islandOf.get(parent));
          snapshot.addLinks(Link.newBuilder().setA(ids.get(parent)).setB(ids.get(h)).setInTree(true));
        } else {
          islandOf.put(h, islandOf.size() == 0 ? 0 : islandOf.values().stream().mapToInt(i -> i).max().getAsInt() + 1);
        }
      }
      int islands = islandOf.values().stream().mapToInt(i -> i).max().getAsInt() + 1;
      for (int i = 0; i < islands; i++) {
        Island.Builder island = Island.newBuilder().setId(i);
        for (int h = 0; h < hosts; h++) {
          if (islandOf.get(h) == i) island.addDomains(ids.get(h));
        }
        // Any member may be the reference: the layout must re-root the tree there.
        island.setReference(island.getDomains(random.nextInt(island.getDomainsCount())));
        snapshot.addIslands(island);
      }
      SpanningTreeLayout layout = SpanningTreeLayout.of(snapshot.build());
      assertEquals(hosts, layout.nodes().size());
      for (Island island : snapshot.getIslandsList()) {
        Node root = layout.node(island.getReference()).orElseThrow();
        assertTrue(root.reference());
        assertEquals(0, root.depth());
      }
      Map<String, List<Double>> childColumns = new HashMap<>();
      for (Edge edge : layout.edges()) {
        Node parent = layout.node(edge.from()).orElseThrow();
        Node child = layout.node(edge.to()).orElseThrow();
        assertEquals(parent.depth() + 1, child.depth(), "round " + round);
        assertEquals(parent.island(), child.island());
        childColumns.computeIfAbsent(parent.domain(), k -> new java.util.ArrayList<>()).add(child.column());
      }
      for (Map.Entry<String, List<Double>> entry : childColumns.entrySet()) {
        double min = entry.getValue().stream().mapToDouble(d -> d).min().getAsDouble();
        double max = entry.getValue().stream().mapToDouble(d -> d).max().getAsDouble();
        assertEquals((min + max) / 2, layout.node(entry.getKey()).orElseThrow().column(), 1e-9);
      }
      // No two nodes of one depth share a column.
      Map<String, Node> seen = new HashMap<>();
      for (Node node : layout.nodes()) {
        Node other = seen.put(node.depth() + "@" + node.column(), node);
        assertTrue(other == null, "round " + round + ": " + node + " overlaps " + other);
      }
    }
  }

  @Test
  void emptySnapshotHasAnEmptyLayout() {
    SpanningTreeLayout layout = SpanningTreeLayout.of(Snapshot.getDefaultInstance());
    assertTrue(layout.nodes().isEmpty());
    assertEquals(0, layout.depths());
    assertEquals(0.0, layout.columns());
  }
}
