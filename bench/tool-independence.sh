#!/bin/sh
# Results must not depend on which external tools are installed: scans Bandit's own examples
# (../shared/corpora/bandit/examples) with the default tool set and with Bandit added, and
# compares the native findings (rule id, severity, fingerprint) of the two runs.
# Usage: bench/tool-independence.sh [SENTINEL] [DIR]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
sentinel=${1:-$here/.build/debug/sentinel}
dir=${2:-$here/../shared/corpora/bandit/examples}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Every confidence: Bandit's LOW-confidence findings must fold into native ones too.
SENTINEL_HOME=$work "$sentinel" scan "$dir" --format json --fail-on none --min-confidence low > "$work/native.json"
SENTINEL_HOME=$work "$sentinel" scan "$dir" --tools native,secrets,osv,bandit --format json --fail-on none \
    --min-confidence low > "$work/bandit.json"
python3 - "$work/native.json" "$work/bandit.json" <<'PY'
import collections, json, sys
native, bandit = (json.load(open(p)) for p in sys.argv[1:3])
key = lambda f: (f["ruleId"], f["severity"], f["fingerprint"])
same = sorted(key(f) for f in bandit["findings"] if f["tool"] != "bandit") == sorted(map(key, native["findings"]))
merged = sum("bandit" in f["properties"].get("alsoReportedBy", "") for f in bandit["findings"])
left = collections.Counter(f["ruleId"] for f in bandit["findings"] if f["tool"] == "bandit")
print(f"default tools: {len(native['findings'])} findings {native['summary']['bySeverity']}")
print(f"with bandit:   {len(bandit['findings'])} findings {bandit['summary']['bySeverity']}")
print(f"bandit findings folded into native ones: {merged}; bandit-only: {sum(left.values())} {dict(left)}")
print(f"native findings identical (id, severity, fingerprint): {same}")
sys.exit(0 if same else 1)
PY
