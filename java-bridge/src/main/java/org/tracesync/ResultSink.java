// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

/** Where the native library hands each live result, serialized (TraceSync.follow). */
interface ResultSink {
  void onResult(byte[] snapshot);
}
