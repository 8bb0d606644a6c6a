#!/usr/bin/env python3
"""Compares the old and the new default scan of one project for bench/noise.sh.

    noise-compare.py OLD.json NEW.json RULES_DIR LOST.txt ADDED.txt

Prints `old new old-high+ new-high+ old-assert new-assert old-bandit`. Writes to LOST.txt the
high/critical findings of OLD that NEW no longer reports, and to ADDED.txt the high/critical
findings of NEW that OLD did not report. For these lists a finding is high/critical also when it
absorbed a finding of a native rule whose severity is high/critical: the old binary merged a
native finding into Bandit's copy when Bandit was more confident, and the survivor kept Bandit's
(often lower) severity. The same issue counts as reported by both when:

- a finding with the same file, start line and rule id (or one it absorbed, `alsoReportedAs`)
  is on the other side, or
- it is a Bandit finding (the old default ran Bandit, the new one does not) and the other side
  has a native finding in the same file, on overlapping lines, of a rule whose `metadata.bandit`
  lists the Bandit test -- the equivalence the scan itself uses to merge Bandit into native
  findings; for a Bandit test no rule lists, a native finding on the same start line with a CWE
  in common.
"""
import json
import os
import re
import sys

old_path, new_path, rules_dir, lost_path, added_path = sys.argv[1:6]
old, new = (json.load(open(p))["findings"] for p in (old_path, new_path))

# Bandit test id -> native rule ids, from the rule files (one rule per file, `id:` at the top),
# and each rule's severity.
native_by_bandit = {}
rule_severity = {}
for root, _, files in os.walk(rules_dir):
    for name in files:
        if not name.endswith((".yaml", ".yml")):
            continue
        text = open(os.path.join(root, name)).read()
        rule = re.search(r"^id:\s*(\S+)", text, re.M)
        bandit = re.search(r"^\s+bandit:\s*\[([^\]]*)\]", text, re.M)
        severity = re.search(r"^severity:\s*(\S+)", text, re.M)
        if rule and severity:
            rule_severity[rule.group(1)] = severity.group(1)
        if rule and bandit:
            for test in re.findall(r"B\d+", bandit.group(1)):
                native_by_bandit.setdefault(test, set()).add(rule.group(1))


HIGH = ("high", "critical")


def high(findings):
    return [f for f in findings if f["severity"] in HIGH]


def high_or_absorbed(findings):
    return [f for f in findings if f["severity"] in HIGH or any(rule_severity.get(n) in HIGH for n in names(f))]


def names(f):
    return {f["ruleId"], *filter(None, f.get("properties", {}).get("alsoReportedAs", "").split(","))}


def lines(f):
    loc = f["location"]
    start = loc.get("startLine")
    return (start, loc.get("endLine") or start) if start is not None else None


def bandit_test(f):
    rule = f["ruleId"]
    return f.get("properties", {}).get("testId") or (rule[len("bandit."):] if rule.startswith("bandit.") else None)


def same_issue(f, others_by_file):
    candidates = others_by_file.get(f["location"].get("file"), [])
    start = f["location"].get("startLine")
    for g in candidates:
        if g["location"].get("startLine") == start and names(f) & names(g):
            return True
    # Bandit on one side, native on the other.
    for g in candidates:
        bandit, native = (f, g) if f["tool"] == "bandit" else (g, f) if g["tool"] == "bandit" else (None, None)
        if bandit is None or native["tool"] == "bandit":
            continue
        x, y = lines(bandit), lines(native)
        if not x or not y or x[0] > y[1] or y[0] > x[1]:
            continue
        mapped = native_by_bandit.get(bandit_test(bandit) or "", set())
        if mapped:
            if names(native) & mapped:
                return True
        elif x[0] == y[0] and set(bandit.get("cwe", [])) & set(native.get("cwe", [])):
            return True
    return False


def by_file(findings):
    index = {}
    for f in findings:
        index.setdefault(f["location"].get("file"), []).append(f)
    return index


def line_of(f):
    also = f.get("properties", {}).get("alsoReportedAs")
    also = f" (also as {also})" if also else ""
    return (f'{f["location"].get("file")}:{f["location"].get("startLine")}: {f["severity"]}: '
            f'[{f["ruleId"]}] ({f["tool"]}){also} {f["message"]}\n')


old_index, new_index = by_file(old), by_file(new)
with open(lost_path, "w") as out:
    for f in high_or_absorbed(old):
        if not same_issue(f, new_index):
            out.write(line_of(f))
with open(added_path, "w") as out:
    for f in high_or_absorbed(new):
        if not same_issue(f, old_index):
            out.write(line_of(f))

asserts = lambda fs: sum(bool(names(f) & {"python.assert-used", "bandit.B101"}) for f in fs)
bandit = sum(f["tool"] == "bandit" or "bandit" in f.get("properties", {}).get("alsoReportedBy", "") for f in old)
print(len(old), len(new), len(high(old)), len(high(new)), asserts(old), asserts(new), bandit)
