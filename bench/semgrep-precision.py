#!/usr/bin/env python3
"""Precision and recall of Sentinel's native rules on Semgrep's own Python rule tests.

Semgrep's rule tests (../shared/corpora/semgrep-rules/python, annotations in annotations.json)
mark lines with `# ruleid: <id>` (the next line must be reported) and `# ok: <id>` (it must not).
Each native rule lists the Semgrep rule ids it corresponds to in `metadata.semgrep` (the table is
bench/semgrep-mapping.md, regenerated with --mapping-md). For every mapped Semgrep rule id, on the
lines annotated for that id only:

  TP = `ruleid` lines where a finding of a mapped native rule starts (or which it spans, when the
       findings carry endLine)
  FN = `ruleid` lines without one
  FP = `ok` lines where a finding of a mapped native rule starts
  precision = TP / (TP + FP), recall = TP / (TP + FN)

Findings on unannotated lines are not counted (Semgrep's test convention). Findings come from
`sentinel scan --sast --format json --tools native --min-confidence low DIR` or from a JSON file (`--findings FILE`,
{"findings": [{"ruleId", "location": {"file", "startLine"}}]} or a bare list).

Usage:
  bench/semgrep-precision.py [--sentinel .build/debug/sentinel] [--findings FILE] [--corpus DIR]
                             [--rules DIR] [--markdown FILE] [--json-out FILE] [--mapping-md FILE]
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO.parent / "shared" / "corpora" / "semgrep-rules"


def die(msg: str) -> None:
    print(f"semgrep-precision: {msg}", file=sys.stderr)
    sys.exit(2)


def load_rules(rules_dir: Path) -> dict[str, dict]:
    import yaml  # PyYAML

    out = {}
    for path in sorted(rules_dir.rglob("*.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        meta = doc.get("metadata") or {}
        if doc.get("id"):
            out[doc["id"]] = {"semgrep": [str(s) for s in meta.get("semgrep") or []],
                              "bandit": [str(b) for b in meta.get("bandit") or []],
                              "mode": doc.get("mode", "search"), "severity": doc.get("severity")}
    return out


def run_scanner(sentinel: str, target: Path) -> dict:
    base = [sentinel, "scan", "--sast", "--format", "json", "--tools", "native"]
    # Every finding the engine makes, low-confidence ones included (older CLIs: the bare contract).
    proc = subprocess.run(base + ["--fail-on", "none", "--min-confidence", "low", str(target)], capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        proc = subprocess.run(base + [str(target)], capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        die(f"scanner exited {proc.returncode}: {proc.stderr.strip()[:500]}")
    return json.loads(proc.stdout)


def findings_of(doc) -> list[dict]:
    if isinstance(doc, list):
        return doc
    if isinstance(doc, dict) and isinstance(doc.get("findings"), list):
        return doc["findings"]
    die("findings JSON has no 'findings' list")
    return []


def load_findings(path: str) -> list[dict]:
    """JSON, or the engine test dump's `finding<TAB>file<TAB>line<TAB>rule` lines."""
    text = Path(path).read_text()
    try:
        return findings_of(json.loads(text))
    except json.JSONDecodeError:
        out = []
        for line in text.splitlines():
            parts = line.split("\t")
            if len(parts) >= 4 and parts[0] == "finding":
                out.append({"ruleId": parts[3], "location": {"file": parts[1], "startLine": int(parts[2])}})
        return out


def rel(path: str, corpus: Path) -> str:
    p = Path(path)
    if not p.is_absolute():
        for base in (corpus, corpus / "python", Path.cwd()):
            if (base / p).exists():
                p = base / p
                break
    try:
        return str(p.resolve().relative_to(corpus.resolve()))
    except ValueError:
        parts = Path(path).parts
        return str(Path(*parts[parts.index("python"):])) if "python" in parts else path


def pct(a: int, b: int) -> str:
    return "—" if b == 0 else f"{100.0 * a / b:.0f}%"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sentinel", default=str(REPO / ".build" / "debug" / "sentinel"))
    ap.add_argument("--findings")
    ap.add_argument("--corpus", default=os.environ.get("SEMGREP_CORPUS", str(DEFAULT_CORPUS)))
    ap.add_argument("--rules", default=str(REPO / "rules"))
    ap.add_argument("--markdown")
    ap.add_argument("--json-out")
    ap.add_argument("--mapping-md", help="write the native → Semgrep mapping table here")
    ap.add_argument("--show-errors", action="store_true", help="list every FN and FP line")
    ap.add_argument("--mode", choices=["all", "search", "taint"], default="all",
                    help="measure only search-mode or only taint-mode native rules")
    args = ap.parse_args()

    corpus = Path(args.corpus)
    ann = json.loads((corpus / "annotations.json").read_text())["files"]
    rules = load_rules(Path(args.rules))
    if args.mode != "all":
        rules = {r: v for r, v in rules.items() if (v["mode"] == "taint") == (args.mode == "taint")}

    # Semgrep full id -> (test file, short id); full id = test path without .py, dotted, + short id.
    where: dict[str, tuple[str, str]] = {}
    for f, anns in ann.items():
        for a in anns:
            for r in a["rule_ids"]:
                where[f[:-3].replace("/", ".") + "." + r] = (f, r)
    native_for: dict[str, list[str]] = collections.defaultdict(list)
    unknown = []
    for rid, r in rules.items():
        for s in r["semgrep"]:
            if s in where:
                native_for[s].append(rid)
            else:
                unknown.append((rid, s))
    if not native_for:
        die("no rule has metadata.semgrep ids found in annotations.json")

    if args.mapping_md:
        lines = ["# Native rules ↔ Semgrep Python rules", "",
                 "Semgrep rule ids (from `../shared/corpora/semgrep-rules/annotations.json`) that native rules",
                 "correspond to, as listed in each rule's `metadata.semgrep`. `bench/semgrep-precision.py` measures",
                 "precision and recall of the native rules on the lines Semgrep's tests annotate for these ids.",
                 "Regenerate with `bench/semgrep-precision.py --findings F --mapping-md bench/semgrep-mapping.md`.", "",
                 "| Semgrep rule id | test file | ruleid / ok lines | native rules |", "|---|---|---:|---|"]
        for s in sorted(native_for, key=lambda s: where[s]):
            f, short = where[s]
            k = collections.Counter(a["kind"] for a in ann[f] if short in a["rule_ids"])
            nat = ", ".join(f"`{r}`" for r in sorted(native_for[s]))
            lines.append(f"| `{s}` | `{f}` | {k['ruleid']} / {k['ok']} | {nat} |")
        mapped_rules = {r for rs in native_for.values() for r in rs}
        unmapped = sorted(r for r, v in rules.items() if r not in mapped_rules and v["mode"] == "search")
        lines += ["", f"{len(native_for)} Semgrep rule ids ↔ {len(mapped_rules)} native rules.",
                  "", "Native search rules with no Semgrep counterpart in the corpus: "
                  + ", ".join(f"`{r}`" for r in unmapped) + "."]
        Path(args.mapping_md).write_text("\n".join(lines) + "\n")

    if args.findings:
        raw = load_findings(args.findings)
    else:
        raw = findings_of(run_scanner(args.sentinel, corpus / "python"))
    # (file, native rule) -> lines the findings cover (startLine..endLine when the JSON has endLine:
    # Semgrep's tests annotate the line of the focused sub-expression, the native engine reports the
    # whole matched statement or call).
    found: dict[tuple[str, str], set[int]] = collections.defaultdict(set)
    starts: dict[tuple[str, str], set[int]] = collections.defaultdict(set)
    for fd in raw:
        loc = fd.get("location") or {}
        rid = fd.get("ruleId") or ""
        if rid not in rules:
            rid = next((r for r in rules if rid.endswith("." + r)), rid)
        start = int(loc.get("startLine") or 0)
        end = int(loc.get("endLine") or start)
        key = (rel(loc.get("file", ""), corpus), rid)
        found[key].update(range(start, max(start, end) + 1))
        starts[key].add(start)

    rows = []
    errors = []
    T = collections.Counter()
    for s in sorted(native_for, key=lambda s: where[s]):
        f, short = where[s]
        lines_hit, lines_start = set(), set()
        for rid in native_for[s]:
            lines_hit |= found.get((f, rid), set())
            lines_start |= starts.get((f, rid), set())
        c = collections.Counter()
        for a in ann[f]:
            if short not in a["rule_ids"]:
                continue
            # A `ruleid` line counts as found when a finding spans it; an `ok` line only when a
            # finding starts on it (a compound statement's range runs over the lines after it).
            hit = a["target_line"] in (lines_hit if a["kind"] == "ruleid" else lines_start)
            if a["kind"] == "ruleid":
                c["tp" if hit else "fn"] += 1
                if not hit:
                    errors.append(f"FN {f}:{a['target_line']} {short}")
            else:
                c["fp" if hit else "tn"] += 1
                if hit:
                    errors.append(f"FP {f}:{a['target_line']} {short}")
        T.update(c)
        rows.append((s, f, short, c, native_for[s]))

    out = ["### Native rules on Semgrep's Python rule tests (annotated lines only)\n",
           "| Semgrep rule | native rules | TP | FN | FP | TN | precision | recall |",
           "|---|---|---:|---:|---:|---:|---:|---:|"]
    for s, f, short, c, nat in rows:
        out.append(f"| `{short}` ({f.removeprefix('python/').rsplit('/', 1)[0]}) | "
                   f"{', '.join(r.removeprefix('python.') for r in sorted(nat))} | {c['tp']} | {c['fn']} | {c['fp']} | "
                   f"{c['tn']} | {pct(c['tp'], c['tp'] + c['fp'])} | {pct(c['tp'], c['tp'] + c['fn'])} |")
    out.append(f"| **all {len(rows)}** | | {T['tp']} | {T['fn']} | {T['fp']} | {T['tn']} | "
               f"**{pct(T['tp'], T['tp'] + T['fp'])}** | **{pct(T['tp'], T['tp'] + T['fn'])}** |")
    if unknown:
        out.append("\nmetadata.semgrep ids not in the corpus: " + ", ".join(f"{r}→{s}" for r, s in unknown))
    if args.show_errors:
        out += ["", "### Errors", ""] + [f"- {e}" for e in errors]
    text = "\n".join(out) + "\n"
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text)
    if args.json_out:
        Path(args.json_out).write_text(json.dumps({
            "tp": T["tp"], "fn": T["fn"], "fp": T["fp"], "tn": T["tn"],
            "precision": T["tp"] / (T["tp"] + T["fp"]) if T["tp"] + T["fp"] else None,
            "recall": T["tp"] / (T["tp"] + T["fn"]) if T["tp"] + T["fn"] else None,
            "rules": {s: dict(c) for s, _, _, c, _ in rows}, "errors": errors}, indent=1) + "\n")


if __name__ == "__main__":
    main()
