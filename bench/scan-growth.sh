#!/usr/bin/env bash
# Growth of a scan with its input (issue 26: every scanner linear in what a repository holds),
# next to Bandit on the same generated input in the same run. For each shape the input is made at
# N and 4N; a linear scanner takes about 4x the CPU time at 4N, a quadratic one about 16x.
#   many-findings  a module of N `os.system("ls")` statements (one native finding each; Bandit B605)
#   secrets-line   one line holding N Slack-shaped tokens (secrets scan; Bandit has no peer: "-")
#
#   bench/scan-growth.sh [N]              # default N=5000; BIN=path picks the sentinel binary
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-5000}"
bin="${BIN:-.build/debug/sentinel}"
bandit="${BANDIT:-/opt/sentinel-tools/venv/bin/bandit}"
[[ -x "$bin" ]] || { echo "scan-growth: no sentinel binary at $bin (swift build first, or BIN=)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

make_input() {  # shape count dir
    mkdir -p "$3"
    python3 - "$1" "$2" "$3" <<'PY'
import sys
shape, count, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if shape == "many-findings":
    open(f"{out}/gen.py", "w").write("import os\n" + 'os.system("ls")\n' * count)
else:
    token = "xoxb-" + "2837465019-9182736450-" + "QwErTyUiOpAsDfGhJkLzXcVb"
    open(f"{out}/tokens.txt", "w").write(" ".join(f'k{i} = "{token}"' for i in range(count)) + "\n")
PY
}

cpu() {  # user+sys seconds of a command
    /usr/bin/time -f "%U %S" -o "$work/time" "$@" >/dev/null 2>&1 || true
    tail -1 "$work/time" | awk '{printf "%.2f", $1 + $2}'
}

printf "%-14s %8s %12s %12s %8s %12s %12s %8s\n" shape N "sentinel s" "at 4N s" growth "bandit s" "at 4N s" growth
for shape in many-findings secrets-line; do
    make_input "$shape" "$n" "$work/$shape-1"
    make_input "$shape" "$((4 * n))" "$work/$shape-4"
    tools=native
    [[ "$shape" == secrets-line ]] && tools=secrets
    ours1=$(cpu "$bin" scan "$work/$shape-1" --tools "$tools" --format json --fail-on none)
    ours4=$(cpu "$bin" scan "$work/$shape-4" --tools "$tools" --format json --fail-on none)
    if [[ "$shape" == many-findings && -x "$bandit" ]]; then
        peer1=$(cpu "$bandit" -q -f json -r "$work/$shape-1")
        peer4=$(cpu "$bandit" -q -f json -r "$work/$shape-4")
        peer_growth=$(awk -v a="$peer1" -v b="$peer4" 'BEGIN { printf "%.1fx", b / (a > 0 ? a : 0.01) }')
    else
        peer1=- peer4=- peer_growth=-
    fi
    growth=$(awk -v a="$ours1" -v b="$ours4" 'BEGIN { printf "%.1fx", b / (a > 0 ? a : 0.01) }')
    printf "%-14s %8s %12s %12s %8s %12s %12s %8s\n" "$shape" "$n" "$ours1" "$ours4" "$growth" "$peer1" "$peer4" "$peer_growth"
done
echo "(CPU seconds, user + system, one run each; $bin)"
