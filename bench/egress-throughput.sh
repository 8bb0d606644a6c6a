#!/usr/bin/env bash
# Egress proxy cost (issue 3): a 100 MB download and 1,000 small requests through the
# proxy vs direct to the same loopback test server, in the same run. Prints the two
# ratios (throughput proxy/direct, added latency per request) and exits non-zero when a
# target (>= 0.5x throughput, <= 2 ms added per request) is missed.
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
    echo "egress-bench: a target was missed (see bench/out/egress-throughput.log)" >&2
fi
exit "$status"
