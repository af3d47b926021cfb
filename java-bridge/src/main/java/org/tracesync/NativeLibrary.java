// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Loads {@code libtracesync_jni}, once per process (strictly, once per class loader). {@link
 * TraceSync#open(Options)} calls {@link #load()} when nothing is loaded yet.
 */
public final class NativeLibrary {
  /** The library's name for {@link System#loadLibrary(String)}: {@code libtracesync_jni.so}. */
  public static final String NAME = "tracesync_jni";

  private static boolean loaded;
  private static String loadedFrom;

  private NativeLibrary() {}

  /**
   * Loads the library from {@code java.library.path}; does nothing when it is loaded already.
   *
   * @throws UnsatisfiedLinkError when it is not found there or cannot be loaded
   */
  public static synchronized void load() {
    if (loaded) {
      return;
    }
    try {
      System.loadLibrary(NAME);
    } catch (UnsatisfiedLinkError e) {
      UnsatisfiedLinkError detailed =
          new UnsatisfiedLinkError(
              "cannot load lib"
                  + NAME
                  + ".so from java.library.path="
                  + System.getProperty("java.library.path")
                  + " ("
                  + e.getMessage()
                  + "); set -Djava.library.path or call NativeLibrary.load(Path)");
      detailed.initCause(e);
      throw detailed;
    }
    loaded = true;
    loadedFrom = "java.library.path";
  }

  /**
   * Loads the library from this file; does nothing when this file is loaded already.
   *
   * @throws UnsatisfiedLinkError when the file cannot be loaded
   * @throws IllegalStateException when the library was loaded from elsewhere already
   */
  public static synchronized void load(Path explicitPath) {
    Objects.requireNonNull(explicitPath, "explicitPath");
    String file = explicitPath.toAbsolutePath().normalize().toString();
    if (loaded) {
      if (file.equals(loadedFrom)) {
        return;
      }
      throw new IllegalStateException(
          "lib" + NAME + " is loaded already (from " + loadedFrom + "), cannot load " + file);
    }
    System.load(file);
    loaded = true;
    loadedFrom = file;
  }

  /** Whether the library is loaded. */
  public static synchronized boolean isLoaded() {
    return loaded;
  }
}
