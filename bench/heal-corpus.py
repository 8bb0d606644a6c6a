#!/usr/bin/env python3
"""Runs `sentinel heal` on every fixture of Tests/Fixtures/heal and reports, per actor kind:
fixed / total, attempts and wall time per fix, the share of verification time spent on sandbox
set-up, and (with --jobs-compare) candidates validated per second with --jobs 1 and 2.

    bench/heal-corpus.py [--sentinel PATH] [--only PREFIX] [--jobs N] [--jobs-compare] [--json OUT]

Signals are made the way a user would: pytest output for logic fixtures, a `sentinel scan --format
sarif` report for SAST and dependency fixtures (the fake packages' OSV records imported into a
private SENTINEL_HOME). Dependency fixtures install from a PEP 503 index built by
packages/make_index.py and served on 127.0.0.1 by this script; the verification profile allows
that one address. Fixture trees are never written (pytest runs with PYTHONDONTWRITEBYTECODE and
without its cache; heal reads a snapshot).
"""
import argparse
import functools
import http.server
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Tests", "Fixtures", "heal")
PYTHON = "/usr/bin/python3"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(directory):
    handler = functools.partial(QuietHandler, directory=directory)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def fixtures(only):
    for name in sorted(os.listdir(CORPUS)):
        meta = os.path.join(CORPUS, name, ".fixture.json")
        if os.path.exists(meta) and name.startswith(only or ""):
            with open(meta) as handle:
                yield name, json.load(handle)


def signal_for(name, meta, sentinel, home, workdir):
    path = os.path.join(CORPUS, name)
    out = os.path.join(workdir, name + ".signal")
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", SENTINEL_HOME=home)
    if meta["kind"] == "logic":
        # A src layout's verify command sets PYTHONPATH itself (`PYTHONPATH=src python3 -m pytest -q`).
        assignment = re.match(r"PYTHONPATH=(\S+) ", meta["verify"])
        if assignment:
            env["PYTHONPATH"] = os.path.join(path, assignment.group(1))
        result = subprocess.run([PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=path,
                                capture_output=True, text=True, env=env)
        text = result.stdout
    else:
        # Every confidence: a case's finding must be in the signal even when its rule is an audit rule.
        # The fixtures' advisories are dated: accepted explicitly, as old data fails a scan (exit 3).
        result = subprocess.run([sentinel, "scan", path, "--format", "sarif", "--min-confidence", "low",
                                 "--allow-stale-db"],
                                capture_output=True, text=True, env=env)
        text = result.stdout
        if meta["kind"] == "deps" and "installedVersion" not in text:
            # A range pin (~=) has no installed version in the manifest: the signal is what
            # pip-audit reports for the installed environment.
            package = meta["package"]
            with open(os.path.join(CORPUS, "packages", "osv", package["advisory"] + ".json")) as handle:
                record = json.load(handle)
            fixed = [event["fixed"] for affected in record["affected"] for r in affected.get("ranges", [])
                     for event in r.get("events", []) if "fixed" in event]
            text = json.dumps({"dependencies": [{"name": package["name"], "version": package["installed"],
                                                 "vulns": [{"id": record["id"], "fix_versions": fixed,
                                                            "aliases": record.get("aliases", [])}]}]})
    with open(out, "w") as handle:
        handle.write(text)
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sentinel", default=os.path.join(ROOT, ".build", "debug", "sentinel"))
    parser.add_argument("--only", default="")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--jobs-compare", action="store_true")
    parser.add_argument("--json")
    args = parser.parse_args()

    workdir = tempfile.mkdtemp(prefix="heal-bench-")
    home = os.path.join(workdir, "home")
    os.makedirs(home)
    env = dict(os.environ, SENTINEL_HOME=home, PYTHONDONTWRITEBYTECODE="1")
    subprocess.run([args.sentinel, "db", "import", os.path.join(CORPUS, "packages", "osv")], env=env,
                   check=True, capture_output=True)
    index = os.path.join(workdir, "index")
    subprocess.run([PYTHON, os.path.join(CORPUS, "packages", "make_index.py"), index], check=True, capture_output=True)
    server = serve(index)
    port = server.server_address[1]
    with open(os.path.join(ROOT, "profiles", "fix-verify.yaml")) as handle:
        profile = handle.read().replace("name: fix-verify", "name: fix-verify-index").replace(
            "network: none", 'network:\n  mode: proxy\n  allow: ["127.0.0.1:%d"]' % port)
    profile_path = os.path.join(workdir, "fix-verify-index.yaml")
    with open(profile_path, "w") as handle:
        handle.write(profile)

    rows = []
    job_settings = [1, 2] if args.jobs_compare else [args.jobs]
    for name, meta in fixtures(args.only):
        signal = signal_for(name, meta, args.sentinel, home, workdir)
        verify = meta["verify"].replace("{index}", "http://127.0.0.1:%d/simple/" % port)
        for jobs in job_settings:
            out = os.path.join(workdir, "%s-j%d" % (name, jobs))
            command = [args.sentinel, "heal", "--signal", signal, "--repo", os.path.join(CORPUS, name), "--verify", verify,
                       "--out", out, "--jobs", str(jobs), "--max-attempts", "200", "--max-minutes", "10"]
            if meta["kind"] == "deps":
                command += ["--profile", profile_path]
            started = time.monotonic()
            # Each --jobs setting remembers on its own: a shared memory would let the second run
            # start from the first one's verified fixes.
            run_env = dict(env, SENTINEL_HOME=home)
            memory_home = os.path.join(workdir, "memory-j%d" % jobs)
            os.makedirs(memory_home, exist_ok=True)
            if os.path.exists(os.path.join(home, "osv.sqlite")) and not os.path.exists(os.path.join(memory_home, "osv.sqlite")):
                os.symlink(os.path.join(home, "osv.sqlite"), os.path.join(memory_home, "osv.sqlite"))
            run_env["SENTINEL_HOME"] = memory_home
            result = subprocess.run(command, capture_output=True, text=True, env=run_env)
            wall = time.monotonic() - started
            evidence = {}
            if os.path.exists(os.path.join(out, "evidence.json")):
                with open(os.path.join(out, "evidence.json")) as handle:
                    evidence = json.load(handle)
            candidate = evidence.get("candidate") or {}
            timing = evidence.get("timing", {})
            attempts = evidence.get("attempts", [])
            validated = sum(1 for a in attempts if a.get("verifications"))
            rows.append({
                "fixture": name, "kind": meta["kind"], "jobs": jobs, "exit": result.returncode,
                "fixed": result.returncode == 0, "actor": candidate.get("actor"), "attempts": len(attempts),
                "validated": validated, "wall": round(wall, 2),
                "verificationMs": timing.get("verificationMilliseconds", 0),
                "overheadMs": timing.get("sandboxOverheadMilliseconds", 0),
                "description": candidate.get("description") or evidence.get("stopReason") or result.stderr.strip()[-200:],
            })
            print("%-36s j%d exit %d %6.2fs %3d attempts  %s" % (
                name, jobs, result.returncode, wall, len(attempts), rows[-1]["description"]), flush=True)
    server.shutdown()

    print()
    for jobs in job_settings:
        subset = [r for r in rows if r["jobs"] == jobs]
        print("jobs=%d" % jobs)
        for kind in ("deps", "sast", "logic"):
            group = [r for r in subset if r["kind"] == kind]
            if not group:
                continue
            fixed = [r for r in group if r["fixed"]]
            per_fix_attempts = sum(r["attempts"] for r in fixed) / max(1, len(fixed))
            per_fix_wall = sum(r["wall"] for r in fixed) / max(1, len(fixed))
            print("  %-6s fixed %2d/%2d  attempts/fix %5.1f  wall/fix %6.2fs" % (
                kind, len(fixed), len(group), per_fix_attempts, per_fix_wall))
        verification = sum(r["verificationMs"] for r in subset)
        overhead = sum(r["overheadMs"] for r in subset)
        print("  sandbox overhead: %.1f%% of %.1f s verification time" % (100.0 * overhead / max(1, verification),
                                                                       verification / 1000))
        logic = [r for r in subset if r["kind"] == "logic"]
        validated = sum(r["validated"] for r in logic)
        wall = sum(r["wall"] for r in logic)
        print("  logic repair: %d candidates validated in %.1f s of heal wall time = %.2f per second" % (
            validated, wall, validated / max(wall, 1e-9)))
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(rows, handle, indent=2)


if __name__ == "__main__":
    sys.exit(main())
