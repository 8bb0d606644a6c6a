#!/usr/bin/env bash
# TPR / FPR / Youden per CWE class on the labelled corpus bench/sast-corpus (native engine, Bandit
# and Semgrep OSS in one run; the decision rule is documented in bench/sast-corpus.py).
#
#   bench/sast-corpus.sh                         # builds the debug CLI, then scans with all three
#   SENTINEL=/path/to/sentinel bench/sast-corpus.sh   # use this binary, no build
#   bench/sast-corpus.sh --tools native          # only some tools
# Writes bench/out/sast-corpus.md and bench/out/sast-corpus.json. Needs make tools (bandit, semgrep)
# and ../shared/corpora/semgrep-rules (read in place).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${SENTINEL:-}" ]; then
  swift build --product sentinel >/dev/null
  SENTINEL=.build/debug/sentinel
fi
exec python3 bench/sast-corpus.py --sentinel "$SENTINEL" "$@"
