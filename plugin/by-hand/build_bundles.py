#!/usr/bin/env python3
# SPDX-License-Identifier: EPL-2.0
# Compiles Trace Compass bundles from their sources with ecj against Debian 12's Eclipse 4.26 jars
# (README.md beside this file).
# usage: build_bundles.py TC_SOURCES OUTDIR BUNDLE...   (with the closure of their Require-Bundle inside TC_SOURCES;
# OUTDIR/plugins/ gets one jar per bundle; ecj's log per bundle is OUTDIR/classes/BUNDLE.log)
import os, re, subprocess, sys, zipfile, shutil, glob

SRC = None  # set by main()
DEBIAN_DIRS = ['/usr/share/java', '/usr/lib/eclipse/plugins', '/usr/share/eclipse/plugins']
QUAL = 'v20260309'

def read_manifest_text(text):
    lines = []
    for line in text.replace('\r\n', '\n').split('\n'):
        if line.startswith(' ') and lines:
            lines[-1] += line[1:]
        else:
            lines.append(line)
    h = {}
    for l in lines:
        if ':' in l:
            k, v = l.split(':', 1)
            h[k.strip()] = v.strip()
    return h

def split_clauses(v):
    out, depth, cur = [], 0, ''
    for c in v:
        if c == '"':
            depth ^= 1
        if c == ',' and depth == 0:
            out.append(cur.strip()); cur = ''
        else:
            cur += c
    if cur.strip():
        out.append(cur.strip())
    return out

def bundles_in_src():
    res = {}
    for mf in glob.glob(SRC + '/*/*/META-INF/MANIFEST.MF'):
        d = os.path.dirname(os.path.dirname(mf))
        h = read_manifest_text(open(mf, encoding='utf-8').read())
        bsn = h['Bundle-SymbolicName'].split(';')[0].strip()
        res[bsn] = (d, h)
    return res

def debian_bundles():
    res = {}
    for d in DEBIAN_DIRS:
        for j in glob.glob(d + '/*.jar'):
            if os.path.islink(j) and os.path.realpath(j) in [v for v in res.values()]:
                continue
            try:
                with zipfile.ZipFile(j) as z:
                    h = read_manifest_text(z.read('META-INF/MANIFEST.MF').decode('utf-8', 'replace'))
            except Exception:
                continue
            if 'Bundle-SymbolicName' in h:
                res.setdefault(h['Bundle-SymbolicName'].split(';')[0].strip(), os.path.realpath(j))
    return res

def main():
    global SRC
    SRC, out = sys.argv[1], sys.argv[2]
    targets = sys.argv[3:]
    os.makedirs(out + '/plugins', exist_ok=True)
    tc = bundles_in_src()
    deb = debian_bundles()
    deb.setdefault('org.eclipse.tracecompass.traceeventlogger', out + '/plugins/org.eclipse.tracecompass.traceeventlogger.jar')
    order, seen, missing = [], set(), set()
    def visit(b):
        if b in seen:
            return
        seen.add(b)
        d, h = tc[b]
        for c in split_clauses(h.get('Require-Bundle', '')):
            name = c.split(';')[0].strip()
            if name in tc:
                visit(name)
            elif name not in deb and 'optional' not in c:
                missing.add((b, name))
        if 'Fragment-Host' in h:
            host = h['Fragment-Host'].split(';')[0].strip()
            if host in tc:
                visit(host)
        order.append(b)
    for t in targets:
        visit(t)
    print('order:', ' '.join(order))
    print('missing required bundles:', sorted(missing))
    def clashes(j):
        # jars that carry JDK packages (org.w3c.dom, javax.xml...) clash with the java.xml module
        try:
            with zipfile.ZipFile(j) as z:
                return any(n.startswith(('org/w3c/dom/', 'javax/xml/', 'org/xml/sax/')) for n in z.namelist())
        except Exception:
            return True
    cp = sorted(set(v for v in deb.values() if not clashes(v)))
    cp += ['/usr/share/java/osgi.cmpn-7.0.0.jar', '/usr/share/java/com.android.json.jar', '/usr/share/java/rhino.jar']
    built = []
    failed = []
    for b in order:
        d, h = tc[b]
        jar = out + '/plugins/' + b + '.jar'
        if os.path.exists(jar):
            built.append(jar); continue
        bp = open(d + '/build.properties', encoding='latin-1').read().replace('\\\n', '')
        props = {}
        for l in bp.split('\n'):
            if '=' in l and not l.lstrip().startswith('#'):
                k, v = l.split('=', 1)
                props[k.strip()] = [x.strip() for x in v.split(',') if x.strip()]
        srcdirs = [d + '/' + s for s in props.get('source..', [])]
        classes = out + '/classes/' + b
        shutil.rmtree(classes, ignore_errors=True)
        os.makedirs(classes)
        javas = []
        for s in srcdirs:
            for root, _, files in os.walk(s):
                for f in files:
                    p = os.path.join(root, f)
                    if f.endswith('.java'):
                        javas.append(p)
                    else:
                        rel = os.path.relpath(p, s)
                        os.makedirs(os.path.dirname(classes + '/' + rel), exist_ok=True)
                        shutil.copy(p, classes + '/' + rel)
        if javas:
            argfile = out + '/classes/' + b + '.args'
            open(argfile, 'w').write('\n'.join(javas))
            cmd = ['timeout', '600', 'ecj', '-17', '-proc:none', '-encoding', 'UTF-8', '-nowarn', '-proceedOnError',
                   '-d', classes, '-cp', ':'.join(cp + built), '@' + argfile]
            r = subprocess.run(cmd, capture_output=True, text=True)
            log = out + '/classes/' + b + '.log'
            open(log, 'w').write(r.stdout + r.stderr)
            errs = len(re.findall(r'^\d+\. ERROR in', r.stdout + r.stderr, re.M))
            print(f'{b}: {len(javas)} sources, {errs} errors (log {log})', flush=True)
            if errs:
                failed.append((b, errs))
        for inc in props.get('bin.includes', []):
            if inc in ('.', 'META-INF/'):
                continue
            p = d + '/' + inc.rstrip('/')
            if os.path.isdir(p):
                shutil.copytree(p, classes + '/' + inc.rstrip('/'), dirs_exist_ok=True)
            elif os.path.exists(p):
                shutil.copy(p, classes + '/' + inc)
        mf = open(d + '/META-INF/MANIFEST.MF', encoding='utf-8').read().replace('.qualifier', '.' + QUAL)
        # What Debian 12 lacks as OSGi bundles: CDT (symbol lookup only), org.json (LAMI), Rhino (XML scripts).
        mf = re.sub(r'^( org\.eclipse\.cdt\.core)(;[^,\n]*)?(,?)$', r'\1;resolution:=optional\3', mf, flags=re.M)
        mf = re.sub(r'^( org\.json)(;[^,\n]*)?(,?)$', r'\1;resolution:=optional\3', mf, flags=re.M)
        mf = re.sub(r'^( org\.mozilla\.javascript[\w.]*)(;[^,\n]*)?(,?)$', r'\1;resolution:=optional\3', mf, flags=re.M)
        mfpath = out + '/classes/' + b + '.MF'
        open(mfpath, 'w', encoding='utf-8').write(mf if mf.endswith('\n') else mf + '\n')
        subprocess.run(['jar', '--create', '--file', jar, '--manifest', mfpath, '-C', classes, '.'], check=True)
        built.append(jar)
    print('failed:', failed)

if __name__ == '__main__':
    main()
