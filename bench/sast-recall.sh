#!/usr/bin/env bash
# Recall of the native SAST rules on Bandit's example files, per Bandit test id and family group.
# Builds the debug CLI, scans ../shared/corpora/bandit/examples with
# `sentinel scan --sast --format json --tools native --min-confidence low` (every finding, the
# low-confidence ones the default report leaves out included), and compares (bench/sast-recall.py).
#
#   bench/sast-recall.sh                      # build, scan, print the tables
#   bench/sast-recall.sh --findings F.json    # compare findings produced otherwise (no build)
#   bench/sast-recall.sh --markdown bench/out/sast-recall.md --json-out bench/out/sast-recall.json
set -euo pipefail
cd "$(dirname "$0")/.."

CORPUS=${BANDIT_CORPUS:-../shared/corpora/bandit}
use_findings=0
for a in "$@"; do [ "$a" = "--findings" ] && use_findings=1; done
mkdir -p bench/out

if [ "$use_findings" = 0 ]; then
  swift build --product sentinel >/dev/null
  set -- --sentinel "${SENTINEL:-.build/debug/sentinel}" "$@"
fi
exec python3 bench/sast-recall.py --corpus "$CORPUS" "$@"
