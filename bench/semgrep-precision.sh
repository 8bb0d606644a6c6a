#!/usr/bin/env bash
# Precision and recall of the native rules on Semgrep's Python rule tests (annotated lines only),
# for the Semgrep rule ids listed in the rules' metadata.semgrep (bench/semgrep-mapping.md).
# Builds the debug CLI and scans ../shared/corpora/semgrep-rules/python with
# `sentinel scan --sast --format json --tools native`; while the CLI has no `scan` command the
# findings come from the SAST engine's dump test instead.
#
#   bench/semgrep-precision.sh                     # all native rules
#   bench/semgrep-precision.sh --mode search       # search-mode rules only (or --mode taint)
#   bench/semgrep-precision.sh --findings F.json --show-errors
set -euo pipefail
cd "$(dirname "$0")/.."

CORPUS=${SEMGREP_CORPUS:-../shared/corpora/semgrep-rules}
use_findings=0
for a in "$@"; do [ "$a" = "--findings" ] && use_findings=1; done
mkdir -p bench/out

if [ "$use_findings" = 0 ]; then
  swift build --product sentinel >/dev/null
  SENTINEL=${SENTINEL:-.build/debug/sentinel}
  if "$SENTINEL" --help 2>&1 | grep -qE '^ +scan( |$)'; then
    set -- --sentinel "$SENTINEL" "$@"
  else
    echo "semgrep-precision: $SENTINEL has no 'scan' command yet; using the engine's dump test" >&2
    swift build --build-tests >/dev/null
    SENTINEL_SCAN_DIR="$(cd "$CORPUS/python" && pwd)" \
      swift test --skip-build --filter 'EngineThroughputTests/dump' 2>/dev/null \
      | grep '^finding' >bench/out/native-semgrep-python.tsv || true
    set -- --findings bench/out/native-semgrep-python.tsv "$@"
  fi
fi
exec python3 bench/semgrep-precision.py --corpus "$CORPUS" "$@"
