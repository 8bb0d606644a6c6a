#!/usr/bin/env python3
"""The peers at the gate on real maintained code (issue 55): Bandit and Semgrep over the 10 Python
projects of ../shared/corpora/realcode-dev, each at the project root as a CI job runs it, one tool
at a time, then a seeded sample of 50 findings per tool joined with the judgements committed in
bench/realcode-peers-judged.tsv (tool, project, rule, file, line, verdict, reason).

    bench/realcode-peers.py                 # runs both tools (Bandit: minutes; Semgrep: ~15 min)
    bench/realcode-peers.py --reports DIR   # reuse DIR/{bandit,semgrep}/NAME.json
    BANDIT=... SEMGREP=... bench/realcode-peers.py

What each tool's gate is: Bandit's `-ll` (severity MEDIUM or HIGH) and Semgrep's findings of
severity ERROR (what `--error` and most CI templates fail on). The sample is drawn from Bandit's
`-ll` findings and from all of Semgrep's (the pools sorted by project, rule, path, line;
`random.Random(55).sample(pool, 50)`). Prints findings per project (all, at the gate, wall time)
and each sample's precision with the per-rule verdicts.
"""

import argparse
import collections
import json
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "corpora", "realcode-dev"))
RULES = os.path.normpath(os.path.join(CORPUS, "..", "semgrep-rules", "python"))
PROJECTS = ["changedetection.io", "flaskbb", "frigate", "jupyterhub", "khoj", "lemur", "mealie", "netbox",
            "paperless-ngx", "pretalx"]
VENV = "/opt/sentinel-tools/venv/bin"


def run(tool, command, project, out):
    path = os.path.join(out, tool, project + ".json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    started = time.monotonic()
    with open(path + ".stderr", "w") as stderr:
        subprocess.run(["timeout", "1800"] + command + [path], cwd=os.path.join(CORPUS, "proj", project),
                       stdout=subprocess.DEVNULL, stderr=stderr, check=False)
    return time.monotonic() - started


def relative(path):
    return path[2:] if path.startswith("./") else path


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reports")
    arguments = parser.parse_args()
    bandit = os.environ.get("BANDIT", VENV + "/bandit")
    semgrep = os.environ.get("SEMGREP", VENV + "/semgrep")
    out = arguments.reports or tempfile.mkdtemp(prefix="realcode-peers-")
    walls = {}
    if not arguments.reports:
        for project in PROJECTS:
            walls[("bandit", project)] = run("bandit", [bandit, "-r", ".", "-f", "json", "-o"], project, out)
        for project in PROJECTS:
            walls[("semgrep", project)] = run(
                "semgrep", [semgrep, "scan", "--config", RULES, "--metrics=off", "--disable-version-check", "--json",
                            "--output"], project, out)
    pools = {"bandit": [], "semgrep": []}
    print(f"reports: {out}\n")
    print("| project | Bandit all | Bandit -ll (gate) | Bandit s | Semgrep all | Semgrep ERROR (gate) | Semgrep s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for project in PROJECTS:
        try:
            with open(os.path.join(out, "bandit", project + ".json")) as handle:
                bandit_results = json.load(handle)["results"]
            with open(os.path.join(out, "semgrep", project + ".json")) as handle:
                semgrep_results = json.load(handle)["results"]
        except (OSError, ValueError, KeyError) as error:
            sys.exit(f"realcode-peers.py: {project}: no report ({error})")
        gate_bandit = [r for r in bandit_results if r["issue_severity"] in ("MEDIUM", "HIGH")]
        gate_semgrep = [r for r in semgrep_results if r["extra"].get("severity") == "ERROR"]
        pools["bandit"] += [(project, r["test_id"] + ":" + r["test_name"], relative(r["filename"]), r["line_number"])
                            for r in gate_bandit]
        pools["semgrep"] += [(project, r["check_id"].split("semgrep-rules.", 1)[-1], relative(r["path"]),
                              r["start"]["line"]) for r in semgrep_results]
        print(f"| {project} | {len(bandit_results)} | {len(gate_bandit)} | {walls.get(('bandit', project), 0):.1f} | "
              f"{len(semgrep_results)} | {len(gate_semgrep)} | {walls.get(('semgrep', project), 0):.1f} |")
    judged = {}
    with open(os.path.join(HERE, "realcode-peers-judged.tsv"), encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            fields = line.rstrip("\n").split("\t")
            if number == 1 or len(fields) != 7:
                continue
            judged[(fields[0], fields[1], fields[2], fields[3], int(fields[4]))] = fields[5] == "true"
    for tool, pool in pools.items():
        chosen = random.Random(55).sample(sorted(pool), min(50, len(pool)))
        verdicts = [judged.get((tool,) + item) for item in chosen]
        true, false = verdicts.count(True), verdicts.count(False)
        print(f"\n{tool}: sample of {len(chosen)} of {len(pool)}: {true} judged true, {false} false, "
              f"{len(chosen) - true - false} not judged; precision {100 * true / max(1, true + false):.1f} %")
        by_rule = collections.Counter((item[1], verdict) for item, verdict in zip(chosen, verdicts))
        for (rule, verdict), count in sorted(by_rule.items(), key=lambda entry: -entry[1]):
            print(f"  {count:3d} {'true ' if verdict else 'false' if verdict is False else 'unjudged'} {rule}")


if __name__ == "__main__":
    main()
