// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.cache;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;

/**
 * The digest that keys a cached synchronization: SHA-256 over the identities of an experiment's traces, taken in the
 * order of their locations so that the order in which an experiment lists its traces does not matter.
 */
public final class CacheKey {
  private CacheKey() {}

  public static String of(Collection<TraceIdentity> traces) {
    List<TraceIdentity> sorted = traces.stream().sorted(Comparator.comparing(TraceIdentity::location)).toList();
    MessageDigest digest = sha256();
    for (TraceIdentity trace : sorted) {
      field(digest, "trace", trace.location());
      for (TraceIdentity.FileStamp file : trace.files()) {
        field(digest, "file", file.relativePath());
        field(digest, "size", Long.toString(file.size()));
        field(digest, "mtime", Long.toString(file.modifiedMillis()));
      }
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  /** Each field is tagged and length-prefixed, so no two different lists of fields hash the same bytes. */
  private static void field(MessageDigest digest, String tag, String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    digest.update(tag.getBytes(StandardCharsets.US_ASCII));
    digest.update(Integer.toString(bytes.length).getBytes(StandardCharsets.US_ASCII));
    digest.update((byte) ':');
    digest.update(bytes);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java 17 runtime provides SHA-256", e);
    }
  }
}
