#!/usr/bin/env bash
# Runs the test targets one `swift test` each (Tests/*Tests, already built) and prints the wall
# time of each: where a test run's time goes. One process per target measures it truly; within
# one process Swift Testing starts every test's task at once, so a test's own start-to-end spans
# mostly its wait for a thread, and no per-test or per-suite figure means anything.
#
#   scripts/run-tests.sh                       # every target (make test)
#   SKIP='CLITests|EscapeTests' scripts/run-tests.sh   # all but these (make test-unit)
#
# Exit status 1 when a target's run failed; every target runs either way.
set -uo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
rows=()
status=0
for dir in Tests/*Tests; do
    target=$(basename "$dir")
    if [[ -n "${SKIP:-}" && "$target" =~ ^(${SKIP})$ ]]; then continue; fi
    start=$(date +%s%N)
    "$SWIFT" test --skip-build --filter "^$target\." || { status=1; failed=" (failed)"; }
    rows+=("$(( ($(date +%s%N) - start) / 1000000 )) $target${failed:-}")
    unset failed
done
echo "== wall time per test target, run one after another =="
printf '%s\n' "${rows[@]}" | sort -rn | awk '{ ms = $1; $1 = ""; printf "%8.1f s %s\n", ms / 1000, $0; total += ms }
    END { printf "%8.1f s  in all\n", total / 1000 }'
exit "$status"
