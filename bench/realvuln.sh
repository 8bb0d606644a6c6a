#!/usr/bin/env bash
# SAST on real vulnerable apps (issue 29): ../shared/corpora/realvuln-dev/score.sh — 13 apps with
# hand-labelled vulnerabilities, the benchmark's own matcher (file + CWE + line within 10) — for this
# tree's release binary at default settings and at --min-confidence low, each run printing the
# published Semgrep / Snyk / SonarQube results of the same apps beside it. BASE_BIN=PATH (with
# BASE_RULES=DIR, default: that binary's own) scores another binary in the same run, before this one.
#
#   bench/realvuln.sh                                   # builds the release binary if needed
#   BASE_BIN=/path/to/old/sentinel BASE_RULES=/old/rules bench/realvuln.sh
#   SENTINEL=/path/to/sentinel bench/realvuln.sh        # score that binary with this tree's rules
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=${CORPUS:-../shared/corpora/realvuln-dev}
[ -x "$CORPUS/score.sh" ] || { echo "realvuln.sh: no $CORPUS/score.sh" >&2; exit 2; }
if [ -z "${SENTINEL:-}" ]; then
  source bench/lib/release-build.sh
  release_build sentinel-cli sentinel
  SENTINEL=$PWD/$RELEASE_SCRATCH/release/sentinel
fi
# An empty state directory: no user configuration or OSV data changes what the native engine reports.
HOME_DIR=$(mktemp -d)
trap 'rm -rf "$HOME_DIR"' EXIT
score() { # LABEL BINARY RULES [flags...]
  local label=$1 binary=$2 rules=$3; shift 3
  echo "== $label${*:+ ($*)}"
  SENTINEL_HOME=$HOME_DIR SENTINEL_RULES=$rules "$CORPUS/score.sh" "$binary" "$@" 2>/dev/null \
    | sed -n '/^| tool/,/^$/p; /^| family/,/^$/p'
}
if [ -n "${BASE_BIN:-}" ]; then
  score "base $BASE_BIN" "$BASE_BIN" "${BASE_RULES:-$(dirname "$BASE_BIN")/../share/sentinel/rules}"
  score "base $BASE_BIN" "$BASE_BIN" "${BASE_RULES:-$(dirname "$BASE_BIN")/../share/sentinel/rules}" --min-confidence low
fi
score "this tree" "$SENTINEL" "$PWD/rules"
score "this tree" "$SENTINEL" "$PWD/rules" --min-confidence low
