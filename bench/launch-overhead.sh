#!/usr/bin/env bash
# Launch overhead of the sandbox vs bubblewrap, measured in the same run, plus a leak check
# over 100 sequential and 20 concurrent runs. Needs root (user namespaces, cgroups).
#
#   bench/launch-overhead.sh            # builds release, prints the figures for BENCHMARKS.md
#   BASELINE=/path/to/older/sentinel bench/launch-overhead.sh   # the older build in the same run
set -euo pipefail
cd "$(dirname "$0")/.."

# The shipped binary links the Swift runtime statically (see Makefile `release`): a CLI that
# starts in a sandbox per scanner run should not pay for loading the runtime's shared objects.
SCRATCH=.build-release-static
swift build -c release --scratch-path "$SCRATCH" -Xswiftc -static-stdlib --product sentinel >/dev/null
swift build -c release --scratch-path "$SCRATCH" -Xswiftc -static-stdlib --product sentinel-bench >/dev/null
SENTINEL=$SCRATCH/release/sentinel
BENCH=$SCRATCH/release/sentinel-bench
BWRAP=(bwrap --ro-bind / / --unshare-all --die-with-parent --cap-drop ALL /bin/true)
RUNS=${RUNS:-200}
out=bench/out
mkdir -p "$out"

echo "== full CLI vs bwrap (hyperfine, paired) =="
baseline=()
if [[ -n "${BASELINE:-}" ]]; then
  baseline=(-n baseline "$BASELINE sandbox run --profile minimal -- /bin/true")
fi
hyperfine --warmup 10 --runs "$RUNS" -N --export-json "$out/launch-cli.json" \
  -n sentinel "$SENTINEL sandbox run --profile minimal -- /bin/true" \
  "${baseline[@]}" \
  -n bwrap "${BWRAP[*]}" >/dev/null
python3 - "$out/launch-cli.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
b = r["bwrap"]
for name in ("sentinel", "baseline", "bwrap"):
    if name in r:
        x = r[name]
        print(f"{name:9} median {x['median']*1e3:.2f} ms  min {x['min']*1e3:.2f}  max {x['max']*1e3:.2f}  "
              f"mean {x['mean']*1e3:.2f} ms  user+sys {(x['user']+x['system'])*1e3:.2f} ms")
print(f"ratio (median) cli/bwrap = {r['sentinel']['median']/b['median']:.2f}x")
if "baseline" in r:
    print(f"ratio (median) baseline/bwrap = {r['baseline']['median']/b['median']:.2f}x")
    print(f"ratio (median) cli/baseline = {r['sentinel']['median']/r['baseline']['median']:.2f}x")
PY

echo "== launcher in-process vs bwrap spawned by the same loop =="
for round in 1 2 3; do
  "$BENCH" launcher "$RUNS"
  "$BENCH" launcher-no-cgroup "$RUNS"
  "$BENCH" spawn "$RUNS" -- "${BWRAP[@]}"
done | tee "$out/launch-inprocess.txt"
python3 - "$out/launch-inprocess.txt" <<'PY'
import re, sys, statistics
rows = {}
for line in open(sys.argv[1]):
    m = re.match(r"(\S+) n=\d+ mean=([\d.]+) ms median=([\d.]+) ms", line)
    if m: rows.setdefault(m.group(1), []).append(float(m.group(3)))
med = {k: statistics.median(v) for k, v in rows.items()}
print(f"launcher (cgroup limits) / bwrap = {med['launcher']/med['spawn']:.2f}x")
print(f"launcher (no cgroups, like bwrap) / bwrap = {med['launcher-no-cgroup']/med['spawn']:.2f}x")
PY

echo "== leak check: 100 sequential + 20 concurrent runs =="
count_groups() { find /sys/fs/cgroup -maxdepth 2 -name 'sentinel-*' 2>/dev/null | wc -l; }
count_mounts() { wc -l < /proc/self/mountinfo; }
count_procs() { ps -e --no-headers | wc -l; }
g0=$(count_groups); m0=$(count_mounts); p0=$(count_procs)
for i in $(seq 100); do "$SENTINEL" sandbox run -- /bin/true; done
for i in $(seq 20); do "$SENTINEL" sandbox run -- /bin/sh -c 'sleep 0.2' & done; wait
sleep 0.5
g1=$(count_groups); m1=$(count_mounts); p1=$(count_procs)
echo "cgroups $g0 -> $g1, host mounts $m0 -> $m1, processes $p0 -> $p1"
if [[ $g1 -gt $g0 || $m1 -gt $m0 ]]; then echo "LEAK"; exit 1; fi
echo "no leaked cgroups or mounts"
