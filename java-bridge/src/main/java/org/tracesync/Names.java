// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

import com.google.protobuf.ByteString;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Names that are not UTF-8. Host names and trace directories are bytes; nearly always UTF-8, but a
 * Latin-1 host name or directory is not. A snapshot's strings are always UTF-8 (proto3 requires it):
 * a name field such as {@code Trace.getHostname()} holds readable text, the name itself when it is
 * UTF-8, else the name with every byte outside a UTF-8 sequence written {@code \xNN}; its {@code
 * *Raw} sibling ({@code Trace.getHostnameRaw()}) then holds the exact bytes, and is empty
 * otherwise.
 *
 * <pre>{@code
 * byte[] hostname = Names.exact(trace.getHostname(), trace.getHostnameRaw());
 * }</pre>
 */
public final class Names {
  private Names() {}

  /**
   * The exact bytes of a name field: its {@code *Raw} sibling when set, else the UTF-8 bytes of
   * its text.
   */
  public static byte[] exact(String text, ByteString raw) {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(raw, "raw");
    return raw.isEmpty() ? text.getBytes(StandardCharsets.UTF_8) : raw.toByteArray();
  }

  /** Whether a name field's text is the name itself (the name is UTF-8). */
  public static boolean isExact(ByteString raw) {
    return Objects.requireNonNull(raw, "raw").isEmpty();
  }
}
