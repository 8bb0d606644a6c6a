#!/usr/bin/env bash
# Recall of the native SAST rules on Bandit's example files, per Bandit test id and family group.
# Builds the debug CLI, scans ../shared/corpora/bandit/examples with
# `sentinel scan --sast --format json --tools native`, and compares (bench/sast-recall.py).
# While the CLI has no `scan` command, the findings come from the SAST engine's dump test
# (SENTINEL_SCAN_DIR=... swift test --filter EngineThroughputTests/dump) instead.
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
  SENTINEL=${SENTINEL:-.build/debug/sentinel}
  if "$SENTINEL" --help 2>&1 | grep -qE '^ +scan( |$)'; then
    set -- --sentinel "$SENTINEL" "$@"
  else
    echo "sast-recall: $SENTINEL has no 'scan' command yet; using the engine's dump test" >&2
    swift build --build-tests >/dev/null
    SENTINEL_SCAN_DIR="$(cd "$CORPUS/examples" && pwd)" \
      swift test --skip-build --filter 'EngineThroughputTests/dump' 2>/dev/null \
      | grep '^finding' >bench/out/native-bandit-examples.tsv || true
    set -- --findings bench/out/native-bandit-examples.tsv "$@"
  fi
fi
exec python3 bench/sast-recall.py --corpus "$CORPUS" "$@"
