// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

import java.time.Duration;
import java.util.Objects;

/**
 * How {@link TraceSync#follow(java.util.List, FollowOptions, LiveListener)} follows, as the options of {@code
 * tracesync live}: anything not set keeps live's default (one result a second at most, a folder with nothing written
 * for 10 s ended, no waiting for a source not there yet, a 1 min match horizon). The engine checks the values when
 * following starts: a bad one is an {@link IllegalArgumentException} naming it.
 *
 * <p>Immutable; built with {@link #builder()}.
 */
public final class FollowOptions {
  private final Duration interval;
  private final Duration quiet;
  private final Duration wait;
  private final Duration matchHorizon;

  private FollowOptions(Builder builder) {
    interval = builder.interval;
    quiet = builder.quiet;
    wait = builder.wait;
    matchHorizon = builder.matchHorizon;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** {@code tracesync live}'s defaults. */
  public static FollowOptions defaults() {
    return builder().build();
  }

  /** At most one result per this long. */
  public Duration interval() {
    return interval;
  }

  /** A folder to which nothing was written for this long has ended. */
  public Duration quiet() {
    return quiet;
  }

  /** A session or folder not there yet (a host joining late) is looked for this long. */
  public Duration waitFor() {
    return wait;
  }

  /**
   * The match horizon given with {@link Builder#matchHorizon}, or zero: then the session's {@link
   * Options.Builder#matchHorizon} if one was set, else live's 1 min.
   */
  public Duration matchHorizon() {
    return matchHorizon;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof FollowOptions o && o.interval.equals(interval) && o.quiet.equals(quiet)
        && o.wait.equals(wait) && o.matchHorizon.equals(matchHorizon);
  }

  @Override
  public int hashCode() {
    return Objects.hash(interval, quiet, wait, matchHorizon);
  }

  @Override
  public String toString() {
    return "FollowOptions{interval=" + interval + ", quiet=" + quiet + ", wait=" + wait + ", matchHorizon="
        + (matchHorizon.isZero() ? "default" : matchHorizon) + "}";
  }

  /** Sets options one by one; each setter replaces an earlier value. */
  public static final class Builder {
    private Duration interval = Duration.ofSeconds(1);
    private Duration quiet = Duration.ofSeconds(10);
    private Duration wait = Duration.ZERO;
    private Duration matchHorizon = Duration.ZERO;

    private Builder() {}

    /** At most one result per interval, as {@code tracesync live --interval} (default 1 s). */
    public Builder interval(Duration interval) {
      this.interval = Objects.requireNonNull(interval, "interval");
      return this;
    }

    /** A folder to which nothing was written for this long has ended, as {@code --quiet} (default 10 s). */
    public Builder quiet(Duration quiet) {
      this.quiet = Objects.requireNonNull(quiet, "quiet");
      return this;
    }

    /**
     * A session or folder not there yet (a host joining late) is looked for this long, as {@code --wait} (default:
     * not at all).
     */
    public Builder waitFor(Duration wait) {
      this.wait = Objects.requireNonNull(wait, "wait");
      return this;
    }

    /**
     * How far apart a message's two ends may be recorded, each on its own host's clock, and still be matched, as
     * {@code tracesync live --match-horizon}: a message whose ends are further apart is counted ({@code expired},
     * {@code unmatched_sends}, {@code unmatched_receives}), not matched, and the final result is a sync's given the
     * same horizon. Zero means the default: the session's {@link Options.Builder#matchHorizon} if one was set, else
     * live's 1 min (sync's is 10 min: following runs for hours, and the engine holds a horizon of messages). The
     * engine refuses a negative horizon.
     */
    public Builder matchHorizon(Duration horizon) {
      this.matchHorizon = Objects.requireNonNull(horizon, "matchHorizon");
      return this;
    }

    public FollowOptions build() {
      return new FollowOptions(this);
    }
  }
}
