#!/usr/bin/env python3
"""The share of true RealVuln-dev findings that `sentinel heal` fixes with a rule's own `fix:` and
verifies, per weakness class, beside the classes Semgrep's autofix covers (issue 79).

    bench/heal-rulefix.py [--sentinel PATH] [--half tune|check|both] [--apps A,B] [--json OUT]

A class is a CWE that at least one shipped rule with a `fix:` (a template rule: `fix-regex:`)
reports (rules/python, rules/javascript, rules/templates). For each app of the half (bench/halves.py owns the split; judge on `tune`,
report `check` beside it) the app is copied to a scratch directory, scanned to SARIF as a user
would (`sentinel scan --format sarif`), and each true ground-truth finding of a fix class is
matched to a reported finding the way the corpus's scorer matches (same file, the CWE among the
acceptable ones, the line within 10 of the labelled range). A matched finding of a rule with a fix
is healed: `sentinel heal --signal SARIF --finding FINGERPRINT --verify 'python3 -m py_compile FILE'
--level observer` (empty memory each time; for a template the verify command has Jinja2 read it,
``TEMPLATE_CHECK``). It counts as healed when heal exits 0: the fixed file compiles and the native
re-scan no longer reports the finding (the apps ship no test suite; compiling is their test).

Semgrep's side: the rules under ../shared/corpora/semgrep-rules/python with a `fix:` or
`fix-regex:` key, counted per CWE of their metadata (what its autofix could rewrite in that class;
its published results carry no fixes, so no per-finding share exists for it).

Exit status: 0, or 2 on bad arguments or a missing corpus.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from halves import CORPORA, half  # noqa: E402

REALVULN = os.path.join(CORPORA, "realvuln-dev")
SEMGREP = os.path.join(CORPORA, "semgrep-rules")
CWE_RE = re.compile(r"CWE-(\d+)", re.I)
LINE_SLACK = 10


def fix_rules():
    """{rule id: [CWE numbers]} of the shipped rules that carry a `fix:`."""
    out = {}
    for language in ("python", "javascript", "templates"):
        folder = os.path.join(ROOT, "rules", language)
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".yaml"):
                continue
            text = open(os.path.join(folder, name), encoding="utf-8").read()
            if not re.search(r"^fix(-regex)?:", text, re.M):
                continue
            rule_id = re.search(r"^id:\s*(\S+)", text, re.M).group(1)
            cwe = re.search(r"^cwe:\s*\[([^\]]*)\]", text, re.M)
            out[rule_id] = [int(c) for c in re.findall(r"\d+", cwe.group(1))] if cwe else []
    return out


def semgrep_autofix():
    """{CWE number: count of Semgrep Python rules with fix/fix-regex in that CWE}."""
    counts = {}
    folder = os.path.join(SEMGREP, "python")
    for directory, _, files in os.walk(folder):
        for name in files:
            if not name.endswith((".yaml", ".yml")) or name.endswith(".test.yaml"):
                continue
            text = open(os.path.join(directory, name), encoding="utf-8", errors="replace").read()
            # Each rule is an `- id:` item; split on them so a file's rules are counted one by one.
            for rule in re.split(r"^\s*- id:", text, flags=re.M)[1:]:
                if not re.search(r"^\s+(fix|fix-regex):", rule, re.M):
                    continue
                for cwe in set(int(c) for c in CWE_RE.findall(rule)):
                    counts[cwe] = counts.get(cwe, 0) + 1
    return counts


def truths(app):
    """The app's true ground-truth findings."""
    path = os.path.join(REALVULN, "ground-truth", app, "ground-truth.json")
    return [f for f in json.load(open(path, encoding="utf-8"))["findings"] if f["is_vulnerable"]]


def cwe_number(text):
    match = CWE_RE.search(text or "")
    return int(match.group(1)) if match else None


def sarif_results(path, repo):
    """(rule id, relative file, line, CWEs, fingerprint, has fix) of each SARIF result."""
    data = json.load(open(path, encoding="utf-8"))
    out = []
    for run in data.get("runs", []):
        rules = {r.get("id"): r for r in run.get("tool", {}).get("driver", {}).get("rules", [])}
        for result in run.get("results", []):
            locations = result.get("locations") or [{}]
            physical = locations[0].get("physicalLocation", {})
            uri = physical.get("artifactLocation", {}).get("uri", "")
            if uri.startswith("file://"):
                uri = os.path.relpath(uri[len("file://"):], repo)
            line = physical.get("region", {}).get("startLine", 0)
            rule = rules.get(result.get("ruleId"), {})
            cwes = [int(c) for c in CWE_RE.findall(json.dumps(result.get("properties", {})) + json.dumps(rule.get("properties", {})))]
            fingerprints = result.get("partialFingerprints") or result.get("fingerprints") or {}
            fingerprint = next(iter(fingerprints.values()), None)
            out.append((result.get("ruleId"), uri, line, set(cwes), fingerprint, bool(result.get("fixes"))))
    return out


def matches(truth, result):
    rule, file, line, cwes, _, _ = result
    start = truth["location"]["start_line"]
    end = truth["location"].get("end_line") or start
    acceptable = {cwe_number(c) for c in truth.get("acceptable_cwes", [])} | {cwe_number(truth["primary_cwe"])}
    return file == truth["file"] and bool(cwes & acceptable) and start - LINE_SLACK <= line <= end + LINE_SLACK


# A template's stand-in for a test: Jinja2 reads it (lexes it, and parses it unless the error is
# a tag Jinja2 does not know, as Django's `{% load %}` or `{% url %}` are). Given inline: the
# verify command runs in the sandbox, which sees the repository only.
TEMPLATE_CHECK = (
    "import sys, jinja2\n"
    "env = jinja2.Environment()\n"
    "text = open(sys.argv[1], encoding='utf-8').read()\n"
    "list(env.lex(text))\n"
    "try:\n"
    "    env.parse(text)\n"
    "except jinja2.TemplateSyntaxError as error:\n"
    "    if 'unknown tag' not in str(error) and 'Encountered unknown' not in str(error):\n"
    "        raise\n"
)


def verify_command(file):
    """What stands for the app's tests: Python compiles, a template still reads as one."""
    if file.endswith(".py"):
        return "python3 -m py_compile " + shlex_quote(file)
    return "python3 -c " + shlex_quote(TEMPLATE_CHECK) + " " + shlex_quote(file)


def heal(sentinel, env, report, repo, fingerprint, file):
    verify = verify_command(file)
    # Each heal starts with empty memory, as a first heal of that finding would: a remembered fix
    # of a neighbouring finding (the other flag on the same set_cookie) must not take its attempt.
    env = dict(env, SENTINEL_HOME=tempfile.mkdtemp(prefix="home-", dir=os.path.dirname(report)))
    started = time.monotonic()
    result = subprocess.run(
        [sentinel, "heal", "--signal", report, "--finding", fingerprint, "--repo", repo, "--verify", verify,
         "--level", "observer", "--max-attempts", "1"],
        env=env, capture_output=True, text=True, timeout=900)
    return result.returncode == 0, time.monotonic() - started, result


def shlex_quote(text):
    import shlex

    return shlex.quote(text)


def run_app(app, args, fixes, env, scratch):
    repo = os.path.join(scratch, app)
    shutil.copytree(os.path.join(REALVULN, "apps", app), repo, symlinks=True)
    report = os.path.join(scratch, app + ".sarif")
    scan = subprocess.run([args.sentinel, "scan", repo, "--format", "sarif", "--output", report], env=env,
                          capture_output=True, text=True, timeout=1800)
    if not os.path.exists(report):
        sys.exit(f"heal-rulefix.py: {app}: the scan wrote no report: {scan.stderr.strip()}")
    results = sarif_results(report, repo)
    fix_cwes = {c for cwes in fixes.values() for c in cwes}
    rows = []
    for truth in truths(app):
        cwe = cwe_number(truth["primary_cwe"])
        if cwe not in fix_cwes:
            continue
        row = {"app": app, "id": truth["id"], "cwe": cwe, "class": truth["vulnerability_class"], "detected": False,
               "fixable": False, "healed": False, "rule": None}
        found = [r for r in results if matches(truth, r)]
        # A rule with a fix, or a finding that carries one (a flow takes the fix of the audit it
        # supersedes on its line).
        with_fix = [r for r in found if r[0] in fixes or r[5]]
        row["detected"] = bool(found)
        if with_fix:
            # The finding's own rule must carry a fix; the finding its fix (the receiver resolved, ...).
            chosen = next((r for r in with_fix if r[5]), with_fix[0])
            row["rule"] = chosen[0]
            row["fixable"] = chosen[5]
            if chosen[5] and chosen[4]:
                healed, seconds, outcome = heal(args.sentinel, env, report, repo, chosen[4], chosen[1])
                row["healed"] = healed
                row["seconds"] = round(seconds, 1)
                if not healed:
                    row["why"] = (outcome.stdout + outcome.stderr).strip().splitlines()[-1:] or [""]
        rows.append(row)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sentinel", default=os.path.join(ROOT, ".build", "debug", "sentinel"))
    parser.add_argument("--half", choices=("tune", "check", "both"), default="both")
    parser.add_argument("--apps", help="comma-separated app names (default: every app of the half)")
    parser.add_argument("--json", help="write every row here")
    args = parser.parse_args()
    if not os.path.isdir(REALVULN):
        sys.exit(f"heal-rulefix.py: {REALVULN}: no such corpus")
    fixes = fix_rules()
    semgrep = semgrep_autofix()
    apps = sorted(os.listdir(os.path.join(REALVULN, "ground-truth")))
    if args.apps:
        apps = [a for a in apps if a in args.apps.split(",")]
    halves = ("tune", "check") if args.half == "both" else (args.half,)
    all_rows = []
    with tempfile.TemporaryDirectory(prefix="heal-rulefix-") as scratch:
        env = dict(os.environ, SENTINEL_HOME=os.path.join(scratch, "home"), PYTHONDONTWRITEBYTECODE="1")
        env["SENTINEL_RULES"] = os.path.join(ROOT, "rules")
        for app in apps:
            if half(app) not in halves:
                continue
            rows = run_app(app, args, fixes, env, scratch)
            for row in rows:
                row["half"] = half(app)
            all_rows += rows
            print(f"{app} ({half(app)}): {sum(r['healed'] for r in rows)} of {len(rows)} healed", file=sys.stderr)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(all_rows, out, indent=1)
    fix_cwes = sorted({c for cwes in fixes.values() for c in cwes})
    print("| CWE | half | true findings | reported | by a rule with a fix | fix offered | healed + verified | share | Semgrep autofix rules |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for cwe in fix_cwes:
        for h in halves:
            rows = [r for r in all_rows if r["cwe"] == cwe and r["half"] == h]
            if not rows:
                continue
            healed = sum(r["healed"] for r in rows)
            print(f"| {cwe} | {h} | {len(rows)} | {sum(r['detected'] for r in rows)} | {sum(r['rule'] is not None for r in rows)} | "
                  f"{sum(r['fixable'] for r in rows)} | {healed} | {100 * healed / len(rows):.0f} % | {semgrep.get(cwe, 0)} |")
    for h in halves:
        rows = [r for r in all_rows if r["half"] == h]
        healed = sum(r["healed"] for r in rows)
        share = 100 * healed / len(rows) if rows else 0
        covered = sum(1 for r in rows if semgrep.get(r["cwe"], 0) > 0)
        print(f"| all | {h} | {len(rows)} | {sum(r['detected'] for r in rows)} | {sum(r['rule'] is not None for r in rows)} | "
              f"{sum(r['fixable'] for r in rows)} | {healed} | {share:.0f} % | {covered} of {len(rows)} in a class it covers |")


if __name__ == "__main__":
    main()
