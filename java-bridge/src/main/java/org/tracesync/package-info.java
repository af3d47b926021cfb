// SPDX-License-Identifier: EPL-2.0
/**
 * Java access to the tracesync engine: open a {@link org.tracesync.TraceSync} session with
 * {@link org.tracesync.Options}, give it trace directories or matched messages, run it, and read
 * everything it knows from its {@link org.tracesync.proto.Snapshot}. A trace's transform onto its
 * island's reference is applied exactly with {@link org.tracesync.LinearTransform}.
 *
 * <p>The native library {@code libtracesync_jni.so} is loaded from {@code java.library.path} the
 * first time a session is opened, or earlier from an explicit path with {@link
 * org.tracesync.NativeLibrary#load(java.nio.file.Path)}. The generated protobuf classes ({@code
 * org.tracesync.proto}) come from {@code tracesync.proto}, the one contract between the engine and
 * Java.
 */
package org.tracesync;
