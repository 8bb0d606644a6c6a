#!/usr/bin/env python3
"""The one split of every benchmark corpus into a tuning half and a check half (issue 75).

Rules are looked at, judged and tuned on the `tune` half only; the `check` half is reported beside
it and is never read to write a rule. A change that helps `tune` and not `check` is fitting.

The half of a project or app is fixed by a hash of its name alone (SHA-256 of
"sentinel-halves-v1:" + name, lowest bit of the first byte: 0 is `tune`, 1 is `check`), so adding
a project never moves another, and no one chooses where a project lands. A js-cve-dev CVE keeps
its vulnerable tree and its patched tree (`<CVE>-patched`) in one half: they are one project.

    bench/halves.py half NAME...                  # the half of each name
    bench/halves.py list CORPUS [tune|check]      # a corpus's apps (or projects) and their halves
    bench/halves.py score CORPUS BIN [flags...]   # scan every app once, score each half and the whole
                                                  # with the corpus's own RealVuln matcher (rv.py)

CORPUS: realvuln-dev, js-vuln-dev, js-cve-dev (labelled, scored here) or realcode-dev (listed;
bench/realcode-gate.py --half scores it). Other scripts import `half()` from here.

Exit status: 0, or 2 on bad arguments or a scan that wrote no report.
"""

import hashlib
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CORPORA = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "corpora"))
HALVES = ("tune", "check")
LABELLED = ("realvuln-dev", "js-vuln-dev", "js-cve-dev")
PATCHED = "-patched"


def project_of(name):
    """The project an app tree belongs to: a patched tree is its CVE's project."""
    return name[: -len(PATCHED)] if name.endswith(PATCHED) else name


def half(name):
    """`tune` or `check`: fixed by the project's name alone."""
    digest = hashlib.sha256(("sentinel-halves-v1:" + project_of(name)).encode("utf-8")).digest()
    return HALVES[digest[0] & 1]


def corpus_dir(corpus):
    path = os.path.join(CORPORA, corpus)
    if not os.path.isdir(path):
        sys.exit(f"halves.py: {path}: no such corpus")
    return path


def apps(corpus):
    """The apps of a labelled corpus (its ground-truth folders) or the projects of realcode-dev."""
    root = corpus_dir(corpus)
    folder = os.path.join(root, "proj" if corpus == "realcode-dev" else "ground-truth")
    return sorted(name for name in os.listdir(folder) if os.path.isdir(os.path.join(folder, name)))


def subset_corpus(root, names, into):
    """A corpus folder holding only `names`' labels, the rest linked to the real corpus."""
    os.makedirs(os.path.join(into, "ground-truth"))
    for entry in os.listdir(root):
        if entry != "ground-truth":
            os.symlink(os.path.join(root, entry), os.path.join(into, entry))
    for name in names:
        os.symlink(os.path.join(root, "ground-truth", name), os.path.join(into, "ground-truth", name))
    return into


def table_lines(text):
    """The score's first table (tool rows) and its family table, as printed by rv.py."""
    keep, inside = [], False
    for line in text.splitlines():
        if line.startswith("| tool") or line.startswith("| family"):
            inside = True
        if inside and not line.startswith("|"):
            inside = False
            keep.append("")
        if inside:
            keep.append(line)
    return "\n".join(keep).rstrip()


def score(corpus, binary, flags):
    root = corpus_dir(corpus)
    binary = os.path.abspath(binary)
    if not os.access(binary, os.X_OK):
        sys.exit(f"halves.py: {binary}: not an executable file")
    rv = os.path.join(root, "rv.py")
    names = apps(corpus)
    with tempfile.TemporaryDirectory(prefix="halves-") as tmp:
        env = dict(os.environ, SENTINEL_HOME=os.path.join(tmp, "home"), PYTHONDONTWRITEBYTECODE="1")
        os.makedirs(env["SENTINEL_HOME"])
        started = time.monotonic()
        for name in names:
            tree = os.path.join(root, "apps", name)
            if not os.path.isdir(tree):
                print(f"halves.py: {tree}: no tree (scored as no results)", file=sys.stderr)
                continue
            sarif = os.path.join(tmp, "sarif", name + ".sarif")
            os.makedirs(os.path.dirname(sarif), exist_ok=True)
            with open(os.path.join(tmp, name + ".stderr"), "wb") as err:
                rc = subprocess.call([binary, "scan", tree, "--tools", "native", "--format", "sarif",
                                      "--fail-on", "none", *flags, "--output", sarif], stderr=err, env=env)
            if not (os.path.exists(sarif) and os.path.getsize(sarif) > 0):
                sys.exit(f"halves.py: {name}: the scan wrote no report (exit {rc})")
            subprocess.check_call([sys.executable, rv, "sarif", sarif, tree,
                                   os.path.join(tmp, "scan", name, "sentinel", "results.json")], env=env)
        elapsed = time.monotonic() - started
        peers = []
        if os.path.isdir(os.path.join(root, "published")):
            tools = sorted({tool for app in os.listdir(os.path.join(root, "published"))
                            for tool in os.listdir(os.path.join(root, "published", app))})
            peers = [f"{tool}={os.path.join(root, 'published')}" for tool in tools]
        print(f"{corpus}: {binary}{' ' + ' '.join(flags) if flags else ''}; {len(names)} trees scanned in {elapsed:.1f} s")
        for label, members in (("tune", [n for n in names if half(n) == "tune"]),
                               ("check", [n for n in names if half(n) == "check"]),
                               ("all", names)):
            sub = subset_corpus(root, members, os.path.join(tmp, "corpus-" + label))
            out = subprocess.run([sys.executable, rv, "score", sub, f"sentinel={os.path.join(tmp, 'scan')}", *peers,
                                  "--families", "sentinel"], env=env, check=True, capture_output=True, text=True).stdout
            projects = sorted({project_of(n) for n in members})
            print(f"\n### {label} half: {len(projects)} projects ({', '.join(projects)})\n" if label != "all"
                  else f"\n### both halves: {len(projects)} projects\n")
            print(table_lines(out))


def main(argv):
    if len(argv) >= 2 and argv[0] == "half":
        for name in argv[1:]:
            print(f"{name}\t{half(name)}")
        return 0
    if len(argv) in (2, 3) and argv[0] == "list":
        wanted = argv[2] if len(argv) == 3 else None
        if wanted not in (None, *HALVES):
            sys.exit("halves.py: the half is tune or check")
        for name in apps(argv[1]):
            if wanted in (None, half(name)):
                print(f"{name}\t{half(name)}")
        return 0
    if len(argv) >= 3 and argv[0] == "score":
        if argv[1] not in LABELLED:
            sys.exit(f"halves.py: score takes one of {', '.join(LABELLED)} (realcode-dev: bench/realcode-gate.py --half)")
        score(argv[1], argv[2], argv[3:])
        return 0
    print(__doc__.split("\n\n")[2], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
