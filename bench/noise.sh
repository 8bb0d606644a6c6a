#!/usr/bin/env bash
# Noise of the default scan (issue 8): findings per real project with the binary of commit
# 66d8159 (before the default ignores) and with this tree's binary, same rules per side, same
# (empty) SENTINEL_HOME, default tools. Prints one table row per project and the total change;
# the high/critical findings the new scan no longer reports go to $WORK/out/NAME.lost.txt for
# review (bench/noise-checked.md lists the verdicts).
#
#   bench/noise.sh                      # fetches sources (PyPI), builds both binaries if absent
#   OLD_BIN=... NEW_BIN=... bench/noise.sh
#   NOISE_DIR=/some/dir bench/noise.sh  # default: ~/.cache/sentinel-bench/noise (never the repo)
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
WORK=${NOISE_DIR:-$HOME/.cache/sentinel-bench/noise}
OLD_COMMIT=66d8159
PROJECTS=(django flask requests httpx sqlalchemy scrapy ansible-core)
mkdir -p "$WORK/sdists" "$WORK/src" "$WORK/out" "$WORK/home" "$WORK/old"

# 1. Sources: sdists from PyPI, unpacked once. pip builds each sdist's metadata; with build
# isolation it would build setuptools & co. from source too (minutes each), so the build
# backends come as wheels into a private venv and isolation is off.
for project in "${PROJECTS[@]}"; do
    pattern=$(echo "$project" | tr '-' '_')
    if ! ls "$WORK/sdists" | grep -qi "^\(${project}\|${pattern}\)-[0-9]"; then
        if [[ ! -x "$WORK/dlvenv/bin/pip" ]]; then
            python3 -m venv "$WORK/dlvenv"
            "$WORK/dlvenv/bin/pip" install -q -U setuptools wheel flit_core hatchling hatch-vcs \
                hatch-fancy-pypi-readme setuptools_scm
        fi
        "$WORK/dlvenv/bin/pip" download -q --no-deps --no-binary :all: --no-build-isolation "$project" \
            -d "$WORK/sdists" >/dev/null
    fi
done
for archive in "$WORK"/sdists/*.tar.gz; do
    name=$(basename "$archive" .tar.gz)
    [[ -d "$WORK/src/$name" ]] || tar -xzf "$archive" -C "$WORK/src"
done

# 2. Binaries. The old one is built from a `git archive` of the commit, outside the repo.
if [[ -z "${OLD_BIN:-}" ]]; then
    OLD_BIN=$WORK/old/src/.build/debug/sentinel
    if [[ ! -x "$OLD_BIN" ]]; then
        mkdir -p "$WORK/old/src"
        git archive "$OLD_COMMIT" | tar -x -C "$WORK/old/src"
        (cd "$WORK/old/src" && swift build --product sentinel >/dev/null)
    fi
fi
[[ -d "$WORK/old/rules" ]] || git archive "$OLD_COMMIT" rules | tar -x -C "$WORK/old"
if [[ -z "${NEW_BIN:-}" ]]; then
    swift build --product sentinel >/dev/null
    NEW_BIN=$REPO/.build/debug/sentinel
fi

# 3. Scans and counts.
printf '%-22s %8s %8s %7s %11s %11s %9s %9s\n' project old new change old-high+ new-high+ old-assert new-assert
total_old=0
total_new=0
for source in "$WORK"/src/*/; do
    name=$(basename "$source")
    for side in old new; do
        out=$WORK/out/$name.$side.json
        [[ -s "$out" && -z "${RESCAN:-}" ]] && continue
        if [[ $side == old ]]; then bin=$OLD_BIN rules=$WORK/old/rules; else bin=$NEW_BIN rules=$REPO/rules; fi
        SENTINEL_HOME=$WORK/home SENTINEL_RULES=$rules "$bin" scan "$source" --format json --fail-on none \
            --output "$out.tmp" 2>"$WORK/out/$name.$side.stderr" || true
        mv "$out.tmp" "$out"
    done
    read -r old new oldhigh newhigh oldassert newassert < <(python3 - "$WORK/out/$name.old.json" "$WORK/out/$name.new.json" "$WORK/out/$name.lost.txt" <<'EOF'
import json, sys
old, new = (json.load(open(p))["findings"] for p in sys.argv[1:3])
high = lambda fs: [f for f in fs if f["severity"] in ("high", "critical")]
key = lambda f: (f["location"].get("file"), f["location"].get("startLine"), f["ruleId"])
kept = {key(f) for f in new}
with open(sys.argv[3], "w") as lost:
    for f in high(old):
        if key(f) not in kept:
            lost.write(f'{f["location"].get("file")}:{f["location"].get("startLine")}: {f["severity"]}: [{f["ruleId"]}] {f["message"]}\n')
asserts = lambda fs: sum(f["ruleId"] in ("python.assert-used", "bandit.B101") for f in fs)
print(len(old), len(new), len(high(old)), len(high(new)), asserts(old), asserts(new))
EOF
)
    total_old=$((total_old + old))
    total_new=$((total_new + new))
    change=$(python3 -c "print(f'{($new - $old) / max($old, 1) * 100:+.0f}%')")
    printf '%-22s %8d %8d %7s %11d %11d %9d %9d\n' "$name" "$old" "$new" "$change" "$oldhigh" "$newhigh" "$oldassert" "$newassert"
done
python3 -c "print(f'total: {$total_old} -> {$total_new} findings ({($total_new - $total_old) / max($total_old, 1) * 100:+.1f}%)')"
echo "lost high/critical findings: $WORK/out/*.lost.txt"
