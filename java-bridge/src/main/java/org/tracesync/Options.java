// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import org.tracesync.proto.EngineOptions;

/**
 * What a session is opened with, as the engine's {@code tracesync.v1.EngineOptions}. Anything not
 * set keeps the engine's default (the exact hull, 3 s windows, 90 % confidence, the incremental
 * network, the {@code tc} match key, a 10 min match horizon, one reading job per core). The engine
 * validates the options when a session is opened: {@link TraceSync#open(Options)} throws {@link
 * IllegalArgumentException} with its message.
 *
 * <p>Immutable; built with {@link #builder()}.
 */
public final class Options {
  private final EngineOptions proto;

  private Options(EngineOptions proto) {
    this.proto = proto;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The engine's defaults. */
  public static Options defaults() {
    return builder().build();
  }

  /** Options as a snapshot reports them, or as {@link #toProto()} gave them. */
  public static Options fromProto(EngineOptions proto) {
    return new Options(Objects.requireNonNull(proto, "proto"));
  }

  /** The options as the engine reads them; zero or empty fields mean "the default". */
  public EngineOptions toProto() {
    return proto;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Options && ((Options) other).proto.equals(proto);
  }

  @Override
  public int hashCode() {
    return proto.hashCode();
  }

  @Override
  public String toString() {
    return "Options{" + proto.toString().trim().replace('\n', ' ') + "}";
  }

  /** Sets options one by one; each setter replaces an earlier value except the repeatable ones. */
  public static final class Builder {
    private final EngineOptions.Builder proto = EngineOptions.newBuilder();

    private Builder() {}

    /**
     * The link estimator: {@code hull} (exact, the default), {@code linreg}, {@code
     * window-independent}, {@code window-replace} or {@code window-correlated}.
     */
    public Builder algorithm(String algorithm) {
      proto.setAlgorithm(Objects.requireNonNull(algorithm, "algorithm"));
      return this;
    }

    /** The window length of the window-* estimators; zero means the default (3 s). */
    public Builder window(Duration window) {
      proto.setWindowNs(nanoseconds(window, "window"));
      return this;
    }

    /** linreg's confidence level in percent: 90, 95 or 99; zero means the default (90). */
    public Builder confidence(int percent) {
      proto.setConfidence(percent / 100.0);
      return this;
    }

    /** {@code incremental} (the default) or {@code baseline}. */
    public Builder network(String network) {
      proto.setNetwork(Objects.requireNonNull(network, "network"));
      return this;
    }

    /**
     * {@code piecewise} (the default): each link's messages in segments, each trace's transform in
     * pieces ({@link PiecewiseTransform}) with a bound at every instant; or {@code linear}: one
     * line per link, Trace Compass's model. The engine rejects any other name.
     */
    public Builder clockModel(String clockModel) {
      proto.setClockModel(Objects.requireNonNull(clockModel, "clockModel"));
      return this;
    }

    /**
     * The clock-stability assumption the bounds rest on, in parts per million (see the engine's
     * docs/clock-model.md). Not called: the engine's default, 100 ppm; zero takes the clocks to
     * be linear, as {@code tracesync sync --clock-stability 0} does.
     *
     * @throws IllegalArgumentException when {@code ppm} is negative, NaN or infinite
     */
    public Builder clockStabilityPpm(double ppm) {
      if (!Double.isFinite(ppm) || ppm < 0) {
        throw new IllegalArgumentException(
            "the clock stability must be a rate of 0 ppm or more, not " + ppm);
      }
      proto.setClockStabilityPpm(ppm);
      return this;
    }

    /**
     * Makes this clock domain (its id, hostname or trace name) the reference of its island.
     * Repeatable: one per island.
     */
    public Builder reference(String domain) {
      proto.addForcedReferences(Objects.requireNonNull(domain, "reference"));
      return this;
    }

    /** How packets are paired: {@code tc} (the default) or {@code strict}. */
    public Builder matchKey(String matchKey) {
      proto.setMatchKey(Objects.requireNonNull(matchKey, "matchKey"));
      return this;
    }

    /**
     * How long an unmatched packet waits for its other end; zero means the default (10 min).
     */
    public Builder matchHorizon(Duration horizon) {
      proto.setMatchHorizonNs(nanoseconds(horizon, "matchHorizon"));
      return this;
    }

    /** How many traces are read at once; zero (the default) means one per core. */
    public Builder jobs(int jobs) {
      if (jobs < 0) {
        throw new IllegalArgumentException("jobs must be zero (one per core) or positive, not " + jobs);
      }
      proto.setJobs(jobs);
      return this;
    }

    /**
     * Reads each trace in a process of its own, this {@code tracesync} executable run as {@code
     * tracesync read-trace}, rather than in this JVM. babeltrace2 aborts on some damaged traces and
     * loops forever on others; read in the JVM, that ends the JVM or a run that never returns.
     * Read by a reading process, the trace is reported as skipped (with babeltrace2's words), the
     * rest is synchronized, and cancelling (a {@link ProgressListener} returning {@code false}, or
     * {@link TraceSync#close()}) ends a run stuck on such a trace at once. The engine checks, when a
     * session is opened, that the file is executable.
     *
     * <p>Without it, the engine uses the {@code tracesync} that came with {@code
     * libtracesync_jni.so} (in its folder, or in {@code ../bin} from it) when there is one; a
     * snapshot's options name the program used.
     */
    public Builder readingProgram(Path tracesync) {
      proto.setReadingProgram(
          Objects.requireNonNull(tracesync, "tracesync").toAbsolutePath().normalize().toString());
      return this;
    }

    /**
     * Skips a trace that babeltrace2 is still opening after this long (it loops forever opening
     * some damaged traces; a very large trace may also take long): its reading process is killed
     * and the run goes on with the others. Needs traces read by a reading program (the default when
     * one came with the library; see {@link #readingProgram(Path)}). Zero, the default: no limit.
     */
    public Builder openTimeout(Duration timeout) {
      proto.setOpenTimeoutNs(nanoseconds(timeout, "openTimeout"));
      return this;
    }

    /**
     * Reads traces in this JVM even when a reading program is known: a little less overhead, and
     * none of {@link #readingProgram(Path)}'s protection. Not to be combined with it.
     */
    public Builder readInProcess() {
      proto.setInProcess(true);
      return this;
    }

    /**
     * Also matches an application's own messages, as {@code tracesync sync --messages SPEC}: {@code
     * [name=NAME,]send=EVENT,recv=EVENT,key=FIELD[+FIELD...]}, for example {@code
     * send=myapp:msg_send,recv=myapp:msg_recv,key=msg_id} (the engine's docs/app-messages.md).
     * Repeatable, one kind each; kinds are numbered in the order given, then those of {@link
     * #messagesFile(Path)}. A spec that does not parse makes {@link TraceSync#open} throw an
     * {@link IllegalArgumentException} naming it.
     */
    public Builder messages(String spec) {
      proto.addMessageKinds(
          org.tracesync.proto.MessageKind.newBuilder()
              .setSpec(Objects.requireNonNull(spec, "messages")));
      return this;
    }

    /**
     * Reads message specs (see {@link #messages(String)}) from a file, one a line; blank lines and
     * lines beginning with {@code #} are skipped. Repeatable.
     */
    public Builder messagesFile(Path file) {
      proto.addMessagesFiles(
          Objects.requireNonNull(file, "messagesFile").toAbsolutePath().normalize().toString());
      return this;
    }

    /**
     * Also uses a signal every host records at one true instant, as {@code tracesync sync
     * --simultaneous SPEC}: {@code
     * [name=NAME,]event=EVENT[,filter=FIELD==VALUE],jitter=DURATION[,clocks-within=DURATION]}, for
     * example {@code event=irq_handler_entry,filter=irq==199,jitter=1us} (the engine's
     * docs/signals.md). Repeatable, one signal each; then those of {@link
     * #simultaneousFile(Path)}. A spec that does not parse makes {@link TraceSync#open} throw an
     * {@link IllegalArgumentException} naming it; what the signal paired is in each link's {@code
     * signals}.
     */
    public Builder simultaneous(String spec) {
      proto.addSimultaneous(Objects.requireNonNull(spec, "simultaneous"));
      return this;
    }

    /**
     * Reads signal specs (see {@link #simultaneous(String)}) from a file, one a line; blank lines
     * and lines beginning with {@code #} are skipped. Repeatable.
     */
    public Builder simultaneousFile(Path file) {
      proto.addSimultaneousFiles(
          Objects.requireNonNull(file, "simultaneousFile").toAbsolutePath().normalize().toString());
      return this;
    }

    /**
     * The TCP port {@code tracesync probe --listen} used, as {@code tracesync sync --probe-port}:
     * kernel traces' segments from or to it are counted as the probe's rounds (each link's
     * evidence, the matching's {@code probe_matches}; the engine's docs/probe.md). Repeatable.
     *
     * @throws IllegalArgumentException when the port is not 1 to 65535
     */
    public Builder probePort(int port) {
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException("a probe port must be 1 to 65535, not " + port);
      }
      proto.addProbePorts(port);
      return this;
    }

    /**
     * Which CTF reader reads the traces, as {@code tracesync sync --reader}: {@code auto} (the
     * default: tracesync's own scanner where it covers a trace, babeltrace2 otherwise), {@code
     * scanner} or {@code babeltrace2}. The engine rejects any other name.
     */
    public Builder reader(String reader) {
      proto.setReader(Objects.requireNonNull(reader, "reader"));
      return this;
    }

    /** Puts this trace (its path or name) in this clock domain, whatever its metadata says. */
    public Builder domainOverride(String trace, String domain) {
      proto.putDomainOverrides(
          Objects.requireNonNull(trace, "trace"), Objects.requireNonNull(domain, "domain"));
      return this;
    }

    public Options build() {
      return new Options(proto.build());
    }

    private static long nanoseconds(Duration duration, String what) {
      Objects.requireNonNull(duration, what);
      try {
        return duration.toNanos();
      } catch (ArithmeticException e) {
        throw new IllegalArgumentException(
            what + " " + duration + " does not fit in 64-bit nanoseconds", e);
      }
    }
  }
}
