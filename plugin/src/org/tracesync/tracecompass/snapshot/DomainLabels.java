// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.snapshot;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.tracesync.proto.Snapshot;
import org.tracesync.proto.Trace;

/**
 * How a clock domain is shown to people: its hostname, and its id beside it. Domains are keyed by id (a clock UUID,
 * a hostname or a path, see DESIGN.md); people recognise hosts.
 */
public final class DomainLabels {
  private final Map<String, String> hostnameByDomain;
  private final Set<String> sharedHostnames;  // two boots of one host are two domains

  private DomainLabels(Map<String, String> hostnameByDomain) {
    this.hostnameByDomain = hostnameByDomain;
    Map<String, Integer> count = new HashMap<>();
    hostnameByDomain.values().forEach(h -> count.merge(h, 1, Integer::sum));
    this.sharedHostnames = count.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey)
        .collect(Collectors.toUnmodifiableSet());
  }

  public static DomainLabels of(Snapshot snapshot) {
    Map<String, String> hostnames = new LinkedHashMap<>();
    for (Trace trace : snapshot.getTracesList()) {
      if (!trace.getHostname().isEmpty()) hostnames.putIfAbsent(trace.getDomain(), trace.getHostname());
    }
    return new DomainLabels(hostnames);
  }

  /** The hostname of a domain, or its id when no trace of it names a host. */
  public String hostname(String domain) {
    return hostnameByDomain.getOrDefault(domain, domain);
  }

  /** A short label: the hostname, made unique by a prefix of the id when two domains share it. */
  public String shortLabel(String domain) {
    String host = hostname(domain);
    if (!sharedHostnames.contains(host)) return host;
    return host + " [" + domain.substring(0, Math.min(8, domain.length())) + "]";
  }

  /** The full label: "hostname (id)", or the id alone when it is the hostname. */
  public String fullLabel(String domain) {
    String host = hostname(domain);
    return host.equals(domain) ? domain : host + " (" + domain + ")";
  }
}
