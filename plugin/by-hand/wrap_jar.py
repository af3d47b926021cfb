#!/usr/bin/env python3
# SPDX-License-Identifier: EPL-2.0
# wrap_jar.py [--header 'Name: value']... BSN VERSION PKGVERSION OUT.jar SRC.jar[:prefix,prefix...] ...
# An OSGi bundle of plain jars' classes (those under the prefixes), exporting every package it holds at PKGVERSION
# and importing by DynamicImport-Package (README.md beside this file).
import sys, zipfile, os
args, headers = sys.argv[1:], []
while args and args[0] == '--header':
    headers.append(args[1]); args = args[2:]
bsn, ver, pv, out = args[0:4]
sources = args[4:]
pkgs, seen = set(), set()
with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
    entries = []
    for spec in sources:
        src, _, pre = spec.partition(':')
        prefixes = tuple(pre.split(',')) if pre else ('',)
        with zipfile.ZipFile(src) as s:
            for n in s.namelist():
                if n.startswith('META-INF/') or n.endswith('/') or not n.startswith(prefixes) or n in seen:
                    continue
                seen.add(n)
                if n.endswith('.class'):
                    pkgs.add(os.path.dirname(n).replace('/', '.'))
                entries.append((n, s.read(n)))
    exp = ','.join(f'{p};version="{pv}"' for p in sorted(pkgs))
    mf = f'Manifest-Version: 1.0\nBundle-ManifestVersion: 2\nBundle-SymbolicName: {bsn}\nBundle-Version: {ver}\nExport-Package: {exp}\nDynamicImport-Package: *\n'
    mf += ''.join(h + '\n' for h in headers)
    lines = []
    for l in mf.split('\n'):
        while len(l) > 70:
            lines.append(l[:70]); l = ' ' + l[70:]
        lines.append(l)
    z.writestr('META-INF/MANIFEST.MF', '\n'.join(lines))
    for n, d in entries:
        z.writestr(n, d)
print(out, len(pkgs), 'packages')
