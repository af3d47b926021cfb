package org.tracesync.tracecompass.core;

import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Path;
import org.eclipse.core.runtime.FileLocator;
import org.osgi.framework.Bundle;
import org.osgi.framework.FrameworkUtil;
import org.tracesync.NativeLibrary;

/**
 * Loads the JNI library once. The bundle carries it at {@link #LIBRARY_ENTRY} (declared in Bundle-NativeCode);
 * FileLocator.toFileURL extracts that entry from the bundle jar into the OSGi framework's storage (a plain file when
 * the bundle is a folder), and NativeLibrary.load(Path) loads that file. Outside OSGi (or if the entry is missing) the
 * bridge's default search, java.library.path, is tried.
 */
public final class NativeEngine {
  public static final String LIBRARY_ENTRY = "lib/linux/x86_64/libtracesync_jni.so";

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
          + " (it needs Linux x86_64 with libbabeltrace2 and libprotobuf installed)", e);
    }
  }

  private static Path extractedLibrary() throws IOException {
    Bundle bundle = FrameworkUtil.getBundle(NativeEngine.class);
    if (bundle == null) return null;
    URL entry = FileLocator.find(bundle, new org.eclipse.core.runtime.Path(LIBRARY_ENTRY), null);
    if (entry == null) return null;
    URL file = FileLocator.toFileURL(entry);
    return new File(file.getPath()).toPath();
  }
}
