// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

/**
 * Told how a {@link TraceSync#run(ProgressListener) run} advances, on the thread that called
 * {@code run}. Returning {@code false} cancels the run; so does throwing, and {@code run} then
 * rethrows the listener's exception. A listener may close its own session, but it may not call any
 * other method of it (that throws {@link IllegalStateException}).
 */
@FunctionalInterface
public interface ProgressListener {
  /**
   * @param bytesDone trace bytes read so far
   * @param bytesTotal trace bytes to read in all
   * @param tracesDone traces read so far
   * @param tracesTotal traces to read in all
   * @return {@code true} to go on, {@code false} to cancel the run
   */
  boolean onProgress(long bytesDone, long bytesTotal, int tracesDone, int tracesTotal);
}
