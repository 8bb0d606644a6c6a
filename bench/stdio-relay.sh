#!/usr/bin/env bash
# Output relay cost (issue 8, item 5): the payload's stdout now reaches the caller through a
# pipe the launcher relays instead of the caller's own description. Streams SIZE bytes out of
# the sandbox into `wc -c`, paired with bubblewrap (which hands the payload the caller's fd,
# the old behaviour) in the same run, RUNS interleaved pairs; prints each pair and the median
# ratio of wall times (sentinel / bwrap).
#
#   bench/stdio-relay.sh                      # debug build (what CI builds), 1 GB, 5 pairs
#   SIZE=200000000 RUNS=9 bench/stdio-relay.sh
set -euo pipefail
cd "$(dirname "$0")/.."
size=${SIZE:-1000000000}
runs=${RUNS:-5}
sentinel=${SENTINEL:-.build/debug/sentinel}
[[ -x $sentinel ]] || swift build --product sentinel
now() { date +%s.%N; }
ratios=()
for ((i = 1; i <= runs; i++)); do
    start=$(now)
    got=$("$sentinel" sandbox run -- head -c "$size" /dev/zero | wc -c)
    mid=$(now)
    peer=$(bwrap --ro-bind / / --dev /dev --unshare-all --die-with-parent --cap-drop ALL \
        head -c "$size" /dev/zero | wc -c)
    end=$(now)
    [[ $got == "$size" && $peer == "$size" ]] || { echo "stdio-relay: short output ($got, $peer)" >&2; exit 1; }
    ours=$(echo "$mid - $start" | bc -l)
    theirs=$(echo "$end - $mid" | bc -l)
    ratio=$(echo "$ours / $theirs" | bc -l)
    ratios+=("$ratio")
    printf 'pair %d: sentinel %.2f s, bwrap %.2f s, ratio %.2f\n' "$i" "$ours" "$theirs" "$ratio"
done
median=$(printf '%s\n' "${ratios[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
printf 'stdio-relay: %d bytes, median ratio sentinel/bwrap %.2f over %d pairs\n' "$size" "$median" "$runs"
