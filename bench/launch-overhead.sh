#!/usr/bin/env bash
# Launch overhead of `sentinel sandbox run` vs bubblewrap, measured in the same run, with a
# per-phase breakdown, callgrind instruction counts, the in-process launcher, and a leak check
# over 100 sequential and 20 concurrent runs. Needs root (user namespaces, cgroups).
#
#   bench/launch-overhead.sh            # builds release, prints the figures for BENCHMARKS.md
#   BASELINE=/path/to/older/sentinel bench/launch-overhead.sh   # an older build, in the same run
#     (interleaved with this build apart from bwrap's rows, and in the spaced, trace and
#     callgrind rows)
#   RUNS=200 (default) runs per command; TRACE_RUNS=100 runs per phase breakdown;
#   SPACED_RUNS=40 launches 300 ms apart per command
#   COMPARE_ONLY=1: only the comparison with bwrap and its check against hyperfine -N
#
# The default profile (`minimal`) with its limits on: cgroup memory, pids and CPU, rlimits,
# seccomp, no network. bwrap sets no limits and binds the host's / read-only.
set -euo pipefail
cd "$(dirname "$0")/.."

# The shipped binaries, built as `make release` builds them (PREBUILT=DIR: the scratch directory
# of binaries already built so, e.g. a clean clone's .build-release-static after its CI run).
source bench/lib/release-build.sh
if [[ -n "${PREBUILT:-}" ]]; then
  SCRATCH=$PREBUILT
else
  release_build sentinel-cli sentinel sentinel-bench
  SCRATCH=$RELEASE_SCRATCH
fi
SENTINEL=$SCRATCH/release/sentinel
BENCH=$SCRATCH/release/sentinel-bench
BWRAP=(bwrap --ro-bind / / --unshare-all --die-with-parent --cap-drop ALL /bin/true)
RUNS=${RUNS:-200}
TRACE_RUNS=${TRACE_RUNS:-100}
SPACED_RUNS=${SPACED_RUNS:-40}
out=bench/out
mkdir -p "$out"
export SENTINEL_RULES=$PWD/rules SENTINEL_PROFILES=$PWD/profiles

echo "== CLI launch vs bwrap: $RUNS runs each, interleaved; wall and CPU (user+sys of the whole tree) per run =="
# Interleaved (A, bwrap, A, bwrap, ...) so that machine drift touches every command alike. The
# baseline is measured apart (below): a launcher of 25 ms leaves namespaces and RCU callbacks for
# the kernel to finish while the next command runs, which would be charged to its neighbours.
PYTHONPATH=bench/lib python3 - "$RUNS" "$SENTINEL" "${BWRAP[@]}" <<'PY' | tee "$out/launch-cli.txt"
import statistics, sys
from interleaved_runs import medians, run_interleaved, sandbox_commands
runs, new, bwrap = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
commands = sandbox_commands(new, None, bwrap)
commands["sentinel --version"] = [new, "--version"]
commands["/bin/true"] = ["/bin/true"]
samples = run_interleaved(commands, runs)
def row(values):
    return f"min {min(values):6.2f}  median {statistics.median(values):6.2f}  max {max(values):7.2f}"
median = medians(samples)
for name, (wall, cpu) in samples.items():
    print(f"{name:22} wall ms: {row(wall)}   CPU ms: {row(cpu)}")
n, b = median["sentinel sandbox run"], median["bwrap"]
print(f"sentinel sandbox run / bwrap (medians): wall {n[0] / b[0]:.2f}x, CPU {n[1] / b[1]:.2f}x")
PY

echo "== the same two under an independent harness: hyperfine -N, $RUNS runs each =="
# The interleaved harness is published only when hyperfine (its own spawn, its own clock) finds the
# same ratio: within 15 % of each other, or this script fails.
hyperfine -N --warmup 10 --runs "$RUNS" --style none --export-json "$out/launch-hyperfine.json" \
  -n "sentinel sandbox run" "$SENTINEL sandbox run --profile minimal -- /bin/true" \
  -n bwrap "${BWRAP[*]}" >/dev/null
python3 - "$out/launch-hyperfine.json" "$out/launch-cli.txt" <<'PY' | tee "$out/launch-crosscheck.txt"
import json, re, statistics, sys
results = {r["command"]: statistics.median(r["times"]) * 1e3 for r in json.load(open(sys.argv[1]))["results"]}
for name, median in results.items():
    print(f"{name:22} hyperfine -N wall median ms: {median:6.2f}")
hyperfine_ratio = results["sentinel sandbox run"] / results["bwrap"]
text = open(sys.argv[2]).read()
interleaved_ratio = float(re.search(r"bwrap \(medians\): wall ([0-9.]+)x", text).group(1))
print(f"sentinel sandbox run / bwrap: hyperfine -N {hyperfine_ratio:.2f}x, interleaved {interleaved_ratio:.2f}x")
if abs(hyperfine_ratio - interleaved_ratio) / hyperfine_ratio > 0.15:
    sys.exit("the two harnesses disagree by more than 15 %: fix the harness before publishing")
PY
[[ "${COMPARE_ONLY:-0}" == 1 ]] && exit 0

if [[ -n "${BASELINE:-}" ]]; then
  echo "== CLI launch vs the baseline: $RUNS runs each, interleaved =="
  PYTHONPATH=bench/lib python3 - "$RUNS" "$SENTINEL" "$BASELINE" <<'PY' | tee "$out/launch-baseline.txt"
import sys
from interleaved_runs import print_wall_rows, run_interleaved, sandbox_commands
runs, new, old = int(sys.argv[1]), sys.argv[2], sys.argv[3]
commands = sandbox_commands(new, old)
commands["sentinel --version"] = [new, "--version"]
commands["baseline --version"] = [old, "--version"]
samples = run_interleaved(commands, runs)
median = print_wall_rows(samples)
n, o = median["sentinel sandbox run"], median["baseline sandbox run"]
print(f"sentinel / baseline (medians): wall {n[0] / o[0]:.2f}x, CPU {n[1] / o[1]:.2f}x")
PY
fi

echo "== launched once in a while: 300 ms apart, $SPACED_RUNS runs each, interleaved =="
# Back to back, a launch finds the kernel's cgroup migration lock still in its fast state from the
# previous one; a launch on its own (a user, heal between test runs, a fleet job) waits for an RCU
# grace period unless a cgroup hierarchy is mounted with favordynmods (`sentinel doctor` says).
grep -q 'cgroup.*favordynmods' /proc/self/mounts && echo "favordynmods: on" || echo "favordynmods: off"
PYTHONPATH=bench/lib python3 - "$SPACED_RUNS" "$SENTINEL" "${BASELINE:-}" "${BWRAP[@]}" <<'PY' | tee "$out/launch-spaced.txt"
import sys
from interleaved_runs import print_wall_rows, run_interleaved, sandbox_commands
runs, new, old, bwrap = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
commands = sandbox_commands(new, old, bwrap)
samples = run_interleaved(commands, runs, warmup=2, pause=0.3)
median = print_wall_rows(samples)
for name in commands:
    if name != "bwrap":
        print(f"{name} / bwrap (medians): wall {median[name][0] / median['bwrap'][0]:.2f}x, "
              f"CPU {median[name][1] / median['bwrap'][1]:.2f}x")
PY

echo "== start-up alone: hyperfine -N (spawns without a shell), $RUNS runs =="
start_commands=(-n "sentinel --version" "$SENTINEL --version" -n "/bin/true" "/bin/true")
if [[ -n "${BASELINE:-}" ]]; then start_commands+=(-n "baseline --version" "$BASELINE --version"); fi
hyperfine -N --warmup 20 --runs "$RUNS" --export-json "$out/launch-version.json" "${start_commands[@]}" >/dev/null
python3 - "$out/launch-version.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f"{r['command']:20} median {r['median']*1e3:5.2f} ms  min {r['min']*1e3:5.2f}  max {r['max']*1e3:6.2f}  "
          f"user+sys {(r['user']+r['system'])*1e3:5.2f} ms")
PY

echo "== where one launch spends its time: SENTINEL_LAUNCH_TRACE=1, median of $TRACE_RUNS launches =="
trace() {
  for _ in $(seq "$TRACE_RUNS"); do
    SENTINEL_LAUNCH_TRACE=1 "$1" sandbox run --profile minimal -- /bin/true 2>&1 >/dev/null | grep launch-trace
  done
}
trace "$SENTINEL" >"$out/launch-trace-new.txt"
if [[ -n "${BASELINE:-}" ]]; then trace "$BASELINE" >"$out/launch-trace-baseline.txt"; fi
python3 - "$out/launch-trace-new.txt" ${BASELINE:+"$out/launch-trace-baseline.txt"} <<'PY'
import collections, re, statistics, sys
def phases(path):
    wall, cpu, order = collections.defaultdict(list), collections.defaultdict(list), []
    for line in open(path):
        m = re.match(r"sentinel: launch-trace: (\S+) wall=([\d.]+) cpu=([\d.]+)", line)
        if not m: continue
        if m[1] not in order: order.append(m[1])
        wall[m[1]].append(float(m[2])); cpu[m[1]].append(float(m[3]))
    return order, {k: (statistics.median(wall[k]), statistics.median(cpu[k])) for k in order}
new_order, new = phases(sys.argv[1])
old_order, old = phases(sys.argv[2]) if len(sys.argv) > 2 else ([], {})
order = new_order + [k for k in old_order if k not in new_order]
header = f"{'phase':15} {'after wall':>10} {'cpu':>7}"
if old: header = f"{'phase':15} {'before wall':>11} {'cpu':>7}   {'after wall':>10} {'cpu':>7}"
print(header + "   (ms; `start` is the process's CPU before main; the launcher's own CPU, children apart)")
for k in order:
    cells = ""
    if old:
        cells += f"{old[k][0]:11.3f} {old[k][1]:7.3f}   " if k in old else f"{'-':>11} {'-':>7}   "
    cells += f"{new[k][0]:10.3f} {new[k][1]:7.3f}" if k in new else f"{'-':>10} {'-':>7}"
    print(f"{k:15} {cells}")
PY

echo "== callgrind: instructions executed by the launcher process (children not traced) =="
# valgrind 3.19 cannot read Swift's DWARF 5; a copy without debug info is what it runs. Under
# valgrind the sandbox's init (a fork of the launcher, so valgrind's too) cannot set the payload's
# rlimits (valgrind refuses RLIMIT_CORE/SIGPENDING/MSGQUEUE changes), so a `sandbox run` ends
# there with exit 125: its count is start-up, options, profile, host id, plan, seccomp, clone and
# the failure's clean-up, the same truncation for both builds.
callgrind() {
  local binary="$1" name="$2"; shift 2
  local copy work count
  work=$(mktemp -d)
  copy="$work/sentinel"
  objcopy --strip-debug "$binary" "$copy"
  # The lean launcher takes a YAML profile's document from the run cache that the sentinel-cli
  # beside it filled (the runs above did), so the copy gets the same sentinel-cli beside it.
  ln -s "$(cd "$(dirname "$binary")" && pwd)/sentinel-cli" "$work/sentinel-cli"
  count=$( (valgrind --tool=callgrind --callgrind-out-file="$work/out.%p" "$copy" "$@" 2>&1 >/dev/null || true) |
    awk '/== Command:/ && !parent { parent = $1 } $1 == parent && /Collected :/ { print $4 }')
  rm -rf "$work"
  printf '%-7s %-46s %12s instructions\n' "$name" "$*" "$count"
}
for args in "--version" "sandbox run --profile minimal -- /bin/true"; do
  # shellcheck disable=SC2086
  if [[ -n "${BASELINE:-}" ]]; then callgrind "$BASELINE" before $args; fi
  # shellcheck disable=SC2086
  callgrind "$SENTINEL" after $args
done

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
