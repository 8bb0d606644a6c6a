#!/usr/bin/env bash
# Launch time of two sentinel builds and bwrap, interleaved (A, B, bwrap, A, B, bwrap, ...) so
# that machine drift touches all three alike; hyperfine runs one command's runs after the other's.
# Wall and CPU (user+sys of the whole tree, from wait4) per run; prints min/median/max.
#
#   bench/launch-ab.sh OLD_BINARY NEW_BINARY [RUNS]     # needs root (user namespaces, cgroups)
set -euo pipefail
[[ $# -ge 2 ]] || { echo "usage: $0 OLD_BINARY NEW_BINARY [RUNS]" >&2; exit 2; }
PYTHONPATH="$(dirname "$0")/lib" python3 - "$1" "$2" "${3:-200}" <<'PY'
import statistics, sys
from interleaved_runs import run_interleaved
old, new, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
commands = {
    "old": [old, "sandbox", "run", "--profile", "minimal", "--", "/bin/true"],
    "new": [new, "sandbox", "run", "--profile", "minimal", "--", "/bin/true"],
    "bwrap": ["bwrap", "--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "--cap-drop", "ALL", "/bin/true"],
}
samples = run_interleaved(commands, runs)
med = {n: statistics.median(s[0]) for n, s in samples.items()}
for name, (wall, cpu) in samples.items():
    print(f"{name:6} wall min {min(wall):6.2f}  median {med[name]:6.2f}  max {max(wall):7.2f} ms   "
          f"cpu median {statistics.median(cpu):6.2f} ms")
print(f"new/old (median wall) = {med['new']/med['old']:.3f}x   new/bwrap = {med['new']/med['bwrap']:.2f}x   "
      f"old/bwrap = {med['old']/med['bwrap']:.2f}x")
PY
