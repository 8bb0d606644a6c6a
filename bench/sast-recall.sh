#!/usr/bin/env bash
# Recall of the native SAST rules on Bandit's example files, per Bandit test id and family group.
# Builds the debug CLI, scans ../shared/corpora/bandit/examples with
# `sentinel scan --sast --format json --tools native`, and compares (bench/sast-recall.py).
#
#   bench/sast-recall.sh                      # build, scan, print the tables
#   bench/sast-recall.sh --findings F.json    # compare findings produced otherwise (no build)
#   bench/sast-recall.sh --markdown bench/out/sast-recall.md --json-out bench/out/sast-recall.json
set -euo pipefail
cd "$(dirname "$0")/.."

use_findings=0
for a in "$@"; do [ "$a" = "--findings" ] && use_findings=1; done

if [ "$use_findings" = 0 ]; then
  swift build --product sentinel >/dev/null
  SENTINEL=${SENTINEL:-.build/debug/sentinel}
  if ! "$SENTINEL" --help 2>&1 | grep -qE '^ +scan( |$)'; then
    echo "sast-recall: $SENTINEL has no 'scan' command yet; pass --findings FILE" >&2
    exit 2
  fi
  set -- --sentinel "$SENTINEL" "$@"
fi
mkdir -p bench/out
exec python3 bench/sast-recall.py "$@"
