// SPDX-License-Identifier: EPL-2.0
import org.eclipse.core.runtime.adaptor.EclipseStarter;

/**
 * Starts the Trace Compass workbench that tracecompass-11.sh assembles: the OSGi framework first, then the
 * application (README.md beside this file). On the s37 VM, Equinox's launcher jar started the framework and then
 * found no application "org.eclipse.ui.ide.workbench" in the extension registry (6 runs of 6), and
 * EclipseStarter's own main failed on a content type manager not yet there; starting the framework, then the
 * application, as here, ran the workbench (4 runs of 4). Why is not understood.
 * usage: java -cp OSGI_JAR:DIR -Dosgi.install.area=... -Dosgi.configuration.area=... StartWorkbench ECLIPSE_ARGS...
 */
public final class StartWorkbench {
  private StartWorkbench() {}

  public static void main(String[] args) throws Exception {
    EclipseStarter.startup(args, null);
    try {
      EclipseStarter.run(null);
    } finally {
      EclipseStarter.shutdown();
    }
  }
}
