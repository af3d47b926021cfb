// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.core;

import org.eclipse.core.runtime.ILog;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Platform;
import org.eclipse.core.runtime.Status;
import org.osgi.framework.FrameworkUtil;

/** The plugin's entries in the Eclipse error log. */
public final class Log {
  public static final String PLUGIN_ID = "org.tracesync.tracecompass";

  private Log() {}

  public static void error(String message, Throwable cause) {
    log(new Status(IStatus.ERROR, PLUGIN_ID, message, cause));
  }

  public static void warning(String message) {
    log(new Status(IStatus.WARNING, PLUGIN_ID, message));
  }

  public static void log(IStatus status) {
    ILog log = Platform.getLog(FrameworkUtil.getBundle(Log.class));
    log.log(status);
  }
}
