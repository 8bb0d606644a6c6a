#!/usr/bin/env python3
"""What one file's analysis costs in work units (issue 77, "a budget per file"), over the corpora
and over bench/growth.py's shapes at 16x, to set `--max-file-work`'s default
(`SASTEngine.defaultMaxFileWork`) well above every real file and below the crafted shapes.

    bench/work-budget.py SENTINEL [--growth-only] [--corpora-only]

SENTINEL is a release binary. Each target is scanned once with defaults (`--sast --tools native`,
`SENTINEL_WORK_TRACE=1`: the engine prints `work: UNITS FILE` per file on stderr). Prints, per
corpus and half (bench/halves.py: the default is set from the `tune` half; the `check` half is
reported beside it as a count, its files never named), the files analysed, the largest cost and
its file, and the units of each growth shape at 16x with its CPU seconds.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import growth  # noqa: E402
import halves  # noqa: E402

CORPORA = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "corpora"))


def trace(sentinel, root, env):
    """[(units, file)] of one scan of `root`, and its CPU seconds."""
    timing = tempfile.mktemp(prefix="work-time-")
    command = ["/usr/bin/time", "-f", "%U %S", "-o", timing, sentinel, "scan", root, "--sast", "--tools", "native",
               "--fail-on", "none", "--format", "json", "--output", "/dev/null"]
    done = subprocess.run(command, env=dict(env, SENTINEL_WORK_TRACE="1"), capture_output=True, text=True)
    if done.returncode not in (0, 1):
        print(f"  {root}: exit {done.returncode}: {done.stderr.strip()[-300:]}", file=sys.stderr)
    out = []
    for line in done.stderr.splitlines():
        if line.startswith("work: "):
            units, _, file = line[len("work: "):].partition(" ")
            out.append((int(units), file))
    with open(timing) as f:
        user, system = f.read().strip().splitlines()[-1].split()
    os.unlink(timing)
    return out, float(user) + float(system)


def targets():
    """(corpus, half, name, path) of every target: the labelled corpora's apps, realcode-dev's
    projects, Bandit's examples and Semgrep's rule tests (one target each, not split)."""
    for corpus in ("realcode-dev", "realvuln-dev", "js-vuln-dev", "js-cve-dev"):
        folder = os.path.join(CORPORA, corpus, "proj" if corpus == "realcode-dev" else "apps")
        for name in halves.apps(corpus):
            path = os.path.join(folder, name)
            if os.path.isdir(path):
                yield corpus, halves.half(name), name, path
    yield "bandit", "-", "examples", os.path.join(CORPORA, "bandit", "examples")
    for language in ("python", "javascript", "typescript"):
        yield "semgrep-rules", "-", language, os.path.join(CORPORA, "semgrep-rules", language)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("sentinel")
    parser.add_argument("--growth-only", action="store_true")
    parser.add_argument("--corpora-only", action="store_true")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="work-budget-")
    env = dict(os.environ, SENTINEL_HOME=os.path.join(work, "home"))
    try:
        if not args.growth_only:
            best = {}
            for corpus, half, name, path in targets():
                found, _ = trace(args.sentinel, path, env)
                key = (corpus, half)
                files, top = best.get(key, (0, (0, "")))
                for units, file in found:
                    if units > top[0]:
                        top = (units, f"{name}/{file}")
                best[key] = (files + len(found), top)
                print(f"  {corpus} {half} {name}: {len(found)} files, max {max([u for u, _ in found], default=0)}",
                      file=sys.stderr, flush=True)
            print("| corpus | half | files | largest units | file |")
            print("|---|---|---:|---:|---|")
            for (corpus, half), (files, (units, file)) in sorted(best.items()):
                shown = "(not named: check half)" if half == "check" else file
                print(f"| {corpus} | {half} | {files} | {units:,} | {shown} |")
        if not args.corpora_only:
            print("\n| shape at 16x | N | units | CPU s |")
            print("|---|---:|---:|---:|")
            for key, (generate, base) in growth.SHAPES.items():
                repo = os.path.join(work, key)
                growth.write(repo, generate(base * 16))
                found, seconds = trace(args.sentinel, repo, env)
                units = max([u for u, _ in found], default=0)
                print(f"| {key} | {base * 16} | {units:,} | {seconds:.2f} |", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
