#!/usr/bin/env python3
"""Precision at the CI gate on real maintained code (issue 55).

Scans every project of ../shared/corpora/realcode-dev at its root with the corpus's own run.sh
(defaults: `--fail-on high` is what the gate fails on), then joins each finding with the
judgements committed in bench/realcode-judged.tsv (project, rule, file, line, verdict, reason;
each written by reading the code) and prints:

  * per project: findings at the gate (critical, high or unknown severity), judged true, judged
    false, not judged yet, and whether the project passes the gate or fails only on true findings;
  * per rule at the gate: judged precision (a rule under 80 % does not belong at the gate);
  * per rule over every judgement ever committed (findings of rules since lowered included), with
    the rule's severity now: the figures a severity change cites;
  * per half (bench/halves.py: rules are tuned on `tune` only, `check` is reported beside it):
    the gate's findings, their judgements and the projects passing;
  * with --sample N: a seeded sample of all default findings (severity low and up; `info` notes
    such as unpinned requirements are left out): the N whose hash of (seed, finding) is smallest,
    so removing findings does not reshuffle the rest. Joined with bench/realcode-sample-judged.tsv
    (and the gate's judgements); the sample's precision, and the findings not judged yet.

    bench/realcode-gate.py BIN                      # scan with BIN (e.g. the release binary)
    bench/realcode-gate.py BIN --reports DIR        # reuse run.sh's reports in DIR
    bench/realcode-gate.py BIN --sample 100 --seed 55
    bench/realcode-gate.py BIN --unjudged FILE      # write gate findings not judged yet (TSV)
    bench/realcode-gate.py BIN --sample 50 --seed 75   # 50 sampled in each half

Exit status: 0, or 2 on bad arguments or a scan that wrote no report.
"""

import argparse
import collections
import hashlib
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from halves import half  # noqa: E402  (the one split of the corpus: tune / check)

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "corpora", "realcode-dev"))
GATE = {"critical", "high", "unknown"}
SAMPLED = {"critical", "high", "unknown", "medium", "low"}


def load_judged(path):
    judged = {}
    if not os.path.exists(path):
        return judged
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if number == 1 or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) == 7:  # realcode-js-default-judged.tsv also keeps the severity judged
                del fields[4]
            if len(fields) != 6 or fields[4] not in ("true", "false"):
                sys.exit(f"realcode-gate.py: {path}:{number}: expected 6 tab-separated fields, verdict true|false")
            project, rule, file, start, verdict, reason = fields
            judged[(project, rule, file, int(start))] = (verdict == "true", reason)
    return judged


def rule_severities(rules_dir):
    """The severity each YAML rule declares now (native rules in code are not listed)."""
    severities = {}
    for root, _, names in os.walk(rules_dir):
        for name in names:
            if not name.endswith(".yaml"):
                continue
            rule_id = severity = None
            with open(os.path.join(root, name), encoding="utf-8") as handle:
                for line in handle:
                    if line.startswith("id: "):
                        rule_id = line[4:].strip()
                    elif line.startswith("severity: "):
                        severity = line[10:].split("#")[0].strip()
            if rule_id and severity:
                severities[rule_id] = severity
    return severities


def scan(binary, reports):
    environment = dict(os.environ, OUT=reports)
    result = subprocess.run(
        ["bash", os.path.join(CORPUS, "run.sh"), binary], env=environment, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, check=False)
    sys.stderr.write(result.stdout)


def findings(reports):
    out = []
    for name in sorted(os.listdir(os.path.join(CORPUS, "proj"))):
        path = os.path.join(reports, name + ".json")
        if not os.path.exists(path):
            sys.exit(f"realcode-gate.py: {path}: no report (the scan of {name} failed)")
        with open(path, encoding="utf-8") as handle:
            report = json.load(handle)
        for finding in report["findings"]:
            location = finding.get("location", {})
            out.append({
                "project": name, "rule": finding["ruleId"], "file": location.get("file", ""),
                "line": location.get("startLine") or 0, "severity": finding.get("severity", "unknown"),
                "message": finding.get("message", "")})
    return out


def key(finding):
    return (finding["project"], finding["rule"], finding["file"], finding["line"])


def percent(true, total):
    return f"{100 * true / total:5.1f} %" if total else "    –  "


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--reports")
    parser.add_argument("--sample", type=int, default=0)
    parser.add_argument("--seed", type=int, default=55)
    parser.add_argument("--unjudged")
    arguments = parser.parse_args()
    if not os.path.isdir(os.path.join(CORPUS, "proj")):
        sys.exit(f"realcode-gate.py: {CORPUS}: the realcode-dev corpus is missing")
    judged = load_judged(os.path.join(HERE, "realcode-judged.tsv"))
    sample_judged = {**load_judged(os.path.join(HERE, "realcode-js-default-judged.tsv")),
                     **load_judged(os.path.join(HERE, "realcode-sample-judged.tsv"))}
    reports = arguments.reports or tempfile.mkdtemp(prefix="realcode-gate-")
    if not arguments.reports:
        scan(os.path.abspath(arguments.binary), reports)
    every = findings(reports)
    gate = [finding for finding in every if finding["severity"] in GATE]

    print(f"binary: {arguments.binary}")
    print(f"reports: {reports}\n")
    print("| project | at the gate | judged true | judged false | not judged | gate |")
    print("|---|---:|---:|---:|---:|---|")
    passing = failing_true = 0
    unjudged = []
    per_half = {name: [0, 0, 0, 0, 0] for name in ("tune", "check")}  # projects, gate, true, false, passing
    projects = sorted({finding["project"] for finding in every} | set(os.listdir(os.path.join(CORPUS, "proj"))))
    for project in projects:
        mine = [finding for finding in gate if finding["project"] == project]
        true = sum(1 for finding in mine if judged.get(key(finding), (None,))[0] is True)
        false = sum(1 for finding in mine if judged.get(key(finding), (None,))[0] is False)
        unjudged += [finding for finding in mine if key(finding) not in judged]
        if not mine:
            verdict = "passes"
            passing += 1
        elif false == 0 and true == len(mine):
            verdict = "fails on true findings only"
            failing_true += 1
        else:
            verdict = "fails"
        print(f"| {project} | {len(mine)} | {true} | {false} | {len(mine) - true - false} | {verdict} |")
        counts = per_half[half(project)]
        for index, value in enumerate((1, len(mine), true, false, 0 if mine else 1)):
            counts[index] += value
    total_true = sum(1 for finding in gate if judged.get(key(finding), (None,))[0] is True)
    total_false = sum(1 for finding in gate if judged.get(key(finding), (None,))[0] is False)
    print(f"\nat the gate: {len(gate)} findings, {total_true} judged true, {total_false} judged false, "
          f"{len(unjudged)} not judged; precision {percent(total_true, total_true + total_false).strip()}")
    print(f"projects passing the gate: {passing} of {len(projects)}; failing on judged-true findings only: {failing_true}\n")
    print("| half | projects | at the gate | judged true | judged false | projects passing |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, (count, at_gate, true, false, passes) in per_half.items():
        print(f"| {name} | {count} | {at_gate} | {true} | {false} | {passes} of {count} |")
    print()

    print("| rule at the gate | findings | true | false | precision |")
    print("|---|---:|---:|---:|---:|")
    by_rule = collections.defaultdict(list)
    for finding in gate:
        by_rule[finding["rule"]].append(judged.get(key(finding), (None,))[0])
    for rule, verdicts in sorted(by_rule.items()):
        true, false = verdicts.count(True), verdicts.count(False)
        print(f"| {rule} | {len(verdicts)} | {true} | {false} | {percent(true, true + false)} |")

    severities = rule_severities(os.path.join(HERE, "..", "rules"))
    # A judged finding no longer reported was removed by a fix of its class (the judgement stays).
    reported = {key(finding) for finding in every}
    print("\n| rule (every judgement committed) | true | false | precision | still reported (true/false) | severity now |")
    print("|---|---:|---:|---:|---:|---|")
    every_rule = collections.defaultdict(lambda: [0, 0, 0, 0])
    for judged_key, (verdict, _) in judged.items():
        counts = every_rule[judged_key[1]]
        counts[0 if verdict else 1] += 1
        if judged_key in reported:
            counts[2 if verdict else 3] += 1
    for rule, (true, false, still_true, still_false) in sorted(every_rule.items()):
        print(f"| {rule} | {true} | {false} | {percent(true, true + false)} | {still_true}/{still_false} | "
              f"{severities.get(rule, 'native/OSV')} |")

    if arguments.sample:
        # Each finding's place in the sample is a hash of the seed and the finding alone, so a
        # rule change that removes findings leaves the rest of the sample where it was (only
        # findings new to it need judging).
        sample_judged = {**judged, **sample_judged}
        for name in ("tune", "check"):
            population = [finding for finding in every
                          if finding["severity"] in SAMPLED and half(finding["project"]) == name]
            chosen = sorted(population, key=lambda finding: hashlib.sha256(
                f"{arguments.seed}\t{chr(9).join(str(part) for part in key(finding))}".encode()).hexdigest())[:arguments.sample]
            true = sum(1 for finding in chosen if sample_judged.get(key(finding), (None,))[0] is True)
            false = sum(1 for finding in chosen if sample_judged.get(key(finding), (None,))[0] is False)
            by_sampled_rule = collections.defaultdict(lambda: [0, 0])
            for finding in chosen:
                verdict = sample_judged.get(key(finding), (None,))[0]
                if verdict is not None:
                    by_sampled_rule[finding["rule"]][0 if verdict else 1] += 1
            print(f"\n{name} half, sample of all default findings (severity low and up; seed {arguments.seed}): "
                  f"{len(chosen)} of {len(population)}, {true} judged true, {false} judged false, "
                  f"{len(chosen) - true - false} not judged; precision {percent(true, true + false).strip()}")
            print("\n| rule in the sample | true | false |")
            print("|---|---:|---:|")
            for rule, (t, f) in sorted(by_sampled_rule.items(), key=lambda item: -sum(item[1])):
                print(f"| {rule} | {t} | {f} |")
            for finding in chosen:
                if key(finding) not in sample_judged:
                    print("  not judged: " + "\t".join(str(part) for part in key(finding)) + "\t" + finding["message"][:100])
    if arguments.unjudged:
        with open(arguments.unjudged, "w", encoding="utf-8") as handle:
            for finding in unjudged:
                handle.write("\t".join(str(part) for part in key(finding)) + "\t" + finding["message"] + "\n")


if __name__ == "__main__":
    main()
