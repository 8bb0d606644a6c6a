#!/usr/bin/env python3
"""Helpers of bench/findings-identical.sh.

compare FORMAT BASE HEAD DIFF_FILE [SENTINEL_VERSION_BASE SENTINEL_VERSION_HEAD]
    Normalises two reports (json or sarif) and compares them byte for byte. Prints
    "identical N" or "DIFFERENT N M" (findings in base, head); on a difference, writes a unified
    diff of the normalised texts (at most 400 lines) to DIFF_FILE.

failed BASE_JSON HEAD_JSON
    Prints the tools that did not succeed in either JSON report, as TOOL(side), space-separated.

classify BASE_JSON HEAD_JSON DETAILS_FILE
    Sorts every finding that is in one JSON report and not the other into the classes of issue
    77's acceptance: `generated` (its file is one the head names as generated or vendored in
    summary.defaultExclusions' signalsByFile), `budget` (a sentinel.file-not-analysed finding of
    the work budget or a parser bound) and `other` (a real change of behaviour). A finding that
    only changed (same tool, rule, file and start) counts once, in its file's class. Prints one
    line, "generated N budget N other N files G summary KEYS" (G: generated files the head
    names; KEYS: summary fields other than durations and counts that differ, comma-separated, or
    -); writes each differing finding with its class, and the generated files with their
    signals, to DETAILS_FILE.

speed RUN_DIR TARGET...
    Pools the hyperfine exports RUN_DIR/speed-TARGET-ROUND-SIDE.json per side and prints a
    Markdown table: mean +- sd of each side, runs, head/base ratio of the means.

The normalisation works on the report's text, so everything it does not name is compared byte for
byte (order, spacing, escaping, number formatting). It blanks exactly these, which differ between
two runs of one binary or carry the revision's own version:
  - every "durationSeconds" value (JSON: summary.durationSeconds and summary.tools[].durationSeconds;
    SARIF has none) -> "<duration>";
  - the age in days of the OSV data in the stale-database notice ("the PyPI advisories are 775d
    old"; JSON summary.notices[].message, SARIF invocations[].toolExecutionNotifications[].message
    .text) -> "<age>d old": it counts days up to the scan's date;
  - Sentinel's own version, SARIF runs[].tool.driver.version and the built-in engines'
    tool.extensions[].version (the value `sentinel --version` prints, given per side), ->
    "<sentinel-version>"; an adapter's version (Bandit's) is the installed tool's and stays.
No absolute temporary path appears in either format (paths are relative to the scan root; SARIF's
originalUriBaseIds holds the scanned directory, the same for both sides), so none is rewritten.
"""

import difflib
import json
import re
import statistics
import sys

DURATION = re.compile(r'("durationSeconds"\s*:\s*)-?[0-9][0-9.eE+-]*')
AGE = re.compile(r"\b[0-9]+d old\b")


def normalise(text, version):
    text = DURATION.sub(r'\1"<duration>"', text)
    text = AGE.sub("<age>d old", text)
    if version and version != "2.1.0":  # 2.1.0 is SARIF's own version field
        text = re.sub(r'("version"\s*:\s*)"' + re.escape(version) + '"', r'\1"<sentinel-version>"', text)
    return text


def count(text, fmt):
    data = json.loads(text)
    if fmt == "json":
        return len(data["findings"])
    return sum(len(run.get("results", [])) for run in data["runs"])


def compare(fmt, base_path, head_path, diff_path, base_version="", head_version=""):
    base = normalise(open(base_path, encoding="utf-8").read(), base_version)
    head = normalise(open(head_path, encoding="utf-8").read(), head_version)
    base_count, head_count = count(base, fmt), count(head, fmt)
    if base == head:
        print(f"identical {base_count}")
        return
    lines = list(
        difflib.unified_diff(
            base.splitlines(keepends=True), head.splitlines(keepends=True), base_path, head_path, n=3))
    with open(diff_path, "w", encoding="utf-8") as out:
        out.writelines(lines[:400])
        if len(lines) > 400:
            out.write(f"... ({len(lines) - 400} more diff lines)\n")
    print(f"DIFFERENT {base_count} {head_count}")


def failed(base_path, head_path):
    names = []
    for side, path in (("base", base_path), ("head", head_path)):
        with open(path, encoding="utf-8") as report:
            tools = json.load(report)["summary"]["tools"]
        names += [f"{tool['name']}({side})" for tool in tools if tool.get("status") != "succeeded"]
    print(" ".join(names))


BUDGET_RULE = "sentinel.file-not-analysed"
# Fields of the summary a difference in the findings already accounts for, or that differ
# between two runs of one binary.
DERIVED = {"durationSeconds", "total", "bySeverity", "byTool", "tools"}


def finding_key(finding):
    location = finding.get("location") or {}
    return (finding.get("tool"), finding.get("ruleId"), location.get("file"), location.get("startLine"),
            location.get("startColumn"))


def generated_files(report):
    files = {}
    for exclusion in report["summary"].get("defaultExclusions") or []:
        if exclusion.get("kind") == "generated":
            files.update(exclusion.get("signalsByFile") or {})
    return files


def classify(base_path, head_path, details_path):
    with open(base_path, encoding="utf-8") as report:
        base = json.load(report)
    with open(head_path, encoding="utf-8") as report:
        head = json.load(report)
    generated = generated_files(head)
    canonical = lambda finding: json.dumps(finding, sort_keys=True)
    base_texts = [canonical(f) for f in base["findings"]]
    head_texts = [canonical(f) for f in head["findings"]]
    only_base, only_head = list(base_texts), []
    for text in head_texts:
        if text in only_base:
            only_base.remove(text)
        else:
            only_head.append(text)
    removed = {}
    for text in only_base:
        finding = json.loads(text)
        removed.setdefault(finding_key(finding), []).append(finding)
    rows = []  # (class, description)
    for text in only_head:
        finding = json.loads(text)
        before = removed.get(finding_key(finding))
        if before:
            old = before.pop(0)
            fields = sorted(k for k in set(old) | set(finding) if old.get(k) != finding.get(k))
            rows.append((finding, "changed " + ",".join(fields)))
        else:
            rows.append((finding, "head only"))
    for findings in removed.values():
        rows += [(finding, "base only") for finding in findings]
    counts = {"generated": 0, "budget": 0, "other": 0}
    lines = []
    for finding, change in sorted(rows, key=lambda row: tuple(str(part) for part in finding_key(row[0]))):
        location = finding.get("location") or {}
        file = location.get("file")
        if finding.get("ruleId") == BUDGET_RULE:
            kind = "budget"
        elif file in generated:
            kind = "generated"
        else:
            kind = "other"
        counts[kind] += 1
        lines.append(f"{kind}\t{change}\t{finding.get('ruleId')}\t{file}:{location.get('startLine')}"
                     f"\t{finding.get('message', '')[:160]}\n")
    summary_keys = sorted(
        key for key in set(base["summary"]) | set(head["summary"])
        if key not in DERIVED and base["summary"].get(key) != head["summary"].get(key))
    with open(details_path, "w", encoding="utf-8") as out:
        out.write(f"# {base_path} -> {head_path}\n# class\tchange\trule\tfile:line\tmessage\n")
        out.writelines(lines)
        out.write(f"# generated or vendored files the head names ({len(generated)}):\n")
        out.writelines(f"{path}\t{', '.join(signals)}\n" for path, signals in sorted(generated.items()))
        for key in summary_keys:
            out.write(f"# summary.{key}: base {json.dumps(base['summary'].get(key))[:2000]}\n")
            out.write(f"# summary.{key}: head {json.dumps(head['summary'].get(key))[:2000]}\n")
    print(f"generated {counts['generated']} budget {counts['budget']} other {counts['other']} "
          f"files {len(generated)} summary {','.join(summary_keys) or '-'}")


def speed(run_dir, targets):
    print("| target | base mean ± sd (s) | head mean ± sd (s) | runs per side | head/base |")
    print("|---|---|---|---|---|")
    for target in targets:
        times = {"base": [], "head": []}
        for side in times:
            round_number = 1
            while True:
                try:
                    with open(f"{run_dir}/speed-{target}-{round_number}-{side}.json") as export:
                        times[side] += json.load(export)["results"][0]["times"]
                except FileNotFoundError:
                    break
                round_number += 1
        if not times["base"] or not times["head"]:
            continue
        base, head = times["base"], times["head"]
        cells = [f"{statistics.mean(t):.3f} ± {statistics.stdev(t) if len(t) > 1 else 0:.3f}" for t in (base, head)]
        ratio = statistics.mean(head) / statistics.mean(base)
        print(f"| {target} | {cells[0]} | {cells[1]} | {len(base)} | {ratio:.3f} |")


if __name__ == "__main__":
    if len(sys.argv) >= 6 and sys.argv[1] == "compare":
        compare(*sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == "failed":
        failed(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "classify":
        classify(*sys.argv[2:])
    elif len(sys.argv) >= 3 and sys.argv[1] == "speed":
        speed(sys.argv[2], sys.argv[3:])
    else:
        sys.exit(__doc__)
