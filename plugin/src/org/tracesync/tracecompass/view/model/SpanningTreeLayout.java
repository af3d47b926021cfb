// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.model;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.tracesync.proto.Island;
import org.tracesync.proto.Link;
import org.tracesync.proto.Snapshot;
import org.tracesync.tracecompass.snapshot.DomainLabels;

/**
 * Where to draw the spanning forest: each island is a tree hung from its reference clock (depth 0), children below
 * their parent, leaves in consecutive columns and each parent centred over its children; islands stand side by side.
 * Positions are in abstract units (columns and depths); a painter scales them to pixels.
 */
public final class SpanningTreeLayout {
  /** A clock domain. {@code column} may be fractional (a parent over an even number of children). */
  public record Node(String domain, String label, int island, boolean reference, int depth, double column) {}

  /**
   * A link between two placed domains. Tree edges join a parent (a depth d node) to a child (depth d + 1); the other
   * links are drawn for context. {@code linkIndex} is the link's position in the snapshot.
   */
  public record Edge(String from, String to, int linkIndex, boolean inTree) {}

  private final Map<String, Node> nodes;
  private final List<Edge> edges;
  private final double columns;
  private final int depths;

  private SpanningTreeLayout(Map<String, Node> nodes, List<Edge> edges) {
    this.nodes = nodes;
    this.edges = List.copyOf(edges);
    this.columns = nodes.values().stream().mapToDouble(Node::column).max().orElse(-1) + 1;
    this.depths = nodes.values().stream().mapToInt(Node::depth).max().orElse(-1) + 1;
  }

  public static SpanningTreeLayout empty() {
    return new SpanningTreeLayout(Map.of(), List.of());
  }

  public static SpanningTreeLayout of(Snapshot snapshot) {
    DomainLabels labels = DomainLabels.of(snapshot);
    Map<String, List<Child>> children = treeChildren(snapshot, labels);
    Map<String, Node> nodes = new LinkedHashMap<>();
    double nextColumn = 0;
    for (Island island : snapshot.getIslandsList()) {
      Placement placement = new Placement(island, labels, children, nodes, nextColumn);
      placement.place(island.getReference(), 0);
      // Domains the tree does not reach (an island without its tree edges) sit beside it at depth 0.
      for (String domain : island.getDomainsList()) {
        if (!nodes.containsKey(domain)) placement.place(domain, 0);
      }
      nextColumn = placement.nextLeaf + 1;  // one empty column between islands
    }
    List<Edge> edges = new ArrayList<>();
    for (int i = 0; i < snapshot.getLinksCount(); i++) {
      Link link = snapshot.getLinks(i);
      Node a = nodes.get(link.getA());
      Node b = nodes.get(link.getB());
      if (a == null || b == null) continue;
      boolean parentIsA = a.depth() <= b.depth();
      edges.add(new Edge(parentIsA ? a.domain() : b.domain(), parentIsA ? b.domain() : a.domain(), i, link.getInTree()));
    }
    return new SpanningTreeLayout(nodes, edges);
  }

  public List<Node> nodes() {
    return List.copyOf(nodes.values());
  }

  public Optional<Node> node(String domain) {
    return Optional.ofNullable(nodes.get(domain));
  }

  public List<Edge> edges() {
    return edges;
  }

  /** Width in columns (0 when empty). */
  public double columns() {
    return columns;
  }

  /** Height in levels (0 when empty). */
  public int depths() {
    return depths;
  }

  private record Child(String domain, String label) {}

  private static Map<String, List<Child>> treeChildren(Snapshot snapshot, DomainLabels labels) {
    // Undirected adjacency over tree links; direction comes from walking down from each reference.
    Map<String, List<Child>> adjacent = new HashMap<>();
    for (Link link : snapshot.getLinksList()) {
      if (!link.getInTree()) continue;
      adjacent.computeIfAbsent(link.getA(), k -> new ArrayList<>())
          .add(new Child(link.getB(), labels.shortLabel(link.getB())));
      adjacent.computeIfAbsent(link.getB(), k -> new ArrayList<>())
          .add(new Child(link.getA(), labels.shortLabel(link.getA())));
    }
    adjacent.values().forEach(list -> list.sort(Comparator.comparing(Child::label).thenComparing(Child::domain)));
    return adjacent;
  }

  /** Places one island: a depth-first walk that gives leaves the next free column and centres parents. */
  private static final class Placement {
    private final Island island;
    private final DomainLabels labels;
    private final Map<String, List<Child>> adjacent;
    private final Map<String, Node> placed;
    private double nextLeaf;

    Placement(Island island, DomainLabels labels, Map<String, List<Child>> adjacent, Map<String, Node> placed,
        double firstColumn) {
      this.island = island;
      this.labels = labels;
      this.adjacent = adjacent;
      this.placed = placed;
      this.nextLeaf = firstColumn;
    }

    /** Places {@code root} and its subtree; iterative so a long chain of hosts cannot overflow the stack. */
    void place(String root, int rootDepth) {
      Map<String, Integer> depth = new HashMap<>();
      Map<String, List<String>> kids = new HashMap<>();
      Deque<String> stack = new ArrayDeque<>();
      depth.put(root, rootDepth);
      stack.push(root);
      List<String> preOrder = new ArrayList<>();
      while (!stack.isEmpty()) {
        String domain = stack.pop();
        preOrder.add(domain);
        List<String> mine = new ArrayList<>();
        for (Child child : adjacent.getOrDefault(domain, List.of())) {
          if (depth.containsKey(child.domain()) || placed.containsKey(child.domain())) continue;
          depth.put(child.domain(), depth.get(domain) + 1);
          mine.add(child.domain());
        }
        kids.put(domain, mine);
        for (int i = mine.size() - 1; i >= 0; i--) stack.push(mine.get(i));  // leftmost child first
      }
      // Leaves take columns in pre-order (left to right); parents are centred afterwards, children first.
      Map<String, Double> column = new HashMap<>();
      for (String domain : preOrder) {
        if (kids.get(domain).isEmpty()) column.put(domain, nextLeaf++);
      }
      for (int i = preOrder.size() - 1; i >= 0; i--) {  // reversed pre-order: children before their parent
        List<String> mine = kids.get(preOrder.get(i));
        if (mine.isEmpty()) continue;
        column.put(preOrder.get(i), (column.get(mine.get(0)) + column.get(mine.get(mine.size() - 1))) / 2);
      }
      for (String domain : preOrder) {
        placed.put(domain, new Node(domain, labels.shortLabel(domain), island.getId(),
            domain.equals(island.getReference()), depth.get(domain), column.get(domain)));
      }
    }
  }
}
