#!/usr/bin/env python3
"""Heal on the ConDefects dev set: run.sh over the first N bugs, then the figures BENCHMARKS.md quotes.

    bench/heal-condefects.py SENTINEL [N] [--work DIR] [--half tune|check] [--skip K] [--corpus DIR]
    bench/heal-condefects.py - --work DIR --summarise     # the figures of an earlier run, again
    bench/heal-condefects.py - --work DIR --against OLD   # ... and the bugs whose outcome differs from OLD's

The corpus's own runner (../shared/corpora/condefects-py/run.sh) runs `sentinel heal` on each bug
and judges the emitted patch outside Sentinel. This wrapper gives the run a fresh SENTINEL_HOME (so
no memory from an earlier run replays or boosts anything) and then reads each bug's evidence.json
for what the runner does not print: attempts per fix, the strategy that fixed it, verification time
and the sandbox's share of it, and how deep in the template search each fix was found (template
candidates that ran and failed before it; `heal --repair-depth` stops there). CONDEFECTS_MAX_MINUTES
(default 3) is passed through.

--corpus runs a derivative of the corpus laid out as it is (bench/condefects-scaled.py makes one).
--half runs the first N bugs of one half (bench/halves.py splits by the task's name, `abc223_a`):
the runner is given a copy of the corpus's bugs.tsv holding that half's rows, the rest linked.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import shutil
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from halves import half  # noqa: E402

CORPUS = HERE.parent.parent / "shared" / "corpora" / "condefects-py"
RUN_SH = CORPUS / "run.sh"


def half_corpus(which, into, skip=0, corpus=CORPUS):
    """A corpus folder whose bugs.tsv holds the rows of one half (all rows when `which` is None),
    the first `skip` of them left out; bugs and answers linked. The runner finds its corpus from
    its own path (resolved), so its tools are copied, not linked."""
    into.mkdir(parents=True, exist_ok=True)
    rows = (corpus / "bugs.tsv").read_text(encoding="utf-8").splitlines()
    task = rows[0].split("\t").index("task")
    chosen = [r for r in rows[1:] if r.strip() and (which is None or half(r.split("\t")[task]) == which)]
    kept = [rows[0]] + chosen[skip:]
    (into / "bugs.tsv").write_text("\n".join(kept) + "\n", encoding="utf-8")
    for name in ("bugs", "answers"):
        link = into / name
        if not link.exists():
            link.symlink_to((corpus / name).resolve())
    shutil.copytree(corpus / "tools", into / "tools", dirs_exist_ok=True)
    shutil.copy2(corpus / "run.sh", into / "run.sh")
    return into / "run.sh"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sentinel")
    ap.add_argument("n", nargs="?", type=int, default=40)
    ap.add_argument("--work", help="where logs go (default: bench/out/condefects-<time>)")
    ap.add_argument("--half", choices=("tune", "check"), help="only the bugs of this half (bench/halves.py)")
    ap.add_argument("--skip", type=int, default=0, metavar="K",
                    help="leave out the first K bugs (of the half): runs N bugs from the (K+1)th")
    ap.add_argument("--corpus", help="a derivative of condefects-py laid out as it is (default: the corpus itself)")
    ap.add_argument("--summarise", action="store_true",
                    help="only read the logs an earlier run left in --work (SENTINEL is not run)")
    ap.add_argument("--against", metavar="OLD",
                    help="with --summarise: list the bugs whose outcome (fixed, equal, the winning template) "
                         "differs from OLD's run of the same bugs; names only, no patch is shown")
    args = ap.parse_args()
    if not RUN_SH.exists():
        sys.exit("not found: %s (the corpus sits beside the project, in ../shared)" % RUN_SH)
    if args.summarise and not args.work:
        sys.exit("--summarise needs --work DIR (an earlier run's)")
    work = Path(args.work or HERE / "out" / ("condefects-%d" % int(time.time()))).resolve()
    if args.against and not args.summarise:
        sys.exit("--against needs --summarise")
    if not args.summarise:
        run(args, work)
    summarise(work)
    if args.against:
        compare(Path(args.against).resolve(), work)


def run(args, work):
    """run.sh over the bugs, its logs in `work`."""
    work.mkdir(parents=True, exist_ok=True)
    home = work / "home"
    home.mkdir(exist_ok=True)
    env = dict(os.environ, CONDEFECTS_WORK=str(work / "bugs"), SENTINEL_HOME=str(home))
    corpus = Path(args.corpus).resolve() if args.corpus else CORPUS
    run_sh = half_corpus(args.half, work / "corpus", args.skip, corpus) if args.half or args.skip else corpus / "run.sh"
    rc = subprocess.call([str(run_sh), args.sentinel, str(args.n)], env=env)
    if rc != 0:
        sys.exit("run.sh exited %d" % rc)


def outcomes(work):
    """Bug id -> (fixed, equal, winning template or "-") of a run's logs."""
    out = {}
    for row in csv.DictReader(open(work / "bugs" / "results.tsv"), delimiter="\t"):
        strategy = "-"
        evidence_file = work / "bugs" / row["id"] / "out" / "evidence.json"
        if evidence_file.exists():
            winner = [a for a in json.load(open(evidence_file))["attempts"] if a["verdict"] == "verified"]
            strategy = winner[0]["strategy"] if winner else "-"
        out[row["id"]] = (row["fixed"], row["equal"], strategy)
    return out


def compare(old, new):
    """The bugs whose outcome differs between two runs: what a change moved, bug by bug. Only
    names and templates are printed, so the check half can be compared without reading it."""
    before, after = outcomes(old), outcomes(new)
    changed = [b for b in after if b in before and before[b] != after[b]]
    print("# against %s: %d of %d bugs differ" % (old, len(changed), len(after)))
    for bug in changed:
        print("#   %s: fixed %s, equal %s, by %s -> fixed %s, equal %s, by %s" % ((bug,) + before[bug] + after[bug]))


def summarise(work):
    """The figures, from the logs run.sh left in `work`."""
    rows = list(csv.DictReader(open(work / "bugs" / "results.tsv"), delimiter="\t"))
    fixed = [r for r in rows if r["fixed"] == "yes"]
    attempts, strategies, verification, overhead = [], {}, 0, 0
    depth = {}  # bug id -> template candidates that ran and failed before the verified one
    for row in rows:
        evidence_file = work / "bugs" / row["id"] / "out" / "evidence.json"
        if not evidence_file.exists():
            continue
        evidence = json.load(open(evidence_file))
        verification += evidence["timing"]["verificationMilliseconds"]
        overhead += evidence["timing"]["sandboxOverheadMilliseconds"]
        if row["fixed"] == "yes":
            winner = [a for a in evidence["attempts"] if a["verdict"] == "verified"]
            attempts.append(len([a for a in evidence["attempts"] if a["verdict"] != "skipped"]))
            if winner:
                strategies[winner[0]["strategy"]] = strategies.get(winner[0]["strategy"], 0) + 1
                depth[row["id"]] = sum(
                    1 for a in evidence["attempts"]
                    if a["number"] < winner[0]["number"] and a["actor"] == "logic-repair"
                    and a["verdict"] in ("failed", "flaky"))
    equal = sum(1 for r in fixed if r["equal"] == "True")
    seconds = [float(r["seconds"]) for r in fixed]
    print()
    print("# %d bugs: fixed %d, equal to the author's fix %d" % (len(rows), len(fixed), equal))
    if fixed:
        print("# attempts per fix: mean %.1f, median %g, max %d" % (
            statistics.mean(attempts), statistics.median(attempts), max(attempts)))
        print("# heal time per fix: mean %.1f s, median %.1f s" % (statistics.mean(seconds), statistics.median(seconds)))
    print("# heal time, all bugs: %.0f s" % sum(float(r["seconds"]) for r in rows))
    if verification:
        print("# sandbox overhead: %.1f%% of %.1f s verification time" % (100.0 * overhead / verification, verification / 1000))
    # What `heal --repair-depth` (default 40) keeps: fixes found before that many template
    # candidates failed, against those found deeper (a build with the depth finds none deeper).
    for limit in (20, 40, 80):
        within = [r for r in fixed if depth.get(r["id"], 0) <= limit]
        past = [r for r in fixed if depth.get(r["id"], 0) > limit]
        print("# within depth %d: fixed %d (equal %d); past it: fixed %d (equal %d)" % (
            limit, len(within), sum(1 for r in within if r["equal"] == "True"),
            len(past), sum(1 for r in past if r["equal"] == "True")))
    print("# fixed by: " + ", ".join("%s %d" % kv for kv in sorted(strategies.items(), key=lambda kv: -kv[1])))
    print("# logs: %s" % work)


if __name__ == "__main__":
    main()
