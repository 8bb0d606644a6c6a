#!/usr/bin/env python3
"""Converts `sentinel scan --format json` output into a GitLab SAST report (security report schema
15.0.x), for `artifacts: reports: sast:` in GitLab CI. Standard library only.

usage: gitlab-sast-report.py SENTINEL.json > gl-sast-report.json
Scan the repository root (`sentinel scan .`) so that file paths are relative to it, as GitLab expects.
"""
import datetime
import json
import sys
import uuid

SEVERITY = {"info": "Info", "low": "Low", "medium": "Medium", "high": "High", "critical": "Critical"}


def vulnerability(finding):
    location = finding.get("location") or {}
    rule = finding.get("ruleId") or "unknown"
    identifiers = [{"type": "sentinel_rule_id", "name": f"Sentinel {rule}", "value": rule}]
    for cwe in finding.get("cwe") or []:
        identifiers.append({"type": "cwe", "name": f"CWE-{cwe}", "value": str(cwe),
                            "url": f"https://cwe.mitre.org/data/definitions/{cwe}.html"})
    gl_location = {"file": location.get("file") or location.get("url") or "."}
    if location.get("startLine"):
        gl_location["start_line"] = location["startLine"]
        gl_location["end_line"] = location.get("endLine") or location["startLine"]
    # The fingerprint is stable across line moves: GitLab tracks the finding by this id.
    key = finding.get("fingerprint") or f"{rule}:{gl_location['file']}:{gl_location.get('start_line', 0)}"
    message = finding.get("message") or rule
    return {
        "id": str(uuid.uuid5(uuid.NAMESPACE_URL, "sentinel:" + key)),
        "name": message[:255],
        "description": message,
        "severity": SEVERITY.get(finding.get("severity"), "Unknown"),
        "identifiers": identifiers,
        "location": gl_location,
        **({"links": [{"url": url} for url in finding["references"]]} if finding.get("references") else {}),
    }


def main():
    if len(sys.argv) != 2:
        print("usage: gitlab-sast-report.py SENTINEL.json > gl-sast-report.json", file=sys.stderr)
        sys.exit(2)
    try:
        with open(sys.argv[1], encoding="utf-8") as handle:
            report = json.load(handle)
        findings = report["findings"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"{sys.argv[1]}: not a sentinel JSON report ({error})", file=sys.stderr)
        sys.exit(2)
    now = datetime.datetime.now(datetime.timezone.utc)
    started = now - datetime.timedelta(seconds=float(report.get("summary", {}).get("durationSeconds") or 0))
    stamp = "%Y-%m-%dT%H:%M:%S"
    tool = {"id": "sentinel", "name": "Sentinel", "version": "0.1.0", "vendor": {"name": "Sentinel"}}
    json.dump({
        "version": "15.0.6",
        "scan": {
            "analyzer": tool,
            "scanner": tool,
            "type": "sast",
            "start_time": started.strftime(stamp),
            "end_time": now.strftime(stamp),
            "status": "success",
        },
        "vulnerabilities": [vulnerability(f) for f in findings],
    }, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
