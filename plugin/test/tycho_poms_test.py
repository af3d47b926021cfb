#!/usr/bin/env python3
# SPDX-License-Identifier: EPL-2.0
"""The Maven Tycho build (releng/pom.xml) agrees with the bundles it builds.

Tycho cannot run on the project's machines (no Maven Central, no Eclipse p2
sites), so this checks what can be checked without it: every pom is
well-formed; the reactor lists every bundle of the plugin (every folder with a
META-INF/MANIFEST.MF), and nothing else; each module names releng/pom.xml as
its parent; its artifactId is its Bundle-SymbolicName and its version its
Bundle-Version (Tycho's rule: 1.2.3.qualifier <-> 1.2.3-SNAPSHOT); it is an
eclipse-plugin with a build.properties that puts META-INF/ in the jar.
    tycho_poms_test.py PLUGIN_DIR
"""
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

POM = "{http://maven.apache.org/POM/4.0.0}"


def text(element, path):
    found = element.find("/".join(POM + part for part in path.split("/")))
    return None if found is None else found.text.strip()


def manifest_headers(manifest):
    """Main section headers, continuation lines joined."""
    headers, last = {}, None
    for line in manifest.read_text(encoding="utf-8").splitlines():
        if line.startswith(" ") and last:
            headers[last] += line[1:]
        elif ":" in line:
            last, value = line.split(":", 1)
            headers[last] = value.strip()
    return headers


def main(plugin_dir):
    failures = []
    releng_pom = plugin_dir / "releng" / "pom.xml"
    try:
        releng = ElementTree.parse(releng_pom).getroot()
    except (OSError, ElementTree.ParseError) as error:
        print(f"{releng_pom}: {error}")
        return 1
    parent_id = (text(releng, "groupId"), text(releng, "artifactId"), text(releng, "version"))
    if text(releng, "packaging") != "pom":
        failures.append(f"{releng_pom}: packaging is not pom")

    modules = [(releng_pom.parent / m.text.strip()).resolve() for m in releng.iter(POM + "module")]
    # Tycho's and PDE's outputs (target/, bin/) may hold copies of a manifest: they are no bundles.
    bundles = sorted(m.parent.parent.resolve() for m in plugin_dir.glob("**/META-INF/MANIFEST.MF")
                     if not {"target", "bin"} & set(m.relative_to(plugin_dir).parts))
    if sorted(modules) != bundles:
        failures.append(f"the reactor's modules {[str(m) for m in modules]} are not the bundles "
                        f"{[str(b) for b in bundles]}")

    for module in modules:
        pom_file = module / "pom.xml"
        try:
            pom = ElementTree.parse(pom_file).getroot()
        except (OSError, ElementTree.ParseError) as error:
            failures.append(f"{pom_file}: {error}")
            continue
        where = str(pom_file)
        declared_parent = (text(pom, "parent/groupId"), text(pom, "parent/artifactId"), text(pom, "parent/version"))
        if declared_parent != parent_id:
            failures.append(f"{where}: parent {declared_parent} is not the reactor {parent_id}")
        relative = text(pom, "parent/relativePath") or "../pom.xml"
        if (module / relative).resolve() != releng_pom.resolve():
            failures.append(f"{where}: parent relativePath {relative} does not lead to {releng_pom}")
        if text(pom, "packaging") != "eclipse-plugin":
            failures.append(f"{where}: packaging is not eclipse-plugin")
        headers = manifest_headers(module / "META-INF" / "MANIFEST.MF")
        symbolic_name = headers.get("Bundle-SymbolicName", "").split(";")[0].strip()
        if text(pom, "artifactId") != symbolic_name:
            failures.append(f"{where}: artifactId {text(pom, 'artifactId')} is not Bundle-SymbolicName "
                            f"{symbolic_name}")
        version = text(pom, "version") or declared_parent[2]
        bundle_version = headers.get("Bundle-Version", "")
        expected = bundle_version.replace(".qualifier", "-SNAPSHOT")
        if version != expected:
            failures.append(f"{where}: version {version} does not match Bundle-Version {bundle_version} "
                            f"(Tycho wants {expected})")
        build_properties = module / "build.properties"
        if not build_properties.is_file() or "META-INF/" not in build_properties.read_text(encoding="utf-8"):
            failures.append(f"{build_properties}: missing, or its bin.includes lacks META-INF/")

    for failure in failures:
        print(failure)
    print(f"{len(modules)} modules checked")
    print("0 passed, 1 failed" if failures else "1 passed, 0 failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
