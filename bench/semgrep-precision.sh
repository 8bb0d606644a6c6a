#!/usr/bin/env bash
# Precision and recall of the native rules on Semgrep's Python rule tests (annotated lines only),
# for the Semgrep rule ids listed in the rules' metadata.semgrep (bench/semgrep-mapping.md).
# Builds the debug CLI and scans ../shared/corpora/semgrep-rules/python with
# `sentinel scan --sast --format json --tools native --min-confidence low` (every finding).
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
  set -- --sentinel "${SENTINEL:-.build/debug/sentinel}" "$@"
fi
exec python3 bench/semgrep-precision.py --corpus "$CORPUS" "$@"
