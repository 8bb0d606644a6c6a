#!/usr/bin/env bash
# Scan time of two sentinel builds over the same tree, interleaved (A, B, A, B, ...) so that
# machine drift touches both alike. Run as root, it measures what a scan pays for reading the
# repository as an unprivileged analysis in the sandbox (issue 53) when NEW does and OLD did not.
# Wall and CPU (user+sys of the whole tree, from wait4) per run; prints min/median/max and NEW/OLD.
#
#   bench/scan-ab.sh OLD_BINARY NEW_BINARY TREE [RUNS] [-- SCAN OPTIONS...]
set -euo pipefail
[[ $# -ge 3 ]] || { echo "usage: $0 OLD_BINARY NEW_BINARY TREE [RUNS] [-- SCAN OPTIONS...]" >&2; exit 2; }
old=$1 new=$2 tree=$3 runs=${4:-20}
shift $(( $# >= 4 ? 4 : 3 ))
[[ ${1:-} == "--" ]] && shift
# Each build's rule pack, as `make release` writes it (builds before the command have none).
for binary in "$old" "$new"; do "$binary" rules compile >/dev/null 2>&1 || true; done
PYTHONPATH="$(dirname "$0")/lib" python3 - "$old" "$new" "$tree" "$runs" "$@" <<'PY'
import statistics, sys
from interleaved_runs import run_interleaved
old, new, tree, runs, extra = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:]
scan = ["scan", tree, "--fail-on", "none", "--format", "json", "--output", "/dev/null"] + extra
samples = run_interleaved({"old": [old] + scan, "new": [new] + scan}, runs)
med = {n: statistics.median(s[0]) for n, s in samples.items()}
cpu = {n: statistics.median(s[1]) for n, s in samples.items()}
for name, (wall, _) in samples.items():
    print(f"{name:4} wall min {min(wall):8.1f}  median {med[name]:8.1f}  max {max(wall):8.1f} ms   cpu median {cpu[name]:8.1f} ms")
print(f"new/old median wall = {med['new']/med['old']:.3f}x   cpu = {cpu['new']/cpu['old']:.3f}x")
PY
