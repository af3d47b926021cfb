// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

import org.tracesync.proto.Snapshot;

/**
 * Hears each new result of {@link TraceSync#follow}: called on the thread that called follow, each
 * time the result changed materially (a trace's transform or bound moved by a nanosecond or more, a
 * link's quality changed, a host joined or left, a problem appeared), at most once per interval.
 * Every result is a complete report ({@code complete} false while the sources are recorded), with
 * the matching statistics so far. An exception thrown here stops following and is thrown by follow.
 */
@FunctionalInterface
public interface LiveListener {
  void onResult(Snapshot result);
}
