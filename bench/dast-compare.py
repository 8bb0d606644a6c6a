#!/usr/bin/env python3
"""Sentinel's DAST engine vs Wapiti on the deliberately vulnerable app (Tests/Fixtures/dast).

    bench/dast-compare.py [SENTINEL_BINARY]

For each scanner a fresh copy of the app is started (so stored state and request counts are its
own), the scan runs through `sentinel scan --dast URL --active` (Wapiti via `--tools wapiti`, in the
same sandbox profile kind, egress to the target only), and the report is scored against the app's
manifest: a vulnerability counts when a finding names its path and parameter with its CWE; a false
positive is an injection finding on a safe twin. Requests are counted by the app itself (--verbose
logs one line per request). Prints a Markdown table (BENCHMARKS.md quotes it).
"""
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(ROOT, "Tests", "Fixtures", "dast")
SENTINEL = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug", "sentinel")
INJECTION_CWES = {79, 89, 78, 77, 22, 95, 94, 1336, 601, 918, 611, 113, 93, 643, 90, 502, 98}


def start_app(log):
    port_file = tempfile.mktemp(prefix="vulnapp-port-")
    proc = subprocess.Popen(["/usr/bin/python3", os.path.join(FIXTURE, "vulnapp.py"), "--port", "0",
                             "--port-file", port_file, "--verbose"], stdout=subprocess.DEVNULL, stderr=log)
    for _ in range(300):
        if os.path.exists(port_file):
            return proc, int(open(port_file).read().strip())
        time.sleep(0.1)
    raise SystemExit("vulnapp did not start")


def path_of(url):
    rest = url.split("://", 1)[-1]
    path = "/" + rest.split("/", 1)[1] if "/" in rest else "/"
    return path.split("?", 1)[0]


def score(report, manifest):
    findings = [f for f in report.get("findings", []) if f.get("location", {}).get("url")]
    def hit(path, parameter, cwe=None):
        return [f for f in findings if path_of(f["location"]["url"]) == path
                and (parameter is None or f["location"].get("parameter") == parameter)
                and (cwe is None or cwe in f.get("cwe", []))]
    found = [v for v in manifest["vulnerabilities"] if hit(v["path"], v.get("parameter"), v["cwe"])]
    twins = [v for v in manifest["vulnerabilities"] if v.get("twin")
             and [f for f in hit(v["twin"]["path"], v["twin"].get("parameter")) if set(f.get("cwe", [])) & INJECTION_CWES]]
    return found, twins


def run(tool_args, name):
    log = tempfile.TemporaryFile()
    proc, port = start_app(log)
    out = tempfile.mktemp(suffix=".json")
    url = "http://127.0.0.1:%d/" % port
    home = tempfile.mkdtemp()
    started = time.time()
    subprocess.run([SENTINEL, "scan", "--dast", url, "--active", "--format", "json", "--output", out,
                    "--fail-on", "none", "--min-confidence", "low", "--max-duration", "20m"] + tool_args,
                   env=dict(os.environ, SENTINEL_HOME=home), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = time.time() - started
    proc.terminate()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.seek(0)
    requests = sum(1 for line in log.read().decode(errors="replace").splitlines() if line.strip())
    report = json.load(open(out))
    return name, seconds, requests, report


def main():
    manifest = json.load(open(os.path.join(FIXTURE, "expected.json")))
    total = len(manifest["vulnerabilities"])
    rows = []
    sentinel = ["--tools", "dast", "--openapi", os.path.join(FIXTURE, "openapi.json")]
    runs = [(sentinel, "sentinel"), (["--tools", "wapiti"], "wapiti")]
    if os.environ.get("DAST_UNPACED"):
        runs.append((sentinel + ["--rate", "1000"], "sentinel --rate 1000"))
    for args, name in runs:
        name, seconds, requests, report = run(args, name)
        found, twins = score(report, manifest)
        status = [t.get("status") for t in report["summary"].get("tools", [])]
        rows.append((name, seconds, requests, len(found), twins, status, found))
    print("| scanner | wall s | requests | seeded found (of %d) | twins flagged | tool status |" % total)
    print("|---|---|---|---|---|---|")
    for name, seconds, requests, found, twins, status, _ in rows:
        print("| %s | %.1f | %d | %d | %d | %s |" % (name, seconds, requests, found, len(twins), ",".join(status)))
    s, w = rows[0], rows[1]
    print()
    print("ratios sentinel/wapiti: wall %.2f, requests %.2f" % (s[1] / max(w[1], 0.001), s[2] / max(w[2], 1)))
    only_wapiti = {v["id"] for v in w[6]} - {v["id"] for v in s[6]}
    print("found by wapiti and not by sentinel:", sorted(only_wapiti) or "none")
    print("found by sentinel and not by wapiti:", sorted({v["id"] for v in s[6]} - {v["id"] for v in w[6]}))


if __name__ == "__main__":
    main()
