// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.cache;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import org.tracesync.proto.Snapshot;

/**
 * One experiment's last synchronization, kept in a file of its supplementary folder: the snapshot, the key of the
 * traces it was computed from ({@link CacheKey}) and a description of the options it was computed with. Reopening the
 * experiment, or synchronizing it again with the same options, reads the snapshot back instead of recomputing it.
 *
 * <p>File layout: the magic line, a format version, the two keys (modified UTF-8), the snapshot's length and bytes.
 */
public final class SnapshotCache {
  /** The file name in the experiment's synchronization folder. */
  public static final String FILE_NAME = "tracesync-snapshot.bin";

  private static final String MAGIC = "tracesync snapshot cache\n";
  private static final int VERSION = 1;
  private static final int MAX_SNAPSHOT_BYTES = 512 << 20;

  /** A cached synchronization. */
  public record Entry(String tracesKey, String optionsKey, Snapshot snapshot) {}

  private final Path file;

  public SnapshotCache(Path file) {
    this.file = file;
  }

  public Path file() {
    return file;
  }

  /** The cached entry, or empty when there is none. A damaged file is an IOException naming the file. */
  public Optional<Entry> read() throws IOException {
    if (!Files.isRegularFile(file)) return Optional.empty();
    byte[] bytes = Files.readAllBytes(file);
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      byte[] magic = new byte[MAGIC.length()];
      in.readFully(magic);
      if (!MAGIC.equals(new String(magic, StandardCharsets.US_ASCII))) {
        throw damaged("it is not a tracesync snapshot cache");
      }
      int version = in.readInt();
      if (version != VERSION) throw damaged("format version " + version + ", expected " + VERSION);
      String tracesKey = in.readUTF();
      String optionsKey = in.readUTF();
      int length = in.readInt();
      if (length < 0 || length > in.available()) throw damaged("snapshot length " + length + " runs past the end");
      byte[] snapshot = new byte[length];
      in.readFully(snapshot);
      return Optional.of(new Entry(tracesKey, optionsKey, Snapshot.parseFrom(snapshot)));
    } catch (EOFException e) {
      throw damaged("it ends too early");
    } catch (InvalidProtocolBufferException e) {
      throw damaged("the snapshot does not parse: " + e.getMessage());
    }
  }

  /** The cached snapshot when it was computed from these traces (and, unless null, with these options). */
  public Optional<Snapshot> find(String tracesKey, String optionsKey) throws IOException {
    return read().filter(e -> e.tracesKey().equals(tracesKey))
        .filter(e -> optionsKey == null || e.optionsKey().equals(optionsKey)).map(Entry::snapshot);
  }

  /** Replaces the cached entry. The file is written beside and moved in place, so readers never see half of it. */
  public void write(Entry entry) throws IOException {
    byte[] snapshot = entry.snapshot().toByteArray();
    if (snapshot.length > MAX_SNAPSHOT_BYTES) throw new IOException("snapshot too large to cache: " + snapshot.length);
    ByteArrayOutputStream buffer = new ByteArrayOutputStream(snapshot.length + 256);
    try (DataOutputStream out = new DataOutputStream(buffer)) {
      out.write(MAGIC.getBytes(StandardCharsets.US_ASCII));
      out.writeInt(VERSION);
      out.writeUTF(entry.tracesKey());
      out.writeUTF(entry.optionsKey());
      out.writeInt(snapshot.length);
      out.write(snapshot);
    }
    Files.createDirectories(file.toAbsolutePath().getParent());
    Path partial = file.resolveSibling(file.getFileName() + ".partial");
    Files.write(partial, buffer.toByteArray());
    try {
      Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** Forgets the cached entry. */
  public void clear() throws IOException {
    Files.deleteIfExists(file);
  }

  private IOException damaged(String why) {
    return new IOException("tracesync cache '" + file + "' is damaged: " + why);
  }
}
