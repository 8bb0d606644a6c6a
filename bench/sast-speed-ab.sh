#!/usr/bin/env bash
# Interleaved A/B timing of two sentinel binaries on the same tree: A, B, A, B... so that drift in
# the machine's speed (a shared 2-core VM) touches both alike; prints the median wall and user
# time of each and the ratio. Used for the step table of "SAST speed, stop 22" in BENCHMARKS.md.
#
#   bench/sast-speed-ab.sh OLD_BINARY NEW_BINARY            # Django 5.2.8 under $TREE, 8 pairs
#   RUNS=12 TREE=/path/with/django bench/sast-speed-ab.sh A B
#
# Both binaries read the rules of this checkout (SENTINEL_RULES), so only the engine differs.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -eq 2 ]] || { echo "usage: bench/sast-speed-ab.sh OLD_BINARY NEW_BINARY" >&2; exit 2; }
A=$1
B=$2
RUNS=${RUNS:-8}
# A private directory (mode 700, refused when it is a link or another user's), not a fixed /tmp name.
source bench/lib/private-dir.sh
WORK=$(private_dir "${SAST_BENCH_DIR:-${TMPDIR:-/tmp}/sentinel-bench-$(id -u)}" SAST_BENCH_DIR) || exit 2
TREE=${TREE:-$WORK/django-5.2.8}
if [[ ! -d "$TREE/django" ]]; then
    python3 -m pip install --quiet --no-deps --target "$TREE" "django==5.2.8"
fi
export SENTINEL_RULES=$PWD/rules
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for _ in $(seq "$RUNS"); do
    for side in A B; do
        bin=$A
        [[ $side == B ]] && bin=$B
        /usr/bin/time -f "$side %e %U" "$bin" scan "$TREE/django" --sast --tools native --format json \
            --output /dev/null --fail-on none 2>>"$out" >/dev/null || true
    done
done
python3 - "$out" <<'PY'
import statistics, sys
runs = {"A": [], "B": []}
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) == 3 and parts[0] in runs:
        runs[parts[0]].append((float(parts[1]), float(parts[2])))
for side in "AB":
    wall = [w for w, _ in runs[side]]
    user = [u for _, u in runs[side]]
    print(f"{side}: wall median {statistics.median(wall):.3f} s (min {min(wall):.3f}), user median {statistics.median(user):.3f} s")
a = statistics.median(w for w, _ in runs["A"])
b = statistics.median(w for w, _ in runs["B"])
print(f"B is {a / b:.2f}x faster than A (wall medians, {len(runs['A'])} interleaved pairs)")
PY
