#!/usr/bin/env bash
# Egress proxy cost (issue 3): a 100 MB download and 1,000 small requests through the
# proxy vs direct to the same loopback test server, in the same run. Prints the two
# ratios (throughput proxy/direct, added latency per request) and exits non-zero when a
# target (>= 0.5x throughput, <= 2 ms added per request) is missed (checked here, not in the test).
#
#   bench/egress-throughput.sh                # debug build (what CI builds)
#   CONFIG=release bench/egress-throughput.sh # optimised build, testable
#
# Everything stays on 127.0.0.1; the measurement is the gated EgressBenchTests suite.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
flags=()
if [[ "${CONFIG:-debug}" == release ]]; then
    flags=(-c release -Xswiftc -enable-testing)
fi
swift build --build-tests "${flags[@]}"
status=0
SENTINEL_BENCH=1 swift test --skip-build "${flags[@]}" --filter EgressBenchTests \
    >bench/out/egress-throughput.log 2>&1 || status=$?
grep 'egress-bench:' bench/out/egress-throughput.log || { tail -20 bench/out/egress-throughput.log; exit 1; }
if [[ $status -ne 0 ]]; then
    echo "egress-bench: the measurement failed (see bench/out/egress-throughput.log)" >&2
    exit "$status"
fi
# The targets are checked here, not in the test (a test never asserts speed).
ratio=$(grep -oE 'ratio [0-9.]+' bench/out/egress-throughput.log | head -1 | cut -d' ' -f2)
added=$(grep -oE 'added -?[0-9.]+ ms/req' bench/out/egress-throughput.log | head -1 | cut -d' ' -f2)
missed=0
awk -v r="$ratio" 'BEGIN { exit !(r >= 0.5) }' || { echo "egress-bench: throughput ratio $ratio < 0.5" >&2; missed=1; }
awk -v a="$added" 'BEGIN { exit !(a <= 2) }' || { echo "egress-bench: added latency $added ms > 2 ms" >&2; missed=1; }
exit "$missed"
