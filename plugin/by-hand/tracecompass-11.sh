#!/bin/bash
# SPDX-License-Identifier: EPL-2.0
# Builds a Trace Compass 11.3 workbench from its sources on Debian 12's Eclipse 4.26 jars, with the tracesync
# plugin in its dropins/ (README.md beside this file says why and what was seen). Fetches nothing: give it
# the sources, already checked out.
#
# usage: tracecompass-11.sh WORK TC_SOURCES EVENT_LOGGER_SOURCES FELIX_SOURCES [PLUGIN_JAR...]
#   WORK                  an empty folder for the build; WORK/eclipse is the Trace Compass installation
#   TC_SOURCES            org.eclipse.tracecompass at tag v11.3.0
#   EVENT_LOGGER_SOURCES  eclipse-tracecompass/trace-event-logger (0.5.x)
#   FELIX_SOURCES         apache/felix-dev (its scr/ folder: Debian 12 has no Declarative Services runtime)
#   PLUGIN_JAR            the plugin's two jars (build/plugin/dropins/*.jar), copied into WORK/eclipse/dropins
# Then: Xvfb :77 & DISPLAY=:77 WORK/tracecompass WORKSPACE -clean
#   (WORK/tracecompass starts it through StartWorkbench.java: on the s37 VM, Equinox's launcher jar found no
#   workbench application; README.md beside this file)
set -euo pipefail
[ $# -ge 4 ] || { sed -n '6,16p' "$0" >&2; exit 2; }
work=$(realpath -m "$1"); tc=$(realpath "$2"); logger=$(realpath "$3"); felix=$(realpath "$4"); shift 4
here=$(dirname "$(realpath "$0")")
cmpn=/usr/share/java/osgi.cmpn-7.0.0.jar
for f in /usr/bin/ecj $cmpn /usr/share/java/eclipse-osgi-3.18.200.jar /usr/share/java/com.android.json.jar \
         /usr/share/java/bcpg.jar /usr/share/java/antlr3-runtime.jar /usr/lib/eclipse/plugins/org.eclipse.ui.ide.application_1.4.600.jar \
         /usr/share/java/servlet-api.jar /usr/share/java/xercesImpl.jar; do
  [ -e "$f" ] || { echo "tracecompass-11.sh: $f is missing: install the Debian packages README.md lists" >&2; exit 1; }
done
mkdir -p "$work/out/plugins" "$work/tmp"
ecj() { command ecj -17 -proc:none -nowarn -encoding UTF-8 "$@"; }

# The Trace Compass sources, copied: one call that Debian's SWTChart 0.13 lacks is taken out.
rm -rf "$work/src"; mkdir "$work/src"
for d in common statesystem tmf ctf analysis lttng; do cp -r "$tc/$d" "$work/src/"; done
sed -i 's/^\(\s*\)fSwtChart.getAxisSet().getYAxis(0).setDrawAxisLine(false);/\1\/\/ not in SWTChart 0.13/' \
  "$work/src/tmf/org.eclipse.tracecompass.tmf.ui/src/org/eclipse/tracecompass/tmf/ui/viewers/xychart/TmfXYChartViewer.java"

# trace-event-logger, a plain jar upstream, as the bundle Trace Compass imports it from.
rm -rf "$work/tmp/logger"; mkdir -p "$work/tmp/logger"
ecj -d "$work/tmp/logger" $(find "$logger/src/main/java" -name '*.java')
(cd "$work/tmp/logger" && jar --create --file "$work/tmp/logger.jar" .)
python3 "$here/wrap_jar.py" org.eclipse.tracecompass.traceeventlogger 0.5.1 0.5.1 \
  "$work/out/plugins/org.eclipse.tracecompass.traceeventlogger.jar" "$work/tmp/logger.jar"

# Trace Compass: the LTTng kernel trace type and the tracing UI, with what they need.
python3 "$here/build_bundles.py" "$work/src" "$work/out" org.eclipse.tracecompass.lttng2.kernel.core org.eclipse.tracecompass.tmf.ui

# Felix SCR (Declarative Services, which Eclipse 4.26's e4 bundles need).
rm -rf "$work/tmp/scr"; mkdir -p "$work/tmp/scr"
ecj -proceedOnError -d "$work/tmp/scr" -cp "/usr/share/java/eclipse-osgi-3.18.200.jar:$cmpn" \
  $(find "$felix/scr/src/main/java" -name '*.java') > "$work/tmp/scr.log" 2>&1 || true  # Gogo commands: not built
jar --create --file "$work/out/plugins/org.apache.felix.scr.jar" --manifest "$here/scr.MF" -C "$work/tmp/scr" .

# OSGi compendium APIs that Eclipse 4.26 ships as bundles of their own, from Debian's R7 compendium jar.
wrap() { python3 "$here/wrap_jar.py" "$1" "$2" "$3" "$work/out/plugins/$1.jar" "$4"; }
wrap org.osgi.service.prefs 1.1.2 1.1.1 $cmpn:org/osgi/service/prefs/
wrap org.osgi.service.cm 1.6.1 1.6.0 $cmpn:org/osgi/service/cm/
wrap org.osgi.service.event 1.4.1 1.4.0 $cmpn:org/osgi/service/event/
wrap org.osgi.service.metatype 1.4.1 1.4.0 $cmpn:org/osgi/service/metatype/
# (not its annotations package: org.eclipse.osgi.services exports it)
wrap org.osgi.service.component 1.5.0 1.5.0 $cmpn:org/osgi/service/component/runtime/,org/osgi/service/component/C,org/osgi/service/component/S,org/osgi/service/component/p
wrap org.osgi.util.promise 1.1.1 1.1.1 $cmpn:org/osgi/util/promise/
wrap org.osgi.util.function 1.1.0 1.1.0 $cmpn:org/osgi/util/function/
wrap org.osgi.service.device 1.1.1 1.1.0 $cmpn:org/osgi/service/device/
wrap org.osgi.service.provisioning 1.2.0 1.2.0 $cmpn:org/osgi/service/provisioning/
wrap org.osgi.service.upnp 1.2.1 1.2.0 $cmpn:org/osgi/service/upnp/
wrap org.osgi.service.useradmin 1.1.1 1.1.0 $cmpn:org/osgi/service/useradmin/
wrap org.osgi.service.wireadmin 1.0.2 1.0.0 $cmpn:org/osgi/service/wireadmin/
wrap org.eclipse.osgi.util 3.7.100 1.1.0 $cmpn:org/osgi/util/measurement/,org/osgi/util/position/,org/osgi/util/xml/
# Debian jars whose manifests lack what the bundles ask for.
wrap org.antlr.runtime 3.5.2 3.5.2 /usr/share/java/antlr3-runtime.jar
python3 "$here/wrap_jar.py" org.bouncycastle.bcpg 1.72.0 1.72.0 "$work/out/plugins/org.bouncycastle.bcpg.jar" \
  /usr/share/java/bcpg.jar /usr/share/java/bcprov.jar
wrap org.json 1.0.0 1.0.0 /usr/share/java/com.android.json.jar:org/json/
# Debian's SWT 4.26 jar says it is SWT 3.114 (4.17): the version 4.26's bundles ask for.
rm -rf "$work/tmp/swt"; mkdir -p "$work/tmp/swt"
(cd "$work/tmp/swt" && unzip -q /usr/share/java/org.eclipse.swt-4.x.jar && rm -f META-INF/*.SF META-INF/*.RSA &&
 sed -i 's/^Bundle-Version: 3.114.100/Bundle-Version: 3.122.0.debian/' META-INF/MANIFEST.MF &&
 jar --create --file "$work/out/plugins/org.eclipse.swt.jar" --manifest META-INF/MANIFEST.MF .)

python3 "$here/assemble_eclipse.py" "$work/eclipse" "$work/out/plugins" "$@"

# The command that starts it: the framework, then the workbench (StartWorkbench.java says why not the launcher jar).
osgi=/usr/share/java/eclipse-osgi-3.18.200.jar
rm -rf "$work/launch"; mkdir -p "$work/launch"
ecj -d "$work/launch" -cp "$osgi" "$here/StartWorkbench.java"
cat > "$work/tracecompass" <<EOF
#!/bin/sh
# usage: $work/tracecompass WORKSPACE [ECLIPSE_ARGUMENT...]   (on \$DISPLAY; -clean after new dropins)
# JVM options (-Dtracesync.messagesFile=FILE, as tracecompass.ini's -vmargs would give) in \$TRACECOMPASS_VMARGS.
[ \$# -ge 1 ] || { echo "usage: \$0 WORKSPACE [ECLIPSE_ARGUMENT...]" >&2; exit 2; }
workspace=\$1; shift
exec java -Xmx1g -Djava.library.path=/usr/lib/jni \$TRACECOMPASS_VMARGS -cp "$osgi:$work/launch" \\
  -Dosgi.install.area="$work/eclipse" -Dosgi.configuration.area="$work/eclipse/configuration" \\
  -Dosgi.os=linux -Dosgi.ws=gtk -Dosgi.arch=x86_64 StartWorkbench -data "\$workspace" -consoleLog "\$@"
EOF
chmod +x "$work/tracecompass"
echo "Trace Compass 11.3: $work/eclipse, started by $work/tracecompass WORKSPACE"
