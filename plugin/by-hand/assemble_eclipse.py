#!/usr/bin/env python3
# SPDX-License-Identifier: EPL-2.0
# Lays out a runnable Eclipse: Debian 12's Eclipse 4.26 bundles and the bundles built by build_bundles.py and
# wrap_jar.py, under HOME/plugins (links), started by HOME/configuration/config.ini (README.md beside this file).
# usage: assemble_eclipse.py HOME BUNDLES_DIR [DROPIN.jar...]   (the dropins are copied into HOME/dropins/)
import os, sys, glob, zipfile, shutil
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from build_bundles import debian_bundles, read_manifest_text
home, bundles_dir = sys.argv[1], sys.argv[2]
extra = sys.argv[3:]
shutil.rmtree(home + '/plugins', ignore_errors=True)
os.makedirs(home + '/plugins'); os.makedirs(home + '/configuration', exist_ok=True)
jars = dict(debian_bundles())
shutil.rmtree(home + '/dropins', ignore_errors=True); os.makedirs(home + '/dropins')
dropped = []
for j in extra:
    shutil.copy(j, home + '/dropins/')
    dropped.append(home + '/dropins/' + os.path.basename(j))
for j in glob.glob(bundles_dir + '/*.jar'):
    with zipfile.ZipFile(j) as z:
        h = read_manifest_text(z.read('META-INF/MANIFEST.MF').decode())
    jars[h['Bundle-SymbolicName'].split(';')[0].strip()] = os.path.realpath(j)
skip = {'org.eclipse.osgi', 'org.eclipse.equinox.launcher', 'org.eclipse.equinox.simpleconfigurator',
        'org.eclipse.equinox.simpleconfigurator.manipulator', 'org.eclipse.equinox.p2.reconciler.dropins'}
start = {'org.apache.felix.scr': '@2:start', 'org.eclipse.equinox.common': '@2:start', 'org.eclipse.equinox.event': '@2:start',
         'org.eclipse.core.runtime': '@start'}
entries = []
for bsn, j in sorted(jars.items()):
    with zipfile.ZipFile(j) as z:
        v = read_manifest_text(z.read('META-INF/MANIFEST.MF').decode('utf-8', 'replace')).get('Bundle-Version', '0').strip()
    link = f'{home}/plugins/{bsn}_{v}.jar'
    os.symlink(j, link)
    if bsn not in skip:
        entries.append(f'reference:file:{link}{start.get(bsn, "")}')
# Debian 12 has no p2 dropins reconciler that runs without a p2 profile: the bundles copied into dropins/ are listed here.
entries += [f'reference:file:{j}' for j in dropped]
open(home + '/configuration/config.ini', 'w').write(
    'osgi.bundles=' + ',\\\n '.join(entries) + '\n'
    'osgi.bundles.defaultStartLevel=4\n'
    'eclipse.application=org.eclipse.ui.ide.workbench\n'
    'osgi.framework=file:' + glob.glob(home + '/plugins/org.eclipse.osgi_*.jar')[0] + '\n'
    'eclipse.pluginCustomization=' + home + '/plugin_customization.ini\n')
open(home + '/plugin_customization.ini', 'w').write(
    'org.eclipse.ui/defaultPerspectiveId=org.eclipse.linuxtools.tmf.ui.perspective\n'
    'org.eclipse.ui.ide/SHOW_WORKSPACE_SELECTION_DIALOG=false\n'
    'org.eclipse.ui/showIntro=false\n')
print(len(entries), 'bundles')
