#!/usr/bin/env python3
"""A derivative of condefects-py whose tests look more like a judge's: the task's samples plus
large inputs, for the bugs whose every sample is `N [params]` then N integers (issue 79: the
held-out set is judged on its full suites, where one run of a suite takes seconds, not 0.3 s).

    bench/condefects-scaled.py OUT [--tests 3] [--seed 79]

For each such bug, OUT/bugs/<id> is a copy of the bug with --tests more inputs: the first sample's
parameters, N as large as the author's fix (answers/<id>.py, the oracle) answers within 2 s (tried
200,000, then 20,000, then 2,000), values drawn within the samples' own range; the expected output
is the fix's. OUT holds bugs.tsv (those bugs only), the corpus's runner and a link to its answers,
so `bench/heal-condefects.py SENTINEL N --corpus OUT [--half ...]` runs it. The faulty program may
pass or fail the new inputs; either way a patch must pass them to count as fixed.
"""
import argparse
import hashlib
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent.parent / "shared" / "corpora" / "condefects-py"
INTEGER = re.compile(r"-?\d+\Z")
SIZES = (200_000, 20_000, 2_000)
ANSWER_SECONDS = 2.0


def shape(bug):
    """(params of the first sample, lowest value, highest value) when every sample is `N [params]`
    then N integers on one line; else None."""
    params, values = None, []
    for sample in sorted((CORPUS / "bugs" / bug / "tests" / "in").glob("*.txt")):
        lines = [line.split() for line in sample.read_text(encoding="utf-8", errors="replace").splitlines() if line.strip()]
        if len(lines) != 2 or not lines[0] or not all(INTEGER.match(t) for t in lines[0] + lines[1]):
            return None
        if int(lines[0][0]) != len(lines[1]):
            return None
        params = params or lines[0][1:]
        values += [int(t) for t in lines[1]]
    if params is None or not values:
        return None
    return params, min(values), max(values)


def answer(bug, given):
    """The author's fix's output on `given` and whether it took under ANSWER_SECONDS."""
    with tempfile.TemporaryDirectory() as scratch:
        started = time.monotonic()
        try:
            done = subprocess.run([sys.executable, str(CORPUS / "answers" / (bug + ".py"))], input=given.encode(),
                                  capture_output=True, timeout=ANSWER_SECONDS * 2, cwd=scratch)
        except subprocess.TimeoutExpired:
            return None
        took = time.monotonic() - started
    if done.returncode != 0 or not done.stdout.strip() or took > ANSWER_SECONDS:
        return None
    return done.stdout.decode("utf-8", "replace")


def large_inputs(bug, params, low, high, count, seed):
    """[(input, expected)] at the largest size the fix answers in time."""
    rng = random.Random(int.from_bytes(hashlib.sha256(("%s:%d" % (bug, seed)).encode()).digest()[:8], "big"))
    for size in SIZES:
        made = []
        for _ in range(count):
            values = " ".join(str(rng.randint(low, high)) for _ in range(size))
            given = " ".join([str(size)] + params) + "\n" + values + "\n"
            expected = answer(bug, given)
            if expected is None:
                break
            made.append((given, expected))
        if len(made) == count:
            return made
    return []


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--tests", type=int, default=3)
    ap.add_argument("--seed", type=int, default=79)
    args = ap.parse_args()
    out = Path(args.out).resolve()
    if out.exists():
        sys.exit("condefects-scaled.py: %s exists; give a new folder" % out)
    rows = (CORPUS / "bugs.tsv").read_text(encoding="utf-8").splitlines()
    column = rows[0].split("\t").index("id")
    kept = [rows[0]]
    (out / "bugs").mkdir(parents=True)
    for row in rows[1:]:
        if not row.strip():
            continue
        bug = row.split("\t")[column]
        found = shape(bug)
        if found is None:
            continue
        made = large_inputs(bug, *found, args.tests, args.seed)
        if not made:
            print("# %s: the author's fix answers no large input in time; left out" % bug)
            continue
        shutil.copytree(CORPUS / "bugs" / bug, out / "bugs" / bug)
        for number, (given, expected) in enumerate(made, 1):
            (out / "bugs" / bug / "tests" / "in" / ("large_%02d.txt" % number)).write_text(given, encoding="utf-8")
            (out / "bugs" / bug / "tests" / "out" / ("large_%02d.txt" % number)).write_text(expected, encoding="utf-8")
        print("# %s: %d large inputs of N = %d" % (bug, len(made), len(made[0][0].split("\n")[1].split())))
        kept.append(row)
    (out / "bugs.tsv").write_text("\n".join(kept) + "\n", encoding="utf-8")
    (out / "answers").symlink_to(CORPUS / "answers")
    shutil.copytree(CORPUS / "tools", out / "tools")
    shutil.copy2(CORPUS / "run.sh", out / "run.sh")
    print("# %d bugs in %s" % (len(kept) - 1, out))


if __name__ == "__main__":
    main()
