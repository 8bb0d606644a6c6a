#!/usr/bin/env python3
"""Build wheels and a PEP 503 simple index for the fake fixture packages.

Usage: make_index.py OUTDIR

Sources live beside this script, one directory per package and version:

    <dist-name>/dist.json                          {"summary": ..., "extras": [...]}  (optional)
    <dist-name>/<version>/<import_name>/__init__.py

For every version this writes OUTDIR/files/<dist>-<version>-py3-none-any.whl and the
index pages OUTDIR/simple/index.html and OUTDIR/simple/<normalized-name>/index.html,
whose links carry a #sha256= fragment. Only the standard library is used and the output
is byte-for-byte deterministic (fixed timestamps and permissions, stored entries, sorted
order), so a wheel's sha256 can be pinned in a requirements file.
"""

import base64
import hashlib
import html
import json
import re
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
GENERATOR = "sentinel-fixture-make-index 1"
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def normalize(name):
    """PEP 503 project name normalisation."""
    return re.sub(r"[-_.]+", "-", name).lower()


def wheel_stem(name):
    """The distribution name as wheel file names spell it."""
    return re.sub(r"[-_.]+", "_", name).lower()


def version_key(version):
    return tuple(int(part) for part in version.split("."))


def record_hash(data):
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def metadata(name, version, info):
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {name}",
        f"Version: {version}",
        f"Summary: {info.get('summary', name)}",
        "License: MIT",
        f"Requires-Python: {info.get('requires_python', '>=3.8')}",
    ]
    lines += [f"Provides-Extra: {extra}" for extra in info.get("extras", [])]
    return ("\n".join(lines) + "\n").encode("utf-8")


def wheel_file():
    lines = [
        "Wheel-Version: 1.0",
        f"Generator: {GENERATOR}",
        "Root-Is-Purelib: true",
        "Tag: py3-none-any",
    ]
    return ("\n".join(lines) + "\n").encode("utf-8")


def build_wheel(name, version, source, info, files_dir):
    """Writes one wheel and returns its file name and sha256 hex digest."""
    stem = wheel_stem(name)
    dist_info = f"{stem}-{version}.dist-info"
    entries = []
    for path in sorted(p for p in source.rglob("*") if p.is_file()):
        relative = path.relative_to(source).as_posix()
        if "__pycache__" in relative.split("/") or relative.endswith(".pyc"):
            continue
        entries.append((relative, path.read_bytes()))
    if not any(rel.endswith("/__init__.py") for rel, _ in entries):
        raise SystemExit(f"{source}: no package with an __init__.py")
    entries.append((f"{dist_info}/METADATA", metadata(name, version, info)))
    entries.append((f"{dist_info}/WHEEL", wheel_file()))
    record = "".join(f"{rel},{record_hash(data)},{len(data)}\n" for rel, data in entries)
    record += f"{dist_info}/RECORD,,\n"
    entries.append((f"{dist_info}/RECORD", record.encode("utf-8")))

    filename = f"{stem}-{version}-py3-none-any.whl"
    target = files_dir / filename
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_STORED) as archive:
        for rel, data in entries:
            entry = zipfile.ZipInfo(rel, date_time=ZIP_DATE)
            entry.create_system = 3
            entry.external_attr = 0o100644 << 16
            entry.compress_type = zipfile.ZIP_STORED
            archive.writestr(entry, data)
    return filename, hashlib.sha256(target.read_bytes()).hexdigest()


def page(title, links):
    body = "".join(f'    <a href="{html.escape(href)}">{html.escape(text)}</a><br/>\n' for href, text in links)
    return (
        "<!DOCTYPE html>\n<html>\n  <head>\n"
        '    <meta name="pypi:repository-version" content="1.0">\n'
        f"    <title>{html.escape(title)}</title>\n  </head>\n  <body>\n"
        f"    <h1>{html.escape(title)}</h1>\n{body}  </body>\n</html>\n"
    )


def packages():
    """(name, info, [(version, source dir)]) for every package directory beside this script."""
    found = []
    for directory in sorted(HERE.iterdir()):
        if not directory.is_dir() or directory.name in ("osv", "__pycache__"):
            continue
        info_path = directory / "dist.json"
        info = json.loads(info_path.read_text()) if info_path.exists() else {}
        versions = [
            (child.name, child)
            for child in directory.iterdir()
            if child.is_dir() and re.fullmatch(r"\d+(\.\d+)*", child.name)
        ]
        if versions:
            found.append((directory.name, info, sorted(versions, key=lambda v: version_key(v[0]))))
    return found


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    out = Path(argv[1])
    files_dir = out / "files"
    simple_dir = out / "simple"
    files_dir.mkdir(parents=True, exist_ok=True)
    simple_dir.mkdir(parents=True, exist_ok=True)

    projects = []
    for name, info, versions in packages():
        links = []
        for version, source in versions:
            filename, digest = build_wheel(name, version, source, info, files_dir)
            links.append((f"../../files/{filename}#sha256={digest}", filename))
            print(f"{filename} sha256={digest}")
        project_dir = simple_dir / normalize(name)
        project_dir.mkdir(exist_ok=True)
        (project_dir / "index.html").write_text(page(f"Links for {normalize(name)}", links))
        projects.append(normalize(name))

    root_links = [(f"{project}/", project) for project in sorted(projects)]
    (simple_dir / "index.html").write_text(page("Simple index", root_links))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
