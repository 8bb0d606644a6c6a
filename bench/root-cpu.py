#!/usr/bin/env python3
"""CPU at a repository root (issue 77): Sentinel's default scan beside Bandit (where the root holds
Python) and Semgrep's JavaScript/TypeScript rules (where it holds JS/TS), one root at a time, in
one run, at every project of ../shared/corpora/realcode-dev and every app of realvuln-dev and
js-vuln-dev, where users point the tool: the root of the tree.

    bench/root-cpu.py BIN                        # sentinel and Bandit at every root
    bench/root-cpu.py BIN --semgrep              # and Semgrep on the JS/TS roots (slow: minutes each)
    bench/root-cpu.py BIN --only NAME...         # these roots only (names as printed)
    bench/root-cpu.py BIN --half tune|check      # one half (bench/halves.py owns the split)
    bench/root-cpu.py BIN --runs 7               # the median of 7 runs of each tool, alternated,
                                                 # in milliseconds (a small root costs 0.1-0.4 s)
    bench/root-cpu.py BIN --include '*.py'       # the scan analyses only these files (repeatable,
                                                 # the scan's own --include): what Bandit reads

CPU is user + system seconds of the tool and every process it waited for (os.wait4's rusage),
which a loaded machine inflates far less than wall time; each tool runs once per root. The scan:
`BIN scan ROOT --allow-stale-db --allow-missing-db --fail-on none --format json` (defaults: SAST,
secrets, dependencies) with a fresh SENTINEL_HOME holding the corpus's PyPI advisories. Bandit:
`bandit -r ROOT -f json -q` (its defaults). Semgrep: `semgrep scan --config DIR --metrics off
--json ROOT` with the JavaScript and TypeScript rules of ../shared/corpora/semgrep-rules (Semgrep's
own registry is not reachable offline). Prints one row per root: Python and JS/TS files, each
tool's CPU seconds and peak RSS, and the ratios the issue states (sentinel / Bandit, Semgrep /
sentinel); the last rows say where a ratio does not hold.

Exit status: 0, or 2 on bad arguments.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from halves import half  # noqa: E402  (the one split of every corpus)

CORPORA = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "corpora"))
TOOLS = os.environ.get("SENTINEL_TOOLS", "/opt/sentinel-tools/venv") + "/bin"
SKIPPED = {".git", "node_modules", ".venv", "venv", "__pycache__"}
PYTHON = (".py",)
SCRIPT = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx", ".vue", ".svelte")


def roots():
    """(name, path) of every root: realcode-dev projects, then the labelled apps."""
    found = []
    for corpus, folder in (("realcode-dev", "proj"), ("realvuln-dev", "apps"), ("js-vuln-dev", "apps")):
        base = os.path.join(CORPORA, corpus, folder)
        if not os.path.isdir(base):
            sys.exit(f"root-cpu.py: {base}: corpus missing")
        for name in sorted(os.listdir(base)):
            if os.path.isdir(os.path.join(base, name)):
                found.append((name, os.path.join(base, name)))
    return found


def count_files(root):
    python = script = 0
    for directory, subdirectories, names in os.walk(root):
        subdirectories[:] = [d for d in subdirectories if d not in SKIPPED]
        for name in names:
            python += name.endswith(PYTHON)
            script += name.endswith(SCRIPT)
    return python, script


def measure(command, env=None, limit=3600):
    """CPU seconds (self + waited-for children), peak RSS in MiB and exit status of `command`."""
    started = time.monotonic()
    with open(os.devnull, "wb") as null:
        process = subprocess.Popen(command, stdout=null, stderr=null, env=env)
    deadline = started + limit
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            process.kill()
            pid, status, usage = os.wait4(process.pid, 0)
            break
        time.sleep(0.05)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def semgrep_rules(into):
    """The corpus's JavaScript and TypeScript rules as one config directory (rule files only)."""
    os.makedirs(into, exist_ok=True)
    for language in ("javascript", "typescript"):
        base = os.path.join(CORPORA, "semgrep-rules", language)
        for directory, _, names in os.walk(base):
            for name in names:
                if name.endswith((".yaml", ".yml")) and not name.endswith(".test.yaml"):
                    source = os.path.join(directory, name)
                    flat = language + "__" + os.path.relpath(source, base).replace(os.sep, "__")
                    shutil.copyfile(source, os.path.join(into, flat))
    return into


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--semgrep", action="store_true")
    parser.add_argument("--only", nargs="+")
    parser.add_argument("--half", choices=("tune", "check"))
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--include", action="append", default=[], metavar="GLOB")
    arguments = parser.parse_args()
    if arguments.runs < 1:
        print("root-cpu.py: --runs must be at least 1", file=sys.stderr)
        return 2
    binary = os.path.abspath(arguments.binary)
    if not os.access(binary, os.X_OK):
        print(f"root-cpu.py: {binary}: not an executable file", file=sys.stderr)
        return 2
    selected = [(n, p) for n, p in roots()
                if (not arguments.only or n in arguments.only) and (not arguments.half or half(n) == arguments.half)]
    if not selected:
        print("root-cpu.py: no root selected", file=sys.stderr)
        return 2
    work = tempfile.mkdtemp(prefix="root-cpu.")
    home = os.path.join(work, "home")
    os.makedirs(home)
    env = dict(os.environ, SENTINEL_HOME=home)
    # The binary's rule pack, as `make release` and `make install` write it (a build without one
    # reads every rule's YAML and lowers every pattern at each scan; older builds lack the command).
    subprocess.run([binary, "rules", "compile"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    subprocess.run([binary, "db", "import", os.path.join(CORPORA, "osv", "pypa")], env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    rules = semgrep_rules(os.path.join(work, "semgrep-rules")) if arguments.semgrep else None

    header = f"{'root':44} {'half':5} {'py':>5} {'js/ts':>6} {'sentinel s':>10} {'MiB':>6} {'bandit s':>8} " \
             f"{'semgrep s':>9} {'S/B':>6} {'G/S':>6}"
    print(f"sentinel: {binary}" + "".join(f" --include {glob}" for glob in arguments.include))
    print(header)
    misses = []
    for name, root in selected:
        python, script = count_files(root)
        scan = [binary, "scan", root, "--allow-stale-db", "--allow-missing-db", "--fail-on", "none",
                "--format", "json", "--output", os.path.join(work, name + ".json")]
        for glob in arguments.include:
            scan += ["--include", glob]
        bandit_command = [TOOLS + "/bandit", "-r", root, "-f", "json", "-q"]
        scans, bandits, rss, status = [], [], 0, 0
        # Alternated, so a change of the machine's load falls on both tools alike.
        for _ in range(arguments.runs):
            cpu, peak, status = measure(scan, env=env)
            if status not in (0, 1):
                break
            scans.append(cpu)
            rss = max(rss, peak)
            if python:
                bandits.append(measure(bandit_command)[0])
        if status not in (0, 1):
            print(f"root-cpu.py: {name}: the scan exited {status} (no figure)", file=sys.stderr)
            misses.append(f"{name}: scan failed ({status})")
            continue
        cpu = statistics.median(scans)
        bandit = statistics.median(bandits) if bandits else None
        semgrep = None
        if rules and script:
            semgrep = measure([TOOLS + "/semgrep", "scan", "--config", rules, "--metrics", "off", "--json",
                               "--quiet", "--disable-version-check", root])[0]
        ratio_b = cpu / bandit if bandit else None
        ratio_g = semgrep / cpu if semgrep else None
        seconds = 3 if arguments.runs > 1 else 1
        show = lambda value, digits=seconds: "–" if value is None else f"{value:.{digits}f}"  # noqa: E731
        print(f"{name[:44]:44} {half(name):5} {python:5} {script:6} {show(cpu):>10} {rss:6.0f} {show(bandit):>8} "
              f"{show(semgrep):>9} {show(ratio_b, 2):>6} {show(ratio_g):>6}", flush=True)
        if ratio_b is not None and ratio_b > 1:
            misses.append(f"{name}: {ratio_b:.2f}x Bandit's CPU")
        if ratio_g is not None and ratio_g < 20:
            misses.append(f"{name}: Semgrep only {ratio_g:.1f}x sentinel's CPU")
    print("roots where a ratio does not hold: " + ("; ".join(misses) if misses else "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
