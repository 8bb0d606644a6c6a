#!/usr/bin/env python3
"""Recall of Sentinel's native SAST rules on Bandit's own example files.

For every file in ../shared/corpora/bandit/examples the native scanner's findings are mapped to
Bandit test ids through the rules' `metadata.bandit` lists and compared with what Bandit reports:

* per file, against the expected counts in `expected_counts.json` (Bandit's functional tests);
* per Bandit test id (B101, B602, ...) and per family group (B1xx ... B7xx), against the
  line-level results of Bandit 1.9.4 on the same files (`bench/bandit-examples-truth.json`,
  regenerate with `--regen-truth` when Bandit is installed; its per-file totals are checked
  against expected_counts.json and any difference is reported).

Findings come from `sentinel scan --sast --format json --tools native --min-confidence low DIR` (the JSON contract:
{"findings": [{"ruleId", "location": {"file", "startLine"}, "severity"}]}) or from a JSON file
of findings produced otherwise (`--findings FILE`, same shape; a bare list is accepted too, and so
are the `finding<TAB>file<TAB>line<TAB>rule` lines of the engine's dump test).

A native finding matches a Bandit result when the file and Bandit id agree and the finding starts
on the Bandit line or, failing that, up to 3 lines before it (Bandit reports the `except` line of
a try statement, the native engine the `try` line); each Bandit result and each native finding is
matched at most once, exact lines first.

Usage:
  bench/sast-recall.py [--sentinel .build/debug/sentinel] [--findings FILE] [--per-file]
                       [--corpus DIR] [--rules DIR] [--truth FILE] [--json-out FILE] [--markdown FILE]
Exit status: 0, or 2 on bad input / scanner failure.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO.parent / "shared" / "corpora" / "bandit"
WINDOW_BEFORE = 3  # a finding may start this many lines before the Bandit line
WINDOW_AFTER = 0   # ... and never after it

GROUPS = {
    "B1xx": "misc (asserts, exec, permissions, binding, passwords, tmp, try/except, timeouts)",
    "B2xx": "application/framework misconfiguration (flask debug, tarfile)",
    "B3xx": "blacklisted calls",
    "B4xx": "blacklisted imports",
    "B5xx": "cryptography / TLS",
    "B6xx": "injection (shell, SQL, wildcards, django, logging)",
    "B7xx": "XSS / templates",
}


def die(msg: str) -> None:
    print(f"sast-recall: {msg}", file=sys.stderr)
    sys.exit(2)


# --------------------------------------------------------------------------- rules -> Bandit ids

def load_rule_map(rules_dir: Path) -> dict[str, list[str]]:
    """rule id -> Bandit ids, from metadata.bandit of every rule YAML under rules_dir."""
    try:
        import yaml  # type: ignore
    except ImportError:  # pragma: no cover - fall back to a line parser
        yaml = None
    out: dict[str, list[str]] = {}
    for path in sorted(rules_dir.rglob("*.yaml")) + sorted(rules_dir.rglob("*.yml")):
        text = path.read_text(encoding="utf-8")
        if yaml is not None:
            try:
                doc = yaml.safe_load(text) or {}
            except yaml.YAMLError as exc:
                die(f"{path}: {exc}")
            rid = doc.get("id")
            bandit = (doc.get("metadata") or {}).get("bandit") or []
        else:
            m = re.search(r"^id:\s*(\S+)", text, re.M)
            rid = m.group(1) if m else None
            m = re.search(r"^\s+bandit:\s*\[([^\]]*)\]", text, re.M)
            bandit = [b.strip() for b in m.group(1).split(",") if b.strip()] if m else []
        if rid:
            out[str(rid)] = [str(b) for b in bandit]
    return out


def bandit_ids_for(rule_id: str, rule_map: dict[str, list[str]]) -> list[str]:
    if rule_id in rule_map:
        return rule_map[rule_id]
    # Tolerate tool prefixes ("sentinel.python.x", "native/python.x").
    for rid, ids in rule_map.items():
        if rule_id.endswith("." + rid) or rule_id.endswith("/" + rid):
            return ids
    return []


# --------------------------------------------------------------------------- findings

def run_scanner(sentinel: Path, target: Path) -> dict:
    # Recall counts every finding the engine makes, low-confidence ones included (the default
    # report leaves those out).
    cmd = [str(sentinel), "scan", "--sast", "--format", "json", "--tools", "native", "--fail-on", "none",
           "--min-confidence", "low", str(target)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        # Older CLIs may not know --fail-on or --min-confidence; retry with the bare contract.
        cmd = [str(sentinel), "scan", "--sast", "--format", "json", "--tools", "native", str(target)]
        proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        die(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr.strip()[:500]}")
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError as exc:
        die(f"scanner output is not JSON ({exc}): {proc.stdout[:200]!r}")
    return {}


def load_findings(path: str) -> list[dict]:
    """JSON ({"findings": [...]} or a list), or the engine test dump's lines
    `finding<TAB>file<TAB>line<TAB>rule[<TAB>...]` (paths relative to the scanned directory)."""
    text = Path(path).read_text()
    try:
        return findings_of(json.loads(text))
    except json.JSONDecodeError:
        out = []
        for line in text.splitlines():
            parts = line.split("\t")
            if len(parts) >= 4 and parts[0] == "finding":
                out.append({"ruleId": parts[3], "location": {"file": parts[1], "startLine": int(parts[2])}})
        if not out and text.strip():
            die(f"{path}: neither JSON nor finding<TAB>file<TAB>line<TAB>rule lines")
        return out


def findings_of(doc) -> list[dict]:
    if isinstance(doc, list):
        return doc
    if isinstance(doc, dict):
        for key in ("findings", "results"):
            if isinstance(doc.get(key), list):
                return doc[key]
    die("findings JSON has neither a 'findings' list nor is a list")
    return []


def norm_file(path: str, examples: Path) -> str:
    """Path relative to the examples directory (what the truth and expected counts use)."""
    p = Path(path)
    if not p.is_absolute():
        cand = (examples / p)
        if cand.exists():
            return str(cand.resolve().relative_to(examples.resolve()))
        cand = (Path.cwd() / p)
        p = cand
    try:
        return str(p.resolve().relative_to(examples.resolve()))
    except ValueError:
        parts = Path(path).parts
        if "examples" in parts:
            return str(Path(*parts[len(parts) - parts[::-1].index("examples"):]))
        return Path(path).name


# --------------------------------------------------------------------------- truth

def regen_truth(examples: Path, out: Path) -> None:
    bandit = os.environ.get("BANDIT", "bandit")
    proc = subprocess.run([bandit, "-r", str(examples), "-f", "json", "-q"], capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        die(f"bandit exited {proc.returncode}: {proc.stderr[:300]}")
    doc = json.loads(proc.stdout)
    version = subprocess.run([bandit, "--version"], capture_output=True, text=True).stdout.split("\n")[0]
    rows = sorted(
        (
            {
                "file": str(Path(r["filename"]).resolve().relative_to(examples.resolve())),
                "line": r["line_number"],
                "test_id": r["test_id"],
                "test_name": r["test_name"],
                "severity": r["issue_severity"],
                "cwe": (r.get("issue_cwe") or {}).get("id"),
            }
            for r in doc["results"]
        ),
        key=lambda r: (r["file"], r["line"], r["test_id"]),
    )
    out.write_text(json.dumps({"generator": f"{version} -r examples -f json (default profile)",
                               "results": rows}, indent=1) + "\n")
    print(f"wrote {out} ({len(rows)} results)")


def expected_totals(expected_counts: Path) -> dict[str, int]:
    """file -> expected number of Bandit issues with the default configuration."""
    doc = json.loads(expected_counts.read_text())
    totals: dict[str, int] = {}
    for entry in doc["resolved"]:
        total = sum(entry["expect"]["SEVERITY"].values())
        f = entry["file"]
        if entry.get("nondefault_config") or entry.get("ignore_nosec"):
            totals.setdefault(f, total)  # only when no default-config entry exists
            continue
        totals[f] = total
    return totals


# --------------------------------------------------------------------------- matching

def match(truth: list[dict], ours: list[tuple[str, int, str, str]]):
    """One-to-one matching of (file, line, bandit id) triples: exact lines first, then the window."""
    by_key: dict[tuple[str, str], list[tuple[int, str]]] = collections.defaultdict(list)
    for f, line, tid, rule in ours:
        by_key[(f, tid)].append((line, rule))
    used: set[tuple[str, str, int, str]] = set()
    matched: dict[int, tuple[int, str]] = {}
    order = sorted(range(len(truth)), key=lambda i: (truth[i]["file"], truth[i]["line"]))
    for exact in (True, False):
        for i in order:
            if i in matched:
                continue
            t = truth[i]
            best = None
            for line, rule in by_key.get((t["file"], t["test_id"]), []):
                if (t["file"], t["test_id"], line, rule) in used:
                    continue
                d = t["line"] - line
                ok = d == 0 if exact else -WINDOW_AFTER <= d <= WINDOW_BEFORE
                if ok and (best is None or abs(d) < abs(t["line"] - best[0])):
                    best = (line, rule)
            if best is not None:
                used.add((t["file"], t["test_id"], best[0], best[1]))
                matched[i] = best
    hits = [(truth[i], matched[i]) for i in order if i in matched]
    misses = [truth[i] for i in order if i not in matched]
    extra = [(f, line, tid, rule) for f, line, tid, rule in ours if (f, tid, line, rule) not in used]
    return hits, misses, extra


def pct(a: int, b: int) -> str:
    return "—" if b == 0 else f"{100.0 * a / b:.0f}%"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sentinel", default=str(REPO / ".build" / "debug" / "sentinel"))
    ap.add_argument("--findings", help="JSON file of native findings instead of running the scanner")
    ap.add_argument("--per-file", action="store_true", help="run the scanner once per example file")
    ap.add_argument("--corpus", default=os.environ.get("BANDIT_CORPUS", str(DEFAULT_CORPUS)))
    ap.add_argument("--rules", default=str(REPO / "rules"))
    ap.add_argument("--truth", default=str(REPO / "bench" / "bandit-examples-truth.json"))
    ap.add_argument("--regen-truth", action="store_true", help="rerun Bandit ($BANDIT or bandit) to rebuild --truth")
    ap.add_argument("--json-out", help="write the numbers as JSON here")
    ap.add_argument("--markdown", help="write the tables as Markdown here (also printed)")
    ap.add_argument("--show-misses", action="store_true", help="list every Bandit result not matched")
    args = ap.parse_args()

    corpus = Path(args.corpus)
    examples = corpus / "examples"
    if not examples.is_dir():
        die(f"no examples directory at {examples}")
    truth_path = Path(args.truth)
    if args.regen_truth:
        regen_truth(examples, truth_path)
    if not truth_path.exists():
        die(f"no truth file {truth_path} (run with --regen-truth where Bandit is installed)")
    truth = json.loads(truth_path.read_text())["results"]
    totals = expected_totals(corpus / "expected_counts.json")
    rule_map = load_rule_map(Path(args.rules))
    if not rule_map:
        die(f"no rules under {args.rules}")

    # Native findings.
    if args.findings:
        raw = load_findings(args.findings)
    elif args.per_file:
        raw = []
        for f in sorted(examples.rglob("*.py")):
            raw += findings_of(run_scanner(Path(args.sentinel), f))
    else:
        raw = findings_of(run_scanner(Path(args.sentinel), examples))

    ours: list[tuple[str, int, str, str]] = []
    unmapped = collections.Counter()
    native_per_file = collections.Counter()
    for fd in raw:
        rid = fd.get("ruleId") or fd.get("rule_id") or ""
        loc = fd.get("location") or {}
        f = norm_file(loc.get("file") or fd.get("file") or "", examples)
        line = int(loc.get("startLine") or fd.get("line") or 0)
        native_per_file[f] += 1
        ids = bandit_ids_for(rid, rule_map)
        if not ids:
            unmapped[rid] += 1
        for tid in ids:
            ours.append((f, line, tid, rid))
    ours = sorted(set(ours))

    hits, misses, extra = match(truth, ours)

    # Per Bandit id.
    names = {t["test_id"]: t["test_name"] for t in truth}
    exp_by_id = collections.Counter(t["test_id"] for t in truth)
    hit_by_id = collections.Counter(t["test_id"] for t, _ in hits)
    extra_by_id = collections.Counter(tid for _, _, tid, _ in extra)
    covered = sorted({b for ids in rule_map.values() for b in ids})
    all_ids = sorted(set(exp_by_id) | set(covered))

    lines: list[str] = []
    lines.append("### Native SAST vs Bandit's examples — recall per Bandit test id\n")
    lines.append(f"Truth: {len(truth)} Bandit results on {len({t['file'] for t in truth})} files "
                 f"(`{truth_path.name}`); native findings: {len(raw)} ({len(ours)} mapped to Bandit ids).\n")
    lines.append("| Bandit id | check | Bandit results | matched | recall | native extra | native rules |")
    lines.append("|---|---|---:|---:|---:|---:|---|")
    rules_by_id: dict[str, list[str]] = collections.defaultdict(list)
    for rid, ids in sorted(rule_map.items()):
        for b in ids:
            rules_by_id[b].append(rid)
    for tid in all_ids:
        rl = ", ".join(r.removeprefix("python.") for r in rules_by_id.get(tid, [])) or "**none**"
        lines.append(f"| {tid} | {names.get(tid, '')} | {exp_by_id[tid]} | {hit_by_id[tid]} | "
                     f"{pct(hit_by_id[tid], exp_by_id[tid])} | {extra_by_id[tid]} | {rl} |")

    lines.append("\n### Per family group\n")
    lines.append("| group | what | Bandit ids with results | ids detected (≥1 match) | results | matched | recall |")
    lines.append("|---|---|---:|---:|---:|---:|---:|")
    group_rows = {}
    for g, desc in GROUPS.items():
        ids = [t for t in exp_by_id if t.startswith(g[:2])]
        det = [t for t in ids if hit_by_id[t] > 0]
        e = sum(exp_by_id[t] for t in ids)
        h = sum(hit_by_id[t] for t in ids)
        group_rows[g] = {"ids": len(ids), "detected": len(det), "expected": e, "matched": h}
        lines.append(f"| {g} | {desc} | {len(ids)} | {len(det)} | {e} | {h} | {pct(h, e)} |")
    te, th = len(truth), len(hits)
    fam_total = len(exp_by_id)
    fam_det = sum(1 for t in exp_by_id if hit_by_id[t] > 0)
    lines.append(f"| **all** | | {fam_total} | {fam_det} | {te} | {th} | {pct(th, te)} |")
    undetected = sorted(t for t in exp_by_id if hit_by_id[t] == 0)
    lines.append(f"\nFamilies Bandit detects that the native rules detect: **{fam_det}/{fam_total}**"
                 + (f"; not detected: {', '.join(undetected)}" if undetected else "") + ".")

    lines.append("\n### Per example file (expected counts from Bandit's functional tests)\n")
    lines.append("| file | expected (expected_counts.json) | Bandit 1.9.4 results | matched | native findings |")
    lines.append("|---|---:|---:|---:|---:|")
    truth_per_file = collections.Counter(t["file"] for t in truth)
    hits_per_file = collections.Counter(t["file"] for t, _ in hits)
    files = sorted(set(totals) | set(truth_per_file) | set(native_per_file))
    mismatched = []
    for f in files:
        exp = totals.get(f)
        if exp is not None and exp != truth_per_file[f]:
            mismatched.append(f)
        lines.append(f"| {f} | {'' if exp is None else exp} | {truth_per_file[f]} | {hits_per_file[f]} | "
                     f"{native_per_file[f]} |")
    if mismatched:
        lines.append(f"\nFiles where the truth file's totals differ from expected_counts.json "
                     f"(non-default Bandit configuration in Bandit's tests): {', '.join(mismatched)}.")
    if unmapped:
        lines.append("\nNative findings of rules without `metadata.bandit` (not counted): "
                     + ", ".join(f"{r} ×{n}" for r, n in unmapped.most_common()) + ".")
    if args.show_misses:
        lines.append("\n### Bandit results not matched\n")
        for t in misses:
            lines.append(f"- {t['file']}:{t['line']} {t['test_id']} {t['test_name']}")

    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text)
    if args.json_out:
        Path(args.json_out).write_text(json.dumps({
            "truth_results": te, "matched": th, "recall": (th / te) if te else None,
            "families": {t: {"expected": exp_by_id[t], "matched": hit_by_id[t], "extra": extra_by_id[t]}
                         for t in all_ids},
            "groups": group_rows,
            "families_detected": fam_det, "families_total": fam_total, "undetected": undetected,
            "misses": misses,
        }, indent=1) + "\n")


if __name__ == "__main__":
    main()
