#!/usr/bin/env bash
# What the rw workspace commit-back costs (issue 8, item 6) against the direct writable bind of
# commit f321614, in the same run: wall time of `sentinel sandbox run --rw` and bytes on the host.
#   1. untar a ~54 MB tree (/usr/lib/python3.11, ~1,500 entries: the shape of a `pip install`) into
#      an empty workspace;
#   2. `touch` every file of that tree already in the workspace (the worst case: overlayfs copies
#      each file up whole, and the commit rewrites it).
# Needs root and hyperfine.
#
#   bench/workspace-commit.sh                       # builds both release binaries
#   PREVIOUS=/path/to/f321614/sentinel bench/workspace-commit.sh
set -euo pipefail
cd "$(dirname "$0")/.."

swift build -c release --product sentinel >/dev/null
NEW=$PWD/.build/release/sentinel
PREV=${PREVIOUS:-}
if [[ -z $PREV ]]; then
  old=$(mktemp -d)
  git archive f321614 | tar -x -C "$old"
  (cd "$old" && swift build -c release --product sentinel >/dev/null)
  PREV=$old/.build/release/sentinel
fi
RUNS=${RUNS:-10}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
chmod 755 "$scratch"
tar -cf "$scratch/tree.tar" -C /usr/lib python3.11
ws=$scratch/ws
out=bench/out
mkdir -p "$out"
echo "tree: $(du -sh --apparent-size "$scratch/tree.tar" | cut -f1), $(tar -tf "$scratch/tree.tar" | wc -l) entries"

untar="sandbox run --rw --workspace $ws --bind-ro $scratch/tree.tar -- tar -xf $scratch/tree.tar -C /workspace"
touch_all="sandbox run --rw --workspace $ws -- find /workspace -type f -exec touch {} +"
fresh="rm -rf $ws && mkdir $ws && chmod 755 $ws"
filled="$fresh && tar -xf $scratch/tree.tar -C $ws"

hyperfine --runs "$RUNS" --warmup 1 --export-json "$out/workspace-untar.json" --prepare "$fresh" \
  -n previous "$PREV $untar" -n commit "$NEW $untar" >/dev/null
hyperfine --runs "$RUNS" --warmup 1 --export-json "$out/workspace-touch.json" --prepare "$filled" \
  -n previous "$PREV $touch_all" -n commit "$NEW $touch_all" >/dev/null

bytes() { # host bytes allocated and files in the workspace after one untar by $1
  eval "$fresh"
  $1 $untar
  echo "$(du -sB1 "$ws" | cut -f1) $(find "$ws" | wc -l)"
}
read -r prev_bytes prev_files <<<"$(bytes "$PREV")"
read -r new_bytes new_files <<<"$(bytes "$NEW")"
echo "host bytes after untar: previous $prev_bytes ($prev_files entries), commit $new_bytes ($new_files entries)"

python3 - "$out/workspace-untar.json" "$out/workspace-touch.json" "$prev_bytes" "$new_bytes" <<'PY'
import json, sys
for path, what in ((sys.argv[1], "untar 54 MB tree"), (sys.argv[2], "touch every file of it")):
    r = {x["command"]: x for x in json.load(open(path))["results"]}
    p, c = r["previous"], r["commit"]
    print(f"{what}: previous median {p['median']*1e3:.0f} ms, commit median {c['median']*1e3:.0f} ms, "
          f"ratio {c['median']/p['median']:.2f}x")
print(f"host bytes ratio {int(sys.argv[4])/int(sys.argv[3]):.3f}x")
PY
