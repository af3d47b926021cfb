// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.cache;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * What tells one state of a trace from another without reading it: where it is, and the relative path, size and
 * modification time of each of its files. Rewriting, growing or replacing any file changes the identity.
 */
public record TraceIdentity(String location, List<FileStamp> files) {
  /** One file of a trace: its path relative to the trace, its size in bytes and its last modification (ms). */
  public record FileStamp(String relativePath, long size, long modifiedMillis) {}

  public TraceIdentity {
    files = List.copyOf(files);
  }

  /**
   * Reads the identity of the trace at {@code location}: a directory (every regular file under it) or a single file.
   * The location is made absolute and real (symbolic links resolved), so two routes to one trace agree.
   */
  public static TraceIdentity of(Path location) throws IOException {
    Path root;
    try {
      root = location.toRealPath();
    } catch (IOException e) {
      throw new IOException("trace '" + location + "' cannot be read: " + e.getMessage(), e);
    }
    List<FileStamp> stamps = new ArrayList<>();
    if (Files.isDirectory(root)) {
      try (Stream<Path> walk = Files.walk(root)) {
        for (Path file : (Iterable<Path>) walk.filter(Files::isRegularFile)::iterator) {
          stamps.add(stamp(root.relativize(file).toString().replace('\\', '/'), file));
        }
      }
    } else {
      stamps.add(stamp("", root));
    }
    stamps.sort(Comparator.comparing(FileStamp::relativePath));
    return new TraceIdentity(root.toString(), stamps);
  }

  private static FileStamp stamp(String relativePath, Path file) throws IOException {
    BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    return new FileStamp(relativePath, attributes.size(), attributes.lastModifiedTime().toMillis());
  }
}
