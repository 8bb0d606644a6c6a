#!/usr/bin/env python3
"""Counts and a sample for bench/sast-real-code.sh.

Reads one `sentinel scan --format json` report per project (SCANS/NAME.json, paths relative to
SRC/NAME), counts the lines of the Python files such a scan covers (the default excludes: tests,
virtual environments, vendored and build directories), and prints high/critical findings per 10k
lines per project, per rule and per confidence. Writes a random sample (fixed seed) of
high/critical findings with their code for judging by hand.
"""

import argparse
import collections
import fnmatch
import json
import os
import random

# DefaultIgnores.swift: directory names and file globs a default scan leaves out.
IGNORED_DIRS = {"test", "tests", "testing", ".venv", "venv", "node_modules", "vendor", "third_party",
                "site-packages", "build", "dist", ".tox", ".eggs", "__pycache__", ".git", ".hg", ".svn"}
IGNORED_FILES = ["test_*.py", "*_test.py", "conftest.py"]
HIGH = {"high", "critical"}
CONFIDENCE_ORDER = {"low": 0, "medium": 1, "high": 2}
SEVERITY_ORDER = {"info": 0, "low": 1, "medium": 2, "high": 3, "critical": 4}


def python_files(root):
    for directory, subdirs, files in os.walk(root):
        subdirs[:] = sorted(d for d in subdirs if d not in IGNORED_DIRS)
        for name in sorted(files):
            if name.endswith(".py") and not any(fnmatch.fnmatch(name, g) for g in IGNORED_FILES):
                yield os.path.join(directory, name)


def count_lines(root):
    total = 0
    for path in python_files(root):
        with open(path, "rb") as f:
            total += sum(1 for _ in f)
    return total


def code_context(path, line, before=3, after=1):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return "(file not readable)"
    out = []
    for n in range(max(1, line - before), min(len(lines), line + after) + 1):
        mark = ">" if n == line else " "
        out.append(f"{mark}{n:5} {lines[n - 1]}")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--src", required=True)
    parser.add_argument("--scans", required=True)
    parser.add_argument("--sample", type=int, default=60)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--min-confidence", default="low", choices=sorted(CONFIDENCE_ORDER))
    parser.add_argument("--min-severity", default="high", choices=sorted(SEVERITY_ORDER))
    parser.add_argument("--sample-out", required=True)
    parser.add_argument("--json-out", required=True)
    args = parser.parse_args()

    projects = sorted(p for p in os.listdir(args.src) if os.path.isdir(os.path.join(args.src, p)))
    per_project = {}
    per_rule = collections.Counter()
    per_rule_conf = {}
    high_findings = []
    every_finding = []
    total_lines = 0
    for project in projects:
        lines = count_lines(os.path.join(args.src, project))
        total_lines += lines
        with open(os.path.join(args.scans, project + ".json")) as f:
            report = json.load(f)
        findings = report["findings"]
        high = [x for x in findings if x["severity"] in HIGH]
        every_finding += [(project, x) for x in findings]
        by_conf = collections.Counter(x.get("confidence", "low") for x in high)
        per_project[project] = {"lines": lines, "findings": len(findings), "highCritical": len(high),
                                "highCriticalByConfidence": dict(by_conf)}
        for x in high:
            per_rule[x["ruleId"]] += 1
            per_rule_conf[x["ruleId"]] = x.get("confidence", "low")
            high_findings.append((project, x))

    def per10k(n, lines):
        return 10000.0 * n / lines if lines else 0.0

    print(f"{'project':14} {'lines':>8} {'findings':>9} {'high+':>6} {'/10k':>6} {'high+ conf>=med /10k':>21} "
          f"{'high+ conf=high /10k':>21}")
    for project in projects:
        p = per_project[project]
        c = p["highCriticalByConfidence"]
        medium_up = c.get("medium", 0) + c.get("high", 0)
        print(f"{project:14} {p['lines']:>8} {p['findings']:>9} {p['highCritical']:>6} "
              f"{per10k(p['highCritical'], p['lines']):>6.2f} {per10k(medium_up, p['lines']):>21.2f} "
              f"{per10k(c.get('high', 0), p['lines']):>21.2f}")
    all_high = sum(p["highCritical"] for p in per_project.values())
    all_conf = collections.Counter()
    for p in per_project.values():
        all_conf.update(p["highCriticalByConfidence"])
    print(f"{'all':14} {total_lines:>8} {sum(p['findings'] for p in per_project.values()):>9} {all_high:>6} "
          f"{per10k(all_high, total_lines):>6.2f} "
          f"{per10k(all_conf.get('medium', 0) + all_conf.get('high', 0), total_lines):>21.2f} "
          f"{per10k(all_conf.get('high', 0), total_lines):>21.2f}")
    print()
    print(f"{'rule (high/critical findings)':44} {'count':>6} {'/10k':>6} confidence")
    for rule, n in sorted(per_rule.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"{rule:44} {n:>6} {per10k(n, total_lines):>6.2f} {per_rule_conf[rule]}")

    # The sample: a fixed order first (the scans' order may vary), then a seeded draw.
    floor = CONFIDENCE_ORDER[args.min_confidence]
    severity_floor = SEVERITY_ORDER[args.min_severity]
    population = [(p, x) for p, x in every_finding
                  if CONFIDENCE_ORDER.get(x.get("confidence", "low"), 0) >= floor
                  and SEVERITY_ORDER.get(x["severity"], 0) >= severity_floor]
    population.sort(key=lambda px: (px[0], px[1]["location"]["file"], px[1]["location"].get("startLine", 0),
                                    px[1]["ruleId"]))
    rng = random.Random(args.seed)
    sample = rng.sample(population, min(args.sample, len(population)))
    with open(args.sample_out, "w") as out:
        out.write(f"# Sample of findings (seed {args.seed}, {len(sample)} of {len(population)}, "
                  f"severity >= {args.min_severity}, confidence >= {args.min_confidence})\n\n")
        for i, (project, x) in enumerate(sample, 1):
            loc = x["location"]
            line = loc.get("startLine", 0)
            out.write(f"## {i}. {project}/{loc['file']}:{line} `{x['ruleId']}` "
                      f"({x['severity']}, confidence {x.get('confidence')})\n\n")
            out.write(f"{x['message']}\n\n```python\n")
            out.write(code_context(os.path.join(args.src, project, loc["file"]), line))
            out.write("\n```\n\n")
    with open(args.json_out, "w") as out:
        json.dump({"projects": per_project, "rules": dict(per_rule), "lines": total_lines,
                   "highCritical": all_high}, out, indent=1, sort_keys=True)
    by_conf_all = collections.Counter(x.get("confidence", "low") for _, x in every_finding)
    print(f"\nall findings by confidence: " + ", ".join(f"{c} {by_conf_all.get(c, 0)}" for c in ("high", "medium", "low")))
    high_conf_rules = collections.Counter(x["ruleId"] for _, x in every_finding if x.get("confidence") == "high")
    print("high-confidence findings by rule: " + ", ".join(f"{r.removeprefix('python.')} {n}"
                                                           for r, n in sorted(high_conf_rules.items(), key=lambda kv: -kv[1])))
    print(f"\nsample: {args.sample_out} ({len(sample)} of {len(population)})")


if __name__ == "__main__":
    main()
