#!/usr/bin/env bash
# `sentinel db import` of OSV zip exports, two binaries alternating run by run (same load for both),
# each run into a fresh $SENTINEL_HOME. Prints min and median wall seconds per zip and binary.
# The zips are built from the shared corpora (../shared/corpora/osv) unless ZIPS names others.
#
#   bench/zip-import-compare.sh A=path/to/sentinel B=path/to/other/sentinel   # RUNS=7 by default
set -euo pipefail
cd "$(dirname "$0")/.."
(( $# >= 2 )) || { echo "usage: $0 NAME=BINARY NAME=BINARY..." >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
corpora="$(cd .. && pwd)/shared/corpora/osv"
if [[ -z "${ZIPS:-}" ]]; then
    (cd "$corpora/pypa" && zip -qr "$work/pypa.zip" vulns)
    (cd "$corpora/rustsec" && zip -qr "$work/rustsec.zip" crates)
    (cd "$corpora/golang" && zip -qr "$work/golang.zip" data)
    ZIPS="$work/pypa.zip $work/rustsec.zip $work/golang.zip"
fi
runs="${RUNS:-7}"
for zip in $ZIPS; do
    for ((run = 0; run < runs; run++)); do
        for pair in "$@"; do
            name="${pair%%=*}" binary="${pair#*=}"
            rm -rf "$work/home"
            start=$(date +%s.%N)
            SENTINEL_HOME="$work/home" "$binary" db import "$zip" >/dev/null
            end=$(date +%s.%N)
            echo "$(basename "$zip") $name $(echo "$end - $start" | bc)" >>"$work/times"
        done
    done
done
python3 - "$work/times" <<'PY'
import statistics, sys
times = {}
for line in open(sys.argv[1]):
    zip_name, name, seconds = line.split()
    times.setdefault((zip_name, name), []).append(float(seconds))
print(f"{'zip':<12} {'binary':<14} {'min s':>7} {'median s':>9} {'runs':>5}")
for (zip_name, name), values in times.items():
    print(f"{zip_name:<12} {name:<14} {min(values):>7.2f} {statistics.median(values):>9.2f} {len(values):>5}")
PY
