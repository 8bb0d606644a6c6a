#!/usr/bin/env bash
# Noise of the default scan (issue 8): findings per real project with the binary of commit
# 66d8159 (before the default ignores; its default tools: native, secrets, Bandit, OSV) and with
# this tree's binary (default tools: native, secrets, OSV), each with its own rules and profiles,
# the same (empty) SENTINEL_HOME, so no OSV database on either side. Both sides are scanned in
# the same run. Prints one table row per project and the total change. The high/critical
# findings the new scan no longer reports go to $WORK/out/NAME.lost.txt, the ones only the new
# scan reports to $WORK/out/NAME.added.txt (bench/noise-compare.py says what counts as the same
# issue; bench/noise-checked.md lists the verdicts). A third scan, the new binary with
# --no-default-excludes, sorts the lost ones: NAME.lost-check.txt holds those it does not report
# either (a check lost, not a path left out). A tool that fails on any side stops the run: a
# failed Bandit would silently shrink the old side. The new binary's scans pass
# --min-confidence ${MIN_CONFIDENCE:-low}: the old binary had no confidence filter, so `low`
# keeps the two sides comparable; MIN_CONFIDENCE=medium measures the new default report.
#
#   bench/noise.sh                      # fetches sources (PyPI), builds both binaries if absent
#   OLD_BIN=... NEW_BIN=... bench/noise.sh
#   NOISE_DIR=/some/dir bench/noise.sh  # default: ~/.cache/sentinel-bench/noise (never the repo)
#   RESCAN=0 bench/noise.sh             # reuse the scans already in $WORK/out
#   MIN_CONFIDENCE=medium bench/noise.sh  # the new side as its default report (not comparable)
#   OLD_COMMIT=e562253 OLD_MIN_CONFIDENCE=medium MIN_CONFIDENCE=medium bench/noise.sh
#                                       # two default reports: a later commit as the old side
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
WORK=${NOISE_DIR:-$HOME/.cache/sentinel-bench/noise}
OLD_COMMIT=${OLD_COMMIT:-66d8159}
# The old side's build, rules and profiles, per commit (66d8159's keep their first place).
OLD=$WORK/old
[[ $OLD_COMMIT == 66d8159 ]] || OLD=$WORK/old-$OLD_COMMIT
mkdir -p "$WORK/out" "$OLD"
# An empty SENTINEL_HOME for both sides (no OSV database, no user config).
rm -rf "$WORK/home" && mkdir -p "$WORK/home"

# 1. Sources: sdists from PyPI, unpacked once (bench/lib/noise-sources.sh, shared with
# bench/findings-identical.sh).
source bench/lib/noise-sources.sh
noise_sources "$WORK"

# 2. Binaries, debug builds both. The old one is built from a `git archive` of the commit,
# outside the repo, and kept as $OLD/sentinel-$OLD_COMMIT-debug. Each side gets its own
# commit's rules and profiles explicitly: a copied binary does not find its source tree, and
# without the `scan-bandit` profile the old default's Bandit fails.
if [[ -z "${OLD_BIN:-}" ]]; then
    OLD_BIN=$OLD/sentinel-$OLD_COMMIT-debug
    if [[ ! -x "$OLD_BIN" ]]; then
        rm -rf "$OLD/src" && mkdir -p "$OLD/src"
        git archive "$OLD_COMMIT" | tar -x -C "$OLD/src"
        (cd "$OLD/src" && swift build --product sentinel >/dev/null)
        cp "$OLD/src/.build/debug/sentinel" "$OLD_BIN"
    fi
fi
[[ -d "$OLD/rules" ]] || git archive "$OLD_COMMIT" rules | tar -x -C "$OLD"
[[ -d "$OLD/profiles" ]] || git archive "$OLD_COMMIT" profiles | tar -x -C "$OLD"
if [[ -z "${NEW_BIN:-}" ]]; then
    swift build --product sentinel >/dev/null
    NEW_BIN=$REPO/.build/debug/sentinel
fi

# 3. Scans and counts.
printf '%-22s %8s %8s %7s %11s %11s %10s %10s %10s\n' project old new change old-high+ new-high+ \
    old-assert new-assert old-bandit
total_old=0
total_new=0
for source in "$WORK"/src/*/; do
    name=$(basename "$source")
    for side in old new all; do
        out=$WORK/out/$name.$side.json
        [[ -s "$out" && "${RESCAN:-1}" == 0 ]] && continue
        extra=()
        if [[ $side == old ]]; then
            bin=$OLD_BIN rules=$OLD/rules profiles=$OLD/profiles
            # 66d8159 had no confidence filter; a later old side may be asked for its default report.
            [[ -n "${OLD_MIN_CONFIDENCE:-}" ]] && extra=(--min-confidence "$OLD_MIN_CONFIDENCE")
            # Later commits scan with OSV by default: with the empty home it has no database.
            [[ $OLD_COMMIT == 66d8159 ]] || extra+=(--allow-missing-db)
        else
            bin=$NEW_BIN rules=$REPO/rules profiles=$REPO/profiles
            extra=(--min-confidence "${MIN_CONFIDENCE:-low}" --allow-missing-db)
            # The lost-check scan looks for every finding the engine can still make.
            [[ $side == all ]] && extra=(--no-default-excludes --min-confidence low --allow-missing-db)
        fi
        SENTINEL_HOME=$WORK/home SENTINEL_RULES=$rules SENTINEL_PROFILES=$profiles "$bin" scan "$source" \
            "${extra[@]}" --format json --fail-on none --output "$out.tmp" 2>"$WORK/out/$name.$side.stderr" || true
        mv "$out.tmp" "$out"
        failed=$(python3 -c 'import json, sys
print(" ".join(t["name"] for t in json.load(open(sys.argv[1]))["summary"]["tools"] if t.get("status") == "failed"))' "$out")
        if [[ -n "$failed" ]]; then
            echo "noise.sh: $name ($side): tool failed: $failed (see $WORK/out/$name.$side.stderr)" >&2
            exit 1
        fi
    done
    read -r old new oldhigh newhigh oldassert newassert oldbandit < <(python3 bench/noise-compare.py \
        "$WORK/out/$name.old.json" "$WORK/out/$name.new.json" "$REPO/rules" \
        "$WORK/out/$name.lost.txt" "$WORK/out/$name.added.txt")
    python3 bench/noise-compare.py "$WORK/out/$name.old.json" "$WORK/out/$name.all.json" "$REPO/rules" \
        "$WORK/out/$name.lost-check.txt" /dev/null >/dev/null
    total_old=$((total_old + old))
    total_new=$((total_new + new))
    change=$(python3 -c "print(f'{($new - $old) / max($old, 1) * 100:+.0f}%')")
    printf '%-22s %8d %8d %7s %11d %11d %10d %10d %10d\n' "$name" "$old" "$new" "$change" "$oldhigh" "$newhigh" \
        "$oldassert" "$newassert" "$oldbandit"
done
python3 -c "print(f'total: {$total_old} -> {$total_new} findings ({($total_new - $total_old) / max($total_old, 1) * 100:+.1f}%)')"
echo "high/critical only in the old scan: $WORK/out/*.lost.txt (of which no longer reported even without"
echo "the default excludes: *.lost-check.txt); only in the new: $WORK/out/*.added.txt"
