#!/usr/bin/env python3
"""Writes the seed corpus of one fuzz target (fuzz/Sources/fuzz-TARGET) into OUTDIR.

Each seed is one selector byte (which reader variant the target runs, see its main.swift)
followed by a real document: the repository's test fixtures and, when present, the shared
corpora read in place (../shared/corpora). Seeds are generated at run time into a build
directory and never committed. usage: fuzz-seeds.py TARGET OUTDIR
"""
import hashlib
import io
import os
import random
import sys
import zipfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
CORPORA = os.path.normpath(os.path.join(ROOT, "..", "shared", "corpora"))
if not os.path.isdir(CORPORA):
    CORPORA = "/work/shared/corpora"
LOCKFILES = os.path.join(ROOT, "Tests/SCATests/Fixtures/lockfiles")
MAX_SEED = 64 << 10
rng = random.Random(26)


def files(top, suffixes=None, names=None, limit=None):
    found = []
    if not os.path.isdir(top):
        return found
    for directory, subdirs, entries in os.walk(top):
        subdirs.sort()
        for entry in sorted(entries):
            if suffixes and not entry.endswith(tuple(suffixes)):
                continue
            if names and entry not in names:
                continue
            path = os.path.join(directory, entry)
            if os.path.isfile(path) and not os.path.islink(path):
                found.append(path)
    if limit and len(found) > limit:
        found = rng.sample(found, limit)
    return found


def read(path):
    with open(path, "rb") as handle:
        return handle.read(MAX_SEED)


def write(outdir, selector, content):
    data = bytes([selector]) + content[:MAX_SEED]
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(outdir, name), "wb") as handle:
        handle.write(data)


def documents(outdir):
    for path in files(ROOT + "/Tests", [".json"]) + files(CORPORA + "/osv", [".json"], limit=150):
        write(outdir, 0, read(path))
    for path in files(LOCKFILES, [".lock", ".toml"]) + files(CORPORA, [".toml"]):
        write(outdir, 1, read(path))
    yamls = files(ROOT + "/Tests", [".yaml", ".yml"]) + files(CORPORA + "/osv", [".yaml"], limit=100)
    yamls += files(CORPORA + "/semgrep-rules", [".yaml"], limit=60)
    for index, path in enumerate(yamls):
        write(outdir, 2 + index % 4, read(path))


# Same order as fuzz-lockfiles' parser table (LockfileDetector.parsers()).
LOCKFILE_KINDS = [
    ("requirements", [".txt", ".in"]), ("pipenv", ["Pipfile.lock"]), ("poetry", ["poetry.lock"]),
    ("uv", ["uv.lock"]), ("pdm", ["pdm.lock"]), ("cargo", [".lock"]), ("go", ["go.mod"]), ("go", ["go.sum"]),
    ("npm", ["package-lock-v1.json", "package-lock-v2.json", "package-lock-v3.json"]), ("yarn", [".lock"]),
    ("pnpm", [".yaml"]), ("bun", ["bun.lock"]), ("ruby", ["Gemfile.lock"]), ("composer", ["composer.lock"]),
    ("swiftpm", [".resolved"]),
]


def lockfiles(outdir):
    for selector, (folder, suffixes) in enumerate(LOCKFILE_KINDS):
        for path in files(os.path.join(LOCKFILES, folder), suffixes):
            write(outdir, selector, read(path))


def requirements(outdir):
    paths = files(os.path.join(LOCKFILES, "requirements"))
    paths += files(ROOT + "/Tests/Fixtures/heal", names={"requirements.txt"})
    paths += files(CORPORA, names={"requirements.txt", "requirements-dev.txt", "requirements.in"})
    texts = [read(path) for path in paths]
    for index, text in enumerate(texts):
        write(outdir, index % 4, text)
        # Includes: the target splits its input on NUL into files 0, 1, ...; `-r 1` names file 1.
        other = texts[(index + 1) % len(texts)]
        write(outdir, index % 4, b"-r 1\n-c 2\n" + text + b"\0" + other + b"\0-r 0\n")
    hand = [
        b"a==1.0 \\\nb==2\n# c\x0crequests==2.19.1\n\x0bx==1\xc2\x85y==2\xe2\x80\xa8z==3\n",
        b"\xef\xbb\xbfpkg[extra1,extra2]>=1,<2; python_version < '3.8' --hash=sha256:ab\n",
        b"\xff\xfea\x00=\x00=\x001\x00\n\x00",
        b"-e git+https://x/y#egg=z\n--index-url http://i\n-r https://r\n-r ../../etc/shadow\n",
    ]
    for index, text in enumerate(hand):
        write(outdir, index, text)


def python(outdir):
    paths = files(CORPORA + "/bandit", [".py"]) + files(CORPORA + "/semgrep-rules", [".py"], limit=150)
    paths += files(CORPORA + "/condefects-py", [".py"], limit=100)
    paths += files(CORPORA + "/realvuln-dev", [".py"], limit=100)
    paths += files(ROOT + "/Tests/Fixtures", [".py"], limit=100)
    for index, path in enumerate(paths):
        write(outdir, index % 2, read(path))
    for codec in [b"utf-8", b"latin-1", b"unicode_escape", b"raw_unicode_escape", b"utf-7", b"cp1252", b"utf-16"]:
        write(outdir, 0, b"# -*- coding: " + codec + b" -*-\nx = 1 #\\u000aimport os\n")


def signals(outdir):
    paths = files(ROOT + "/Tests/HealTests/Fixtures/signals") + files(CORPORA + "/sarif", [".json"])
    paths += files(ROOT + "/Tests", [".sarif"]) + files(ROOT + "/Tests/AdaptersTests/Fixtures", [".json"])
    for path in paths:
        name = os.path.basename(path)
        kind = 1 if name.endswith(".xml") else 2 if name.startswith("pytest") else 3 if name.endswith(".jsonl") else 0
        if name.startswith("traceback"):
            kind = 4
        write(outdir, kind, read(path))


def osvzip(outdir):
    records = files(CORPORA + "/osv/rustsec", [".json"], limit=40) + files(CORPORA + "/osv/golang", [".json"], limit=40)
    records += files(ROOT + "/Tests/SCATests/Fixtures/ghsa", [".json"])
    for start in range(0, len(records), 4):
        for method in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w", method) as archive:
                for path in records[start:start + 4]:
                    archive.writestr(os.path.basename(path), read(path))
            write(outdir, start // 4 % 2, buffer.getvalue())
    # zip64 in every record (end record, locator, central and local extras), as a > 4 GiB or
    # > 65,535-entry export has: the limits are lowered so a small archive takes that form.
    limits = zipfile.ZIP64_LIMIT, zipfile.ZIP_FILECOUNT_LIMIT
    zipfile.ZIP64_LIMIT, zipfile.ZIP_FILECOUNT_LIMIT = 0, 1
    try:
        for start in range(0, min(len(records), 16), 4):
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
                for path in records[start:start + 4]:
                    with archive.open(os.path.basename(path), "w", force_zip64=True) as entry:
                        entry.write(read(path))
            write(outdir, 0, buffer.getvalue())
    finally:
        zipfile.ZIP64_LIMIT, zipfile.ZIP_FILECOUNT_LIMIT = limits


TARGETS = {
    "documents": documents, "lockfiles": lockfiles, "requirements": requirements, "python": python,
    "signals": signals, "osvzip": osvzip,
}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in TARGETS:
        sys.exit("usage: fuzz-seeds.py {%s} OUTDIR" % ",".join(TARGETS))
    os.makedirs(sys.argv[2], exist_ok=True)
    TARGETS[sys.argv[1]](sys.argv[2])
    print("%d seeds in %s" % (len(os.listdir(sys.argv[2])), sys.argv[2]))
