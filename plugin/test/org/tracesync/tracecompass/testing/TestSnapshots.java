// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.testing;

import java.math.BigDecimal;
import java.math.MathContext;
import org.tracesync.proto.Island;
import org.tracesync.proto.Link;
import org.tracesync.proto.Snapshot;
import org.tracesync.proto.Trace;

/** Snapshots as the engine writes them, built from {@link LinkFixture}'s brute-force links. */
public final class TestSnapshots {
  public static final String VM1 = "11111111-aaaa-4aaa-8aaa-000000000001";
  public static final String VM2 = "22222222-bbbb-4bbb-8bbb-000000000002";
  public static final String VM3 = "33333333-cccc-4ccc-8ccc-000000000003";

  private TestSnapshots() {}

  /**
   * Three hosts on one island: VM1 - VM2 - VM3 in the tree (VM2 the reference, the tree's centre) and a VM1 - VM3
   * link left out of it. Traces are at /traces/vmN/kernel.
   */
  public static Snapshot threeHosts() {
    Link vm1vm2 = LinkFixture.link(VM1, VM2,
        LinkFixture.exchange(1, 40, 10_000_000_000L, new BigDecimal("1.000003"), 1_250_000), true);
    Link vm2vm3 = LinkFixture.link(VM2, VM3,
        LinkFixture.exchange(2, 40, 10_000_000_000L, new BigDecimal("0.999998"), -730_000), true);
    Link vm1vm3 = LinkFixture.link(VM1, VM3,
        LinkFixture.exchange(3, 6, 10_000_000_000L, new BigDecimal("1.000001"), 520_000), false);
    BigDecimal alpha12 = new BigDecimal(vm1vm2.getAlpha().getExact());
    BigDecimal beta12 = new BigDecimal(vm1vm2.getBeta().getExact());
    BigDecimal alpha23 = new BigDecimal(vm2vm3.getAlpha().getExact());
    BigDecimal beta23 = new BigDecimal(vm2vm3.getBeta().getExact());
    return Snapshot.newBuilder().setFormatVersion(1)
        .addTraces(trace("vm1-kernel", "/traces/vm1/kernel", "VM1", VM1, false, alpha12, beta12))
        .addTraces(trace("vm2-kernel", "/traces/vm2/kernel", "VM2", VM2, true, BigDecimal.ONE, BigDecimal.ZERO))
        .addTraces(trace("vm3-kernel", "/traces/vm3/kernel", "VM3", VM3, false,
            BigDecimal.ONE.divide(alpha23, MathContext.DECIMAL128),
            beta23.negate().divide(alpha23, MathContext.DECIMAL128)))
        .addLinks(vm1vm2).addLinks(vm1vm3).addLinks(vm2vm3)
        .addIslands(Island.newBuilder().setId(0).setReference(VM2).addDomains(VM1).addDomains(VM2).addDomains(VM3))
        .setMessages(vm1vm2.getMessages() + vm2vm3.getMessages() + vm1vm3.getMessages()).setComplete(true).build();
  }

  /**
   * {@link #threeHosts()} with vm1's transform in three pieces whose bound grows in a gap, and a fourth trace that is
   * not synchronized with the rest (another island).
   */
  public static Snapshot withPiecesAndAnUnsynchronizedTrace() {
    Snapshot base = threeHosts();
    Trace vm1 = base.getTraces(0);
    long first = vm1.getFirstNs();
    long[] cuts = {first, first + 3_000_000_000L, first + 7_000_000_000L, vm1.getLastNs()};
    double[] bounds = {2_000, 800, 900, 45_000, 40_000, 1_200};
    Trace.Builder pieced = vm1.toBuilder().setUncertaintyNs(45_000);
    for (int i = 0; i < 3; i++) {
      pieced.addSegments(org.tracesync.proto.Segment.newBuilder().setFirstNs(cuts[i]).setLastNs(cuts[i + 1])
          .setSlope(vm1.getSlope()).setOffset(vm1.getOffset()).setUncertaintyFirstNs(bounds[2 * i])
          .setUncertaintyLastNs(bounds[2 * i + 1]));
    }
    Trace lonely = trace("vm4-kernel", "/traces/vm4/kernel", "VM4", "44444444-dddd-4ddd-8ddd-000000000004", true,
        BigDecimal.ONE, BigDecimal.ZERO).toBuilder().setIsland(1).setSynchronized(false)
        .setUnsynchronizedReason("its only link (with VM3) is one-way").build();
    return base.toBuilder().setTraces(0, pieced.setSynchronized(true)).addTraces(lonely)
        .addIslands(Island.newBuilder().setId(1).setReference(lonely.getDomain()).addDomains(lonely.getDomain()))
        .build();
  }

  public static Trace trace(String name, String path, String host, String domain, boolean reference, BigDecimal slope,
      BigDecimal offset) {
    return Trace.newBuilder().setName(name).setPath(path).setHostname(host).setDomain(domain).setIsland(0)
        .setReference(reference).setSlope(LinkFixture.decimal(slope)).setOffset(LinkFixture.decimal(offset))
        .setFirstNs(LinkFixture.EPOCH_NS).setLastNs(LinkFixture.EPOCH_NS + 10_000_000_000L).setEvents(1000).build();
  }
}
