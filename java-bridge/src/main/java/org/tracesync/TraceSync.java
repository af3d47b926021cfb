// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.tracesync.proto.Snapshot;

/**
 * One synchronization in the native engine: trace directories or matched messages in, a {@link
 * Snapshot} of every trace's transform and every link's bounds out.
 *
 * <pre>{@code
 * try (TraceSync sync = TraceSync.open(Options.defaults())) {
 *   sync.addTrace(Path.of("traces/host1"));
 *   sync.addTrace(Path.of("traces/host2"));
 *   sync.run(null);
 *   for (Trace trace : sync.snapshot().getTracesList()) {
 *     LinearTransform toReference = LinearTransform.of(trace);
 *   }
 * }
 * }</pre>
 *
 * <p>Thread-safe: calls from several threads are serialized by the engine, and different sessions
 * run in parallel. {@link #close()} may be called at any time from any thread: it cancels a run in
 * progress and waits for it. A session that is not closed is freed when it becomes unreachable.
 */
public final class TraceSync implements AutoCloseable {
  private static final Cleaner CLEANER = Cleaner.create();

  private final long handle;
  private final Options options;
  private final Cleaner.Cleanable closer;
  private volatile boolean closed;

  private TraceSync(long handle, Options options) {
    this.handle = handle;
    this.options = options;
    // The action holds the handle, never this object.
    this.closer = CLEANER.register(this, () -> NativeBridge.close(handle));
  }

  /**
   * Opens a session, loading the native library from {@code java.library.path} if no library is
   * loaded yet.
   *
   * @throws IllegalArgumentException when the engine rejects the options (its message says why)
   * @throws UnsatisfiedLinkError when the native library cannot be loaded
   */
  public static TraceSync open(Options options) {
    Objects.requireNonNull(options, "options");
    NativeLibrary.load();
    TraceSync sync = new TraceSync(NativeBridge.open(options.toProto().toByteArray()), options);
    warnWhenReadingInTheJvm(sync, options);
    return sync;
  }

  /**
   * Queues a trace directory (searched recursively for CTF traces) for the next {@link #run}.
   *
   * @throws IOException when the directory does not exist or holds no trace
   */
  public void addTrace(Path traceDirectory) throws IOException {
    Objects.requireNonNull(traceDirectory, "traceDirectory");
    if (traceDirectory.getFileSystem() != FileSystems.getDefault()) {
      throw new IllegalArgumentException(
          traceDirectory + " is not on the default file system: the native engine cannot read it");
    }
    checkOpen();
    try {
      NativeBridge.addTracePath(handle, traceDirectory.toString());
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /**
   * Adds one matched message, for streaming use: each host name is a trace and a clock domain.
   *
   * @param sender the host that sent the message
   * @param sendNs when it was sent, on the sender's clock
   * @param receiver the host that received it
   * @param receiveNs when it was received, on the receiver's clock
   */
  public void addMatch(String sender, long sendNs, String receiver, long receiveNs) {
    Objects.requireNonNull(sender, "sender");
    Objects.requireNonNull(receiver, "receiver");
    checkOpen();
    try {
      NativeBridge.addMatch(handle, sender, sendNs, receiver, receiveNs);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /**
   * Reads every queued trace, matches its packets and feeds the links. The listener (which may be
   * null) hears of the progress and may cancel; the snapshot then holds what was read.
   *
   * @throws IOException when traces had to be skipped, naming them and why; the run completed with
   *     the others and the snapshot holds the result
   * @throws OutOfMemoryError when native memory ran out while reading traces, naming them (not
   *     their fault: they may read well with more memory); the run completed with the others and
   *     the snapshot holds the result
   * @throws IllegalStateException when the session was closed meanwhile
   */
  public void run(ProgressListener listener) throws IOException {
    checkOpen();
    try {
      NativeBridge.run(handle, listener);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** Everything the engine knows now. Matches may still be added afterwards. */
  public Snapshot snapshot() {
    checkOpen();
    byte[] bytes;
    try {
      bytes = NativeBridge.snapshot(handle);
    } finally {
      Reference.reachabilityFence(this);
    }
    return parse(bytes);
  }

  private static Snapshot parse(byte[] bytes) {
    try {
      return Snapshot.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(
          "the native library sent a snapshot this jar cannot parse (a library and a jar of"
              + " different builds?)",
          e);
    }
  }

  /**
   * Follows LTTng live sessions ({@code net://HOST[:PORT]/host/HOSTNAME/SESSION}) and trace folders
   * being written, as {@code tracesync live} does (docs/live.md), and blocks until every one has
   * ended: {@code listener} hears each new result on this thread, and the final result is returned
   * (on the same events, what a sync of the recorded traces gives with the same match horizon). The
   * sources are synchronized in a session of their own, with this session's options (matching,
   * messages, clock model) and {@code options}' (live's defaults where not set: a 1 min match
   * horizon unless this session's options or {@code options} give one); this session's traces and
   * snapshot are left alone.
   *
   * @throws IllegalArgumentException a source that is neither a session URL nor a folder, or an
   *     option the engine refuses (naming it)
   * @throws IllegalStateException {@link #close()} was called, from any thread (the listener
   *     included): following stopped
   */
  public Snapshot follow(List<String> sources, FollowOptions options, LiveListener listener) {
    Objects.requireNonNull(sources, "sources");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(listener, "listener");
    checkOpen();
    Duration horizon =
        options.matchHorizon().isZero()
            ? Duration.ofNanos(this.options.toProto().getMatchHorizonNs())
            : options.matchHorizon();
    byte[] bytes;
    try {
      bytes =
          NativeBridge.follow(
              handle,
              sources.toArray(new String[0]),
              nanoseconds(options.interval(), "interval"),
              nanoseconds(options.quiet(), "quiet"),
              nanoseconds(options.waitFor(), "wait"),
              nanoseconds(horizon, "matchHorizon"),  // zero: live's default
              serialized -> listener.onResult(parse(serialized)));
    } finally {
      Reference.reachabilityFence(this);
    }
    return parse(bytes);
  }

  /**
   * {@link #follow(List, FollowOptions, LiveListener)} with these durations and the default match
   * horizon (this session's, if its options set one, else live's 1 min).
   *
   * @param interval at most one result per interval
   * @param quiet a folder to which nothing was written for this long has ended
   * @param wait a session or folder not there yet (a host joining late) is looked for this long
   */
  public Snapshot follow(
      List<String> sources, Duration interval, Duration quiet, Duration wait, LiveListener listener) {
    return follow(
        sources,
        FollowOptions.builder().interval(interval).quiet(quiet).waitFor(wait).build(),
        listener);
  }

  private static long nanoseconds(Duration duration, String what) {
    try {
      return duration.toNanos();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          what + " " + duration + " does not fit in 64-bit nanoseconds", e);
    }
  }

  /** Frees the native session; waits for, and cancels, a run in progress. Idempotent. */
  @Override
  public void close() {
    closed = true;
    closer.clean();
  }

  /**
   * Traces read in the JVM lose the protection of reading processes: say so when
   * the caller did not ask for it (the engine found no {@code tracesync} program).
   * The snapshot's options carry the same words ({@code getInProcessReason()}).
   */
  private static void warnWhenReadingInTheJvm(TraceSync sync, Options options) {
    if (options.toProto().getInProcess()) return;
    String reason = sync.snapshot().getOptions().getInProcessReason();
    if (!reason.isEmpty()) {
      System.getLogger("org.tracesync").log(System.Logger.Level.WARNING, "tracesync: " + reason);
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("this tracesync session is closed");
    }
  }
}
