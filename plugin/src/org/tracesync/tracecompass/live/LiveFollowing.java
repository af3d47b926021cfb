// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.live;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.tracesync.Options;
import org.tracesync.TraceSync;
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
   * Starts following {@code sources} (LiveSources.parse's) with the engine's {@code options}.
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

  /** The view's caption for a result: whether it is final, and what it holds. */
  public static String caption(Snapshot result, int sources) {
    String what = result.getTracesCount() + (result.getTracesCount() == 1 ? " trace, " : " traces, ")
        + result.getMessages() + (result.getMessages() == 1 ? " message" : " messages");
    return (result.getComplete() ? "Live, final result: " : "Live, following " + sources
        + (sources == 1 ? " source: " : " sources: ")) + what;
  }
}
