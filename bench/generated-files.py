#!/usr/bin/env python3
"""What the generated-code classifier leaves out at every project root of realcode-dev (issue 77).

    bench/generated-files.py BIN [--list] [--corpus realcode-dev|realvuln-dev]

For each project root: the files classified as generated or vendored, their total bytes and the
count per signal, read from the scan's JSON report (summary.defaultExclusions, kind `generated`,
`signalsByFile`). The scan runs the secrets scanner only (`--tools secrets`): the classification
is the same whichever scanners run, and nothing else is timed here.

--list prints every classified file with its signals and size, for the `tune` half only
(bench/halves.py): the `check` half is counted, never looked at file by file.

Exit status: 0, or 2 on bad arguments or a scan that wrote no report.
"""

import collections
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import halves  # noqa: E402


def classified(binary, root):
    """{path: [signal, ...]} the scan of `root` left out as generated."""
    run = subprocess.run(
        [binary, "scan", root, "--tools", "secrets", "--format", "json", "--fail-on", "none", "--quiet"],
        capture_output=True, text=True, env=dict(os.environ, NO_COLOR="1"))
    try:
        report = json.loads(run.stdout)
    except json.JSONDecodeError:
        sys.exit(f"generated-files.py: {root}: no report (exit {run.returncode}): {run.stderr.strip()[:300]}")
    for exclusion in report.get("summary", {}).get("defaultExclusions") or []:
        if exclusion.get("kind") == "generated":
            return exclusion.get("signalsByFile") or {}
    return {}


def main(argv):
    if len(argv) < 1 or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    binary, rest = argv[0], argv[1:]
    listing = "--list" in rest
    corpus = rest[rest.index("--corpus") + 1] if "--corpus" in rest else "realcode-dev"
    base = os.path.join(halves.corpus_dir(corpus), "proj" if corpus == "realcode-dev" else "apps")
    totals = {half: collections.Counter() for half in halves.HALVES}
    print(f"{'project':22} {'half':5} {'files':>5} {'bytes':>10}  signals")
    for name in halves.apps(corpus):
        root = os.path.join(base, name)
        half = halves.half(name)
        files = classified(binary, root)
        size = sum(os.path.getsize(os.path.join(root, path)) for path in files)
        signals = collections.Counter(signal for found in files.values() for signal in found)
        totals[half].update(signals)
        totals[half]["(files)"] += len(files)
        totals[half]["(bytes)"] += size
        summary = ", ".join(f"{signal} {count}" for signal, count in sorted(signals.items()))
        print(f"{name:22} {half:5} {len(files):5} {size:10}  {summary}")
        if listing and half == "tune":
            for path in sorted(files):
                print(f"    {path}  [{', '.join(files[path])}]  {os.path.getsize(os.path.join(root, path))}")
    for half in halves.HALVES:
        counts = totals[half]
        signals = ", ".join(f"{s} {c}" for s, c in sorted(counts.items()) if not s.startswith("("))
        print(f"{half}: {counts['(files)']} files, {counts['(bytes)']} bytes; {signals}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
