#!/usr/bin/env python3
"""A derivative of condefects-py whose judge has no time limit of its own within heal's budget:
each bug's test_prog.py gets --seconds (default 120) per case where the corpus gives 5.

    bench/condefects-untimed.py OUT [--seconds 120]

condefects-py's judge stops a case at 5 s (SIGALRM), so a candidate that loops costs 5 s there. A
project's own suite seldom has a limit per test: a looping candidate then runs until heal's
wall-clock limit for the whole run (ten times the baseline, at least 30 s), and a test that loops
on the unchanged tree until the baseline's. This copy shows what heal makes of such suites (issue
79, "seconds, not minutes"; `heal --test-timeout`). OUT holds bugs.tsv (all bugs), the bugs with
the changed judge, the corpus's runner and a link to its answers, so
`bench/heal-condefects.py SENTINEL N --corpus OUT [--half ...]` runs it.
"""
import argparse
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent.parent / "shared" / "corpora" / "condefects-py"
DEFAULT = 'os.environ.get("CONDEFECTS_TIMEOUT", "5")'


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--seconds", type=float, default=120)
    args = ap.parse_args()
    out = Path(args.out).resolve()
    if out.exists():
        sys.exit("condefects-untimed.py: %s exists; give a new folder" % out)
    shutil.copytree(CORPUS / "bugs", out / "bugs")
    changed = 0
    for judge in sorted((out / "bugs").glob("*/test_prog.py")):
        text = judge.read_text(encoding="utf-8")
        if DEFAULT not in text:
            sys.exit("condefects-untimed.py: %s: the judge's time limit is not where expected" % judge)
        judge.write_text(text.replace(DEFAULT, 'os.environ.get("CONDEFECTS_TIMEOUT", "%g")' % args.seconds), encoding="utf-8")
        changed += 1
    shutil.copy2(CORPUS / "bugs.tsv", out / "bugs.tsv")
    (out / "answers").symlink_to(CORPUS / "answers")
    shutil.copytree(CORPUS / "tools", out / "tools")
    shutil.copy2(CORPUS / "run.sh", out / "run.sh")
    print("# %d judges at %g s per case in %s" % (changed, args.seconds, out))


if __name__ == "__main__":
    main()
