// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.core;

import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Path;
import java.util.Optional;
import org.eclipse.core.runtime.FileLocator;
import org.osgi.framework.Bundle;
import org.osgi.framework.FrameworkUtil;
import org.tracesync.NativeLibrary;

/**
 * Loads the JNI library once. The bundle carries it at {@link #LIBRARY_ENTRY} (declared in Bundle-NativeCode);
 * FileLocator.toFileURL extracts that entry from the bundle jar into the OSGi framework's storage (a plain file when
 * the bundle is a folder), and NativeLibrary.load(Path) loads that file. Outside OSGi (or if the entry is missing) the
 * bridge's default search, java.library.path, is tried.
 *
 * <p>The bundle also carries the tracesync command at {@link #PROGRAM_ENTRY}: the engine reads each trace with it in
 * a process of its own, so that babeltrace2 aborting on a damaged trace costs that trace, not Trace Compass.
 */
public final class NativeEngine {
  public static final String LIBRARY_ENTRY = "lib/linux/x86_64/libtracesync_jni.so";
  public static final String PROGRAM_ENTRY = "lib/linux/x86_64/tracesync";

  private NativeEngine() {}

  public static synchronized void ensureLoaded() throws IOException {
    if (NativeLibrary.isLoaded()) return;
    Path library = extractedLibrary();
    try {
      if (library != null) {
        NativeLibrary.load(library);
      } else {
        NativeLibrary.load();
      }
    } catch (UnsatisfiedLinkError | RuntimeException e) {
      throw new IOException("the tracesync native library could not be loaded"
          + (library != null ? " from " + library : " from java.library.path") + ": " + e.getMessage()
          + " (tracesync needs x86_64 Linux like Debian 12, with libbabeltrace2 and libprotobuf installed:"
          + " apt-get install libbabeltrace2-0 libprotobuf32)", e);
    }
  }

  /**
   * The tracesync command to read traces with, extracted and made executable; empty outside OSGi, when the bundle
   * lacks it, or when it cannot be made executable: the engine then reads traces in Trace Compass's process.
   */
  public static synchronized Optional<Path> readingProgram() {
    try {
      Path program = extracted(PROGRAM_ENTRY);
      if (program == null) return Optional.empty();
      // Jar entries carry no permissions: the extracted copy is not executable until told so.
      File file = program.toFile();
      if (!file.canExecute() && !file.setExecutable(true, true)) {
        Log.warning("cannot make " + program + " executable; traces are read in Trace Compass's process");
        return Optional.empty();
      }
      return Optional.of(program);
    } catch (IOException e) {
      Log.warning("cannot extract " + PROGRAM_ENTRY + " (" + e.getMessage()
          + "); traces are read in Trace Compass's process");
      return Optional.empty();
    }
  }

  private static Path extractedLibrary() throws IOException {
    return extracted(LIBRARY_ENTRY);
  }

  private static Path extracted(String bundleEntry) throws IOException {
    Bundle bundle = FrameworkUtil.getBundle(NativeEngine.class);
    if (bundle == null) return null;
    URL entry = FileLocator.find(bundle, new org.eclipse.core.runtime.Path(bundleEntry), null);
    if (entry == null) return null;
    URL file = FileLocator.toFileURL(entry);
    return new File(file.getPath()).toPath();
  }
}
