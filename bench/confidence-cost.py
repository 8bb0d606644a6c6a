#!/usr/bin/env python3
"""What each rule's low-confidence findings are worth, per half (issue 75).

A rule lowered to `confidence: low` (or a flow lowered for lack of evidence) leaves the default
report. This scans every app of a labelled corpus once with `--min-confidence low`, then scores,
on each half of bench/halves.py, the default report alone and the default report plus one rule's
low-confidence findings, with the corpus's own RealVuln matcher. A rule whose low findings add
true positives on the check half at a precision near the report's is a candidate to restore; one
that adds only false positives stays low. Recall is never read from the tuning half alone.

    bench/confidence-cost.py CORPUS BIN                 # every rule with low-confidence findings
    bench/confidence-cost.py CORPUS BIN --rules a,b     # only these

CORPUS: realvuln-dev, js-vuln-dev or js-cve-dev. Exit status: 0, or 2 on bad arguments or a scan
that wrote no report.
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from halves import LABELLED, apps, corpus_dir, half, subset_corpus  # noqa: E402


def scan_low(root, binary, names, tmp):
    env = dict(os.environ, SENTINEL_HOME=os.path.join(tmp, "home"))
    os.makedirs(env["SENTINEL_HOME"], exist_ok=True)
    reports = {}
    for name in names:
        tree = os.path.join(root, "apps", name)
        sarif = os.path.join(tmp, "low", name + ".sarif")
        os.makedirs(os.path.dirname(sarif), exist_ok=True)
        with open(os.devnull, "wb") as quiet:
            subprocess.call([binary, "scan", tree, "--tools", "native", "--format", "sarif", "--fail-on", "none",
                             "--min-confidence", "low", "--output", sarif], stderr=quiet, env=env)
        if not (os.path.exists(sarif) and os.path.getsize(sarif) > 0):
            sys.exit(f"confidence-cost.py: {name}: the scan wrote no report")
        with open(sarif, encoding="utf-8") as handle:
            reports[name] = json.load(handle)
    return reports


def variant(reports, keep, root, rv, into):
    """Writes, per app, the SARIF holding the results `keep` accepts, converted for rv.py."""
    for name, report in reports.items():
        copy = json.loads(json.dumps(report))
        for run in copy.get("runs", []):
            run["results"] = [result for result in run.get("results", []) if keep(result)]
        path = os.path.join(into, "sarif", name + ".sarif")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(copy, handle)
        subprocess.check_call([sys.executable, rv, "sarif", path, os.path.join(root, "apps", name),
                               os.path.join(into, "scan", name, "sentinel", "results.json")])
    return os.path.join(into, "scan")


def tool_row(rv, corpus, scan_dir):
    out = subprocess.run([sys.executable, rv, "score", corpus, f"sentinel={scan_dir}"], check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("| sentinel |"):
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            return {"precision": float(cells[1]), "f3": float(cells[4]), "tp": int(cells[5]), "fp": int(cells[6])}
    sys.exit("confidence-cost.py: rv.py printed no sentinel row")


def confidence(result):
    return (result.get("properties") or {}).get("confidence", "high")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", choices=LABELLED)
    parser.add_argument("binary")
    parser.add_argument("--rules", help="comma-separated rule ids (default: every rule with low findings)")
    arguments = parser.parse_args()
    root = corpus_dir(arguments.corpus)
    rv = os.path.join(root, "rv.py")
    binary = os.path.abspath(arguments.binary)
    names = apps(arguments.corpus)
    with tempfile.TemporaryDirectory(prefix="confidence-cost-") as tmp:
        reports = scan_low(root, binary, names, tmp)
        low = collections.Counter(result["ruleId"] for report in reports.values() for run in report.get("runs", [])
                                  for result in run.get("results", []) if confidence(result) == "low")
        rules = arguments.rules.split(",") if arguments.rules else sorted(low)
        corpora = {label: subset_corpus(root, [n for n in names if half(n) == label], os.path.join(tmp, "corpus-" + label))
                   for label in ("tune", "check")}
        base_dir = variant(reports, lambda result: confidence(result) != "low", root, rv, os.path.join(tmp, "v-default"))
        base = {label: tool_row(rv, corpus, base_dir) for label, corpus in corpora.items()}
        print(f"{arguments.corpus}: {binary}; default report per half: "
              + "; ".join(f"{label} F3 {row['f3']} (TP {row['tp']}, FP {row['fp']})" for label, row in base.items()))
        print("\n| rule's low findings added | low findings | tune ΔTP | tune ΔFP | tune ΔF3 | check ΔTP | check ΔFP | check ΔF3 |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        for number, rule in enumerate(rules):
            scan_dir = variant(reports, lambda result, rule=rule: confidence(result) != "low" or result["ruleId"] == rule,
                               root, rv, os.path.join(tmp, f"v-{number}"))
            cells = []
            for label, corpus in corpora.items():
                row = tool_row(rv, corpus, scan_dir)
                cells += [f"{row['tp'] - base[label]['tp']:+d}", f"{row['fp'] - base[label]['fp']:+d}",
                          f"{row['f3'] - base[label]['f3']:+.1f}"]
            print(f"| {rule} | {low[rule]} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
