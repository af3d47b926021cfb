// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.core;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.util.Map;
import java.util.Optional;
import org.eclipse.tracecompass.tmf.core.event.matching.TmfEventDependency;
import org.eclipse.tracecompass.tmf.core.synchronization.ITmfTimestampTransform;
import org.eclipse.tracecompass.tmf.core.synchronization.SynchronizationAlgorithm;
import org.eclipse.tracecompass.tmf.core.synchronization.TimestampTransformFactory;
import org.eclipse.tracecompass.tmf.core.trace.ITmfTrace;
import org.tracesync.Options;
import org.tracesync.TraceSync;
import org.tracesync.proto.Link;
import org.tracesync.proto.Snapshot;
import org.tracesync.proto.Trace;
import org.tracesync.tracecompass.stats.LinkStatistics;
import org.tracesync.tracecompass.sync.SnapshotTraces;
import org.tracesync.tracecompass.sync.TraceTransform;
import org.tracesync.tracecompass.view.model.CountFormat;

/**
 * A Trace Compass synchronization algorithm backed by tracesync. Made from a snapshot, it answers everything Trace
 * Compass asks of an algorithm from that snapshot: the statistics its Synchronization view shows, each trace's
 * transform, link qualities. Handed to Trace Compass's own event matching instead, it forwards each match to a native
 * session and takes the snapshot when matching ends.
 *
 * <p>It is serializable, as Trace Compass requires: the snapshot travels as its protobuf bytes.
 */
public class TracesyncAlgorithm extends SynchronizationAlgorithm {
  private static final long serialVersionUID = 5170213395587419201L;

  private byte[] snapshotBytes;
  private transient Snapshot snapshot;
  private transient TraceSync matchSession;
  private transient boolean matchSessionFailed;

  /** An algorithm waiting for Trace Compass's event matching to feed it. */
  public TracesyncAlgorithm() {
    this(Snapshot.getDefaultInstance());
  }

  /** An algorithm holding a finished synchronization. */
  public TracesyncAlgorithm(Snapshot snapshot) {
    this.snapshot = snapshot;
    this.snapshotBytes = snapshot.toByteArray();
    snapshot.getTracesList().stream().filter(Trace::getReference).findFirst()
        .ifPresent(reference -> setRootNode(reference.getHostname()));
  }

  public synchronized Snapshot snapshot() {
    return snapshot;
  }

  @Override
  protected synchronized void processMatch(TmfEventDependency match) {
    TraceSync session = matchSession();
    if (session == null) return;
    session.addMatch(match.getSource().getTrace().getHostId(), match.getSource().getTimestamp().toNanos(),
        match.getDestination().getTrace().getHostId(), match.getDestination().getTimestamp().toNanos());
  }

  @Override
  public synchronized void matchingEnded() {
    super.matchingEnded();
    if (matchSession == null) return;
    try (TraceSync session = matchSession) {
      snapshot = session.snapshot();
      snapshotBytes = snapshot.toByteArray();
    } finally {
      matchSession = null;
    }
  }

  @Override
  public Map<String, Map<String, Object>> getStats() {
    return LinkStatistics.of(snapshot());
  }

  @Override
  public ITmfTimestampTransform getTimestampTransform(ITmfTrace trace) {
    Optional<TraceTransform> byPath = trace.getPath() == null ? Optional.empty()
        : new SnapshotTraces(snapshot()).transformAt(trace.getPath());
    return byPath.map(TraceCompassTransforms::of).orElseGet(() -> getTimestampTransform(trace.getHostId()));
  }

  @Override
  public ITmfTimestampTransform getTimestampTransform(String hostId) {
    return traceOfHost(hostId).map(t -> TraceCompassTransforms.of(TraceTransform.of(t)))
        .orElse(TimestampTransformFactory.getDefaultTransform());
  }

  @Override
  public SyncQuality getSynchronizationQuality(ITmfTrace trace1, ITmfTrace trace2) {
    Optional<String> a = domainOf(trace1);
    Optional<String> b = domainOf(trace2);
    if (a.isEmpty() || b.isEmpty()) return SyncQuality.ABSENT;
    if (a.get().equals(b.get())) return SyncQuality.ACCURATE;  // one clock: nothing to estimate
    for (Link link : snapshot().getLinksList()) {
      boolean joins = (link.getA().equals(a.get()) && link.getB().equals(b.get()))
          || (link.getA().equals(b.get()) && link.getB().equals(a.get()));
      if (joins) return quality(link);
    }
    return SyncQuality.ABSENT;
  }

  @Override
  public boolean isTraceSynced(String hostId) {
    return traceOfHost(hostId).map(t -> !TraceTransform.of(t).isIdentity()).orElse(false);
  }

  @Override
  public String toString() {
    Snapshot s = snapshot();
    return "TracesyncAlgorithm [" + CountFormat.of(s.getTracesCount(), "trace") + ", "
        + CountFormat.of(s.getLinksCount(), "link") + "]";
  }

  private Optional<String> domainOf(ITmfTrace trace) {
    if (trace.getPath() != null) {
      Optional<Trace> byPath = new SnapshotTraces(snapshot()).at(trace.getPath()).stream().findFirst();
      if (byPath.isPresent()) return byPath.map(Trace::getDomain);
    }
    return traceOfHost(trace.getHostId()).map(Trace::getDomain);
  }

  /** Trace Compass names clocks by host id; tracesync by domain, with the hostname beside it. */
  private Optional<Trace> traceOfHost(String hostId) {
    Snapshot s = snapshot();
    Optional<Trace> byDomain = s.getTracesList().stream().filter(t -> t.getDomain().equals(hostId)).findFirst();
    return byDomain.isPresent() ? byDomain
        : s.getTracesList().stream().filter(t -> t.getHostname().equals(hostId)).findFirst();
  }

  private static SyncQuality quality(Link link) {
    switch (link.getQuality()) {
      case ACCURATE:
        return SyncQuality.ACCURATE;
      case APPROXIMATE:
        return SyncQuality.APPROXIMATE;
      case INCOMPLETE:
        return SyncQuality.INCOMPLETE;
      case FAIL:
        return SyncQuality.FAIL;
      default:
        return SyncQuality.ABSENT;
    }
  }

  /** The native session that Trace Compass's matches go to; opened on the first match. */
  private TraceSync matchSession() {
    if (matchSession == null && !matchSessionFailed) {
      try {
        NativeEngine.ensureLoaded();
        matchSession = TraceSync.open(Options.builder().build());
      } catch (IOException | RuntimeException e) {
        matchSessionFailed = true;  // said once; the matches that follow are dropped
        Log.error("tracesync cannot take Trace Compass's matches: " + e.getMessage(), e);
      }
    }
    return matchSession;
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    try {
      snapshot = Snapshot.parseFrom(snapshotBytes);
    } catch (InvalidProtocolBufferException e) {
      throw new IOException("the saved tracesync synchronization does not parse: " + e.getMessage(), e);
    }
  }
}
