#!/usr/bin/env bash
# Import time, re-import time and database size for each shared OSV corpus (pypa, rustsec, golang).
# CONFIG=release for the published figures (needs -enable-testing, passed below); debug by default.
set -euo pipefail
cd "$(dirname "$0")/.."
CONFIG="${CONFIG:-debug}"
FLAGS=(-c "$CONFIG")
[ "$CONFIG" = release ] && FLAGS+=(-Xswiftc -enable-testing)
swift build --build-tests "${FLAGS[@]}" >/dev/null
SENTINEL_BENCH=1 swift test --skip-build "${FLAGS[@]}" --filter 'SCATests.DatabaseBenchTests/importTimes' 2>&1 | grep '^BENCH'
