#!/usr/bin/env python3
"""Judges a heal-condefects run's patches beyond the task's samples: each patched program against
its author's fix on inputs varied from the samples (issue 79: "a patch that passes the suite but
changes other behaviour counts as wrong").

    bench/condefects-differential.py WORK [--variants 40] [--seed 79] [--detail]

WORK is a `bench/heal-condefects.py --work` directory. For every bug the run fixed (a patch that
passes the samples), the patched prog.py (WORK/bugs/<id>/check/patched/prog.py, the runner's judged copy)
runs beside answers/<id>.py and the original faulty prog.py on up to --variants inputs. A variant
is a sample input with some tokens changed, seeded by the bug id: integers moved near their value
or within twice it (never across zero or one), letters redrawn from the token's own characters,
while a token that looks like a size (it equals the number of later lines, a later line's token
count or a later token's length) is kept, so most variants stay inside the task's format. A variant
the author's fix does not run on (non-zero exit, time limit, no output) is dropped; outputs are
compared token by token (numbers within 1e-6). The author's fix is the oracle, so a variant that
breaks a constraint the fix ignores can still tell the two apart: "differs" is evidence, not proof.

Prints per run: fixed; equal to the author's fix; agrees on every kept variant; differs on one at
least; and how many of the agreeing the variants could not have told (the faulty original agrees
too). --detail lists bug by bug and is refused for a run holding a check-half bug (bench/halves.py:
the check half is reported, never read).
"""
import argparse
import csv
import hashlib
import json
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from halves import half  # noqa: E402

CORPUS = HERE.parent.parent / "shared" / "corpora" / "condefects-py"
TIMEOUT = 5
INTEGER = re.compile(r"-?\d+\Z")


def sizes(lines):
    """Values that look like sizes of what follows each line: line counts, token counts, lengths."""
    found = []
    for index in range(len(lines)):
        later = lines[index + 1:]
        values = {len(later)} | {len(line) for line in later}
        values |= {len(token) for line in later for token in line if not INTEGER.match(token)}
        found.append(values)
    return found


def vary(text, rng):
    """One variant of an input (None when it came out the same)."""
    lines = [line.split() for line in text.splitlines()]
    keep = sizes(lines)
    out = []
    for index, line in enumerate(lines):
        tokens = []
        for token in line:
            if rng.random() < 0.5:
                tokens.append(token)
            elif INTEGER.match(token):
                value = int(token)
                if value in keep[index] and index + 1 < len(lines):
                    tokens.append(token)
                    continue
                floor = 1 if value >= 1 else (0 if value >= 0 else None)
                choice = value + rng.choice((-2, -1, 1, 2)) if rng.random() < 0.5 else rng.randint(
                    floor if floor is not None else 2 * value, max(2 * value, value + 3))
                if floor is not None:
                    choice = max(floor, choice)
                tokens.append(str(choice))
            elif token.isascii() and len(set(token)) > 1 and not any(c.isdigit() for c in token):
                alphabet = sorted(set(token))
                tokens.append("".join(rng.choice(alphabet) for _ in token))
            else:
                tokens.append(token)
        out.append(" ".join(tokens))
    varied = "\n".join(out) + "\n"
    return None if varied.split() == text.split() else varied


def run(program, given):
    """Output tokens of `python3 program` on `given`, or None when it fails."""
    with tempfile.TemporaryDirectory() as scratch:
        try:
            done = subprocess.run([sys.executable, str(program)], input=given.encode(), capture_output=True,
                                  timeout=TIMEOUT, cwd=scratch)
        except subprocess.TimeoutExpired:
            return None
    if done.returncode != 0:
        return None
    return done.stdout.decode("utf-8", "replace").split()


def same(a, b):
    if a is None or b is None or len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if x == y:
            continue
        try:
            fx, fy = float(x), float(y)
        except ValueError:
            return False
        if abs(fx - fy) > 1e-6 * max(1.0, abs(fy)):
            return False
    return True


def judge(bug, patched, count, seed):
    """(kept variants, variants the patch differs on, variants the faulty original differs on)."""
    samples = sorted((CORPUS / "bugs" / bug / "tests" / "in").glob("*.txt"))
    texts = [s.read_text(encoding="utf-8", errors="replace") for s in samples]
    rng = random.Random(int.from_bytes(hashlib.sha256(("%s:%d" % (bug, seed)).encode()).digest()[:8], "big"))
    answer, faulty = CORPUS / "answers" / (bug + ".py"), CORPUS / "bugs" / bug / "prog.py"
    kept = patch_differs = faulty_differs = 0
    seen = set()
    for attempt in range(count * 4):
        if kept >= count or not texts:
            break
        given = vary(texts[attempt % len(texts)], rng)
        if given is None or given in seen:
            continue
        seen.add(given)
        expected = run(answer, given)
        if not expected:
            continue
        kept += 1
        patch_differs += not same(run(patched, given), expected)
        faulty_differs += not same(run(faulty, given), expected)
    return kept, patch_differs, faulty_differs


def depth(work, bug):
    """Template candidates that ran and failed before the verified one (heal-condefects.py's
    measure; `heal --repair-depth` would stop there), None without evidence."""
    evidence_file = work / "bugs" / bug / "out" / "evidence.json"
    if not evidence_file.exists():
        return None
    attempts = json.load(open(evidence_file, encoding="utf-8"))["attempts"]
    winner = [a for a in attempts if a["verdict"] == "verified"]
    if not winner:
        return None
    return sum(1 for a in attempts if a["number"] < winner[0]["number"] and a["actor"] == "logic-repair"
               and a["verdict"] in ("failed", "flaky"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("work")
    ap.add_argument("--variants", type=int, default=40)
    ap.add_argument("--seed", type=int, default=79)
    ap.add_argument("--detail", action="store_true", help="bug by bug (tune-half runs only)")
    args = ap.parse_args()
    work = Path(args.work).resolve()
    results = work / "bugs" / "results.tsv"
    if not results.exists():
        sys.exit("condefects-differential.py: %s: no results.tsv (not a heal-condefects.py --work directory)" % results)
    rows = list(csv.DictReader(open(results, encoding="utf-8"), delimiter="\t"))
    if args.detail and any(half(r["id"].split("-")[0]) == "check" for r in rows):
        sys.exit("condefects-differential.py: --detail lists bugs of the check half; only its figures are reported")
    fixed = [r for r in rows if r["fixed"] == "yes"]
    agree = differ = blind = unjudged = equal = equal_differ = 0
    by_depth = {}  # "within 40" / "past 40" -> [agrees, differs]
    for row in fixed:
        patched = work / "bugs" / row["id"] / "check" / "patched" / "prog.py"
        if not patched.exists():
            sys.exit("condefects-differential.py: %s: the judged copy is missing" % patched)
        kept, patch_differs, faulty_differs = judge(row["id"], patched, args.variants, args.seed)
        is_equal = row["equal"] == "True"
        equal += is_equal
        if kept == 0:
            unjudged += 1
            verdict = "unjudged (no variant the author's fix runs on)"
        elif patch_differs:
            differ += 1
            equal_differ += is_equal
            verdict = "differs"
        else:
            agree += 1
            blind += faulty_differs == 0
            verdict = "agrees" + (" (the faulty original agrees too)" if faulty_differs == 0 else "")
        if kept:
            bucket = by_depth.setdefault("past 40" if (depth(work, row["id"]) or 0) > 40 else "within 40", [0, 0])
            bucket[1 if patch_differs else 0] += 1
        if args.detail:
            print("%-24s equal %-5s variants %2d  patch differs %2d  original differs %2d  %s" % (
                row["id"], is_equal, kept, patch_differs, faulty_differs, verdict))
    print("# %d bugs: fixed %d (equal to the author's fix %d); on varied inputs: agrees %d (of which the faulty "
          "original agrees too %d), differs %d, unjudged %d" % (len(rows), len(fixed), equal, agree, blind, differ,
                                                                 unjudged))
    for name in ("within 40", "past 40"):
        agrees, differs = by_depth.get(name, [0, 0])
        print("# found %s failed template candidates: agrees %d, differs %d" % (name, agrees, differs))
    if equal_differ:
        print("# note: %d patch(es) equal to the author's fix differ on a variant (a nondeterministic program?)"
              % equal_differ)


if __name__ == "__main__":
    main()
