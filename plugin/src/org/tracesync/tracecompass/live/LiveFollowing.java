// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.live;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.tracesync.Options;
import org.tracesync.TraceSync;
import org.tracesync.proto.Problem;
import org.tracesync.proto.Snapshot;

/**
 * Follows live sessions and trace folders being written on a thread of its own (TraceSync.follow, as
 * {@code tracesync live}), handing each new result and then the end to the view. Trace Compass 10.3 reads no live
 * trace itself: the view shows tracesync's results as they come, and the traces can be opened once recorded.
 *
 * <p>Callbacks come on the following thread; {@link #stop()} may come from any thread but a callback, and returns
 * once the engine stopped, at its next turn (tens of milliseconds): the end is then told as {@link End#stopped()}.
 */
public final class LiveFollowing {
  /** How following ended: the final result, or why there is none. */
  public record End(Snapshot finalResult, boolean stopped, String error) {}

  private final TraceSync session;
  private final Thread thread;
  private volatile boolean stopping;

  private LiveFollowing(List<String> sources, Options options, Duration interval, Duration quiet, Duration wait,
      Consumer<Snapshot> onResult, Consumer<End> onEnd) {
    session = TraceSync.open(options);
    thread = new Thread(() -> {
      End end;
      try {
        end = new End(session.follow(sources, interval, quiet, wait, onResult::accept), false, null);
      } catch (IllegalStateException e) {
        end = stopping ? new End(null, true, null) : new End(null, false, e.getMessage());
      } catch (RuntimeException e) {
        end = new End(null, false, e.getMessage());
      } finally {
        session.close();
      }
      onEnd.accept(end);
    }, "tracesync live");
    thread.setDaemon(true);
  }

  /**
   * Starts following {@code sources} (LiveSources.parse's) with the engine's {@code options}, and tracesync live's
   * match horizon (1 min; TraceSync.follow's default) unless {@code options} set one.
   *
   * @param interval at most one result per interval
   * @param quiet a folder to which nothing was written for this long has ended
   * @param wait a session or folder not there yet is looked for this long
   */
  public static LiveFollowing start(List<String> sources, Options options, Duration interval, Duration quiet,
      Duration wait, Consumer<Snapshot> onResult, Consumer<End> onEnd) {
    Objects.requireNonNull(onResult, "onResult");
    Objects.requireNonNull(onEnd, "onEnd");
    LiveFollowing following = new LiveFollowing(List.copyOf(sources), options, interval, quiet, wait, onResult, onEnd);
    following.thread.start();
    return following;
  }

  /** Stops following, at the engine's next turn. */
  public void stop() {
    stopping = true;
    session.close();
  }

  /** Waits for the end; true when it came within {@code timeout}. */
  public boolean join(Duration timeout) throws InterruptedException {
    thread.join(Math.max(1, timeout.toMillis()));
    return !thread.isAlive();
  }

  /** The view's caption while following, before any result: what it waits for, and how long a source may take. */
  public static String waitingCaption(List<String> sources, Duration wait) {
    return "Following " + String.join(" ", sources) + ": waiting for the first result"
        + (wait.isZero() ? "." : " (a source not there yet is looked for during " + spoken(wait) + ").");
  }

  /**
   * The view's caption for a result that came while following: how many sources, and each one's problem. What the
   * result holds (traces, messages) is the panel's summary line, after the caption.
   */
  public static String caption(Snapshot result, int sources) {
    return "Live, following " + sources + (sources == 1 ? " source" : " sources") + problems(result);
  }

  /**
   * The view's caption for the result following ended with: final, or, when a source was lost or never found (the
   * result is then incomplete), that following ended without it, and why.
   */
  public static String endCaption(Snapshot result) {
    return (result.getComplete() ? "Live, final result" : "Live, ended incomplete") + problems(result);
  }

  /** What the engine says went wrong with the sources (a relay refused or gone, a folder lost), each named. */
  private static String problems(Snapshot result) {
    StringBuilder text = new StringBuilder();
    for (Problem problem : result.getProblemsList()) {
      text.append(text.length() == 0 ? " (" : "; ").append(problem.getSource()).append(": ")
          .append(problem.getMessage());
    }
    return text.length() == 0 ? "" : text.append(")").toString();
  }

  private static String spoken(Duration duration) {
    if (duration.toSeconds() % 60 == 0 && duration.toMinutes() > 0) {
      return duration.toMinutes() == 1 ? "a minute" : duration.toMinutes() + " minutes";
    }
    return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
  }
}
