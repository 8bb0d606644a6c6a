#!/usr/bin/env bash
# Lookup of a generated 1,000-dependency requirements set against the imported PyPI corpus:
# cold (new connection, first batch) and warm (the same batch again); target < 50 ms warm.
# CONFIG=release for the published figures; debug by default.
set -euo pipefail
cd "$(dirname "$0")/.."
CONFIG="${CONFIG:-debug}"
FLAGS=(-c "$CONFIG")
[ "$CONFIG" = release ] && FLAGS+=(-Xswiftc -enable-testing)
swift build --build-tests "${FLAGS[@]}" >/dev/null
SENTINEL_BENCH=1 swift test --skip-build "${FLAGS[@]}" --filter 'SCATests.DatabaseBenchTests/lookups' 2>&1 | grep '^BENCH'
