// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

import java.io.IOException;

/**
 * The native methods of {@code libtracesync_jni}, which only marshal (JNI_OnLoad registers them).
 * A session is an opaque handle that the library validates on every call: an unknown or closed
 * handle throws {@link IllegalStateException}. Calls on one session are serialized by the library;
 * calls on different sessions run in parallel.
 */
final class NativeBridge {
  private NativeBridge() {}

  /**
   * Opens a session.
   *
   * @param engineOptions a serialized {@code tracesync.v1.EngineOptions}
   * @return the session's handle
   * @throws IllegalArgumentException when the options are not valid, with the engine's message
   */
  static native long open(byte[] engineOptions);

  /** @throws IOException when the path does not exist or holds no trace */
  static native void addTracePath(long session, String path) throws IOException;

  static native void addMatch(long session, String sender, long sendNs, String receiver, long receiveNs);

  /**
   * @throws IOException naming the traces that were skipped; the run still completed
   * @throws OutOfMemoryError naming the traces whose reading ran out of native memory; the run still
   *     completed
   */
  static native void run(long session, ProgressListener listener) throws IOException;

  /** @return a serialized {@code tracesync.v1.Snapshot} */
  static native byte[] snapshot(long session);

  /**
   * @param matchHorizonNs zero: live's default (1 min)
   * @throws IllegalArgumentException a source or a duration the engine refuses, naming it
   */
  static native byte[] follow(
      long session,
      String[] sources,
      long intervalNs,
      long quietNs,
      long waitNs,
      long matchHorizonNs,
      ResultSink sink);

  /** Frees the session, after waiting for a call in progress on it (which is cancelled if a run). */
  static native void close(long session);
}
