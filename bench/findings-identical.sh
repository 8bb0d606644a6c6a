#!/usr/bin/env bash
# Refactor identity (issues 28 and 77): the findings of two sentinel revisions, byte for byte, on
# the corpora of ../shared/corpora -- Python: Bandit's examples, semgrep-rules' Python tests,
# ConDefects, each RealVuln dev app at its own root; JavaScript/TypeScript: each js-vuln-dev app
# and each js-cve-dev tree (vulnerable and patched) at its own root; both: each realcode-dev
# project at its root -- and the seven real projects of bench/noise.sh, in JSON and SARIF; then an
# interleaved hyperfine A/B of the two on a few targets. The corpora are read in place.
#
#   bench/findings-identical.sh                                 # BASE=264dc1f1 (before issue 77), head = this tree
#   BASE=28ef7b8 HEAD_REV=28ef7b8 bench/findings-identical.sh   # self-comparison (must be identical)
#   HEAD_REV=/work/main bench/findings-identical.sh             # head = that tree as it is (uncommitted too)
#   CONFIG=debug ...        # debug builds (faster to build, slower to scan; the A/B then means little)
#   SPEED=0 ...             # identity only;  SPEED_TARGETS="django realvuln-pygoat" picks the A/B targets
#   ADAPTERS=bandit ...     # adapter tools to add when installed (default: bandit; none: ADAPTERS=)
#   TARGETS="django js-cve-*" ...   # only these targets (names as printed; shell patterns allowed)
#   IDENTICAL_DIR=... NOISE_DIR=... CORPORA=...   # defaults: .build-bench/identical (in this checkout: the
#                           sandbox hides /root and /tmp, where the rules would otherwise lie),
#                           ~/.cache/sentinel-bench/noise, ../shared/corpora
#   IDENTICAL_SRC_DIR=...   # where the projects are scanned from (default: $TMPDIR/sentinel-bench-UID/identical-projects)
#
# Target names: the RealVuln apps by their folder (realvuln-*), js-vuln-APP, js-cve-CVE[-patched],
# realcode-PROJECT, the noise projects by name; a target of a corpus split by bench/halves.py
# carries its half ([tune] or [check]) on its line.
#
# Each side is built from its own sources, in $WORK/build-<sha>/src (a `git archive` of the commit;
# reused when its binaries exist) or, for a HEAD_REV that is a directory, in that tree; either way
# with its scratch path inside the source tree (.build-identical-CONFIG), so that each binary finds
# its own rules and profiles beside it, and in the configuration of `make release` (-c release
# -Xswiftc -static-stdlib; both products: `sentinel` hands every command but `sandbox run` to
# `sentinel-cli`). Each side scans with its own rules and profiles. Both read a copy, made afresh for every scan, of one
# SENTINEL_HOME holding only an OSV database that BASE's binary imported from the corpus's PyPI,
# crates.io and Go advisories (old data, hence --allow-stale-db; the corpus has no npm advisories and
# vfapi has a package.json, hence --allow-missing-db).
#
# Every scan: --tools native,secrets,osv[,ADAPTERS] --min-confidence low --allow-stale-db
# --allow-missing-db --fail-on none, in JSON
# and in SARIF, from the same working directory. bench/findings-normalise.py then blanks only
# what legitimately differs between two runs (it lists the fields) and the normalised reports are
# compared byte for byte. One line per target, a total and an unmistakable summary line; the diff
# of a differing target goes to $WORK/runs/<base>..<head>/diff/. A differing target's line also
# sorts its differing findings (`findings-normalise.py classify`, details in diff/NAME.classes.txt):
# in files the head names as generated or vendored, sentinel.file-not-analysed (work budget,
# bounds), and other (a real change of behaviour); a target whose only differences are the first
# two is counted apart in a last line. Exit status 0 either way (a
# benchmark reports, it does not fail), 2 on a setup error (a build, a scan that exits non-zero).
# A tool that does not succeed in a scan (Bandit on a tree it refuses) is named on its target's line.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
source bench/lib/private-dir.sh
source bench/lib/noise-sources.sh
WORK=$(private_dir "${IDENTICAL_DIR:-$REPO/.build-bench/identical}" IDENTICAL_DIR) || exit 2
NOISE=${NOISE_DIR:-$HOME/.cache/sentinel-bench/noise}
CORPORA=$(realpath "${CORPORA:-$REPO/../shared/corpora}")
CONFIG=${CONFIG:-release}
BASE=${BASE:-264dc1f1}
HEAD_REV=${HEAD_REV:-$REPO}
ADAPTERS=${ADAPTERS-bandit}
SPEED=${SPEED:-1}
SPEED_TARGETS=${SPEED_TARGETS:-django realvuln-pygoat bandit-examples}
started=$SECONDS

# 1. Binaries. build_side REV prints "BINARY SOURCE_DIR LABEL" (rules and profiles come from
# SOURCE_DIR). Build output goes to $WORK/build-*.log.
build_side() {
    local rev=$1 src scratch key label sha
    if [[ -d "$rev" ]]; then
        src=$(realpath "$rev")
        key=tree-$(printf '%s' "$src" | sha1sum | cut -c1-12)
        scratch=$src/.build-identical-$CONFIG
        label="$src@$(git -C "$src" rev-parse --short HEAD)$(git -C "$src" diff --quiet HEAD 2>/dev/null || echo +changes)"
        mkdir -p "$WORK/build-$key"
        build "$src" "$scratch" "$WORK/build-$key.log" || return 2
    else
        sha=$(git rev-parse --verify "$rev^{commit}") || return 2
        src=$WORK/build-$sha/src
        scratch=$src/.build-identical-$CONFIG
        label=$(git rev-parse --short "$sha")
        if [[ ! -x "$scratch/$CONFIG/sentinel" || ! -x "$scratch/$CONFIG/sentinel-cli" ]]; then
            if [[ ! -f "$src/Package.swift" ]]; then
                rm -rf "$src" && mkdir -p "$src"
                git archive "$sha" | tar -x -C "$src"
                # tar keeps the archive's modes: as root, group-writable rules are refused.
                chmod -R go-w "$src"
            fi
            build "$src" "$scratch" "$WORK/build-$sha.log" || return 2
        fi
    fi
    printf '%s %s %s\n' "$scratch/$CONFIG/sentinel" "$src" "$label"
}
build() {
    local flags=(-c "$CONFIG")
    [[ $CONFIG == release ]] && flags+=(-Xswiftc -static-stdlib)
    echo "building $1 ($CONFIG) ..." >&2
    local product
    for product in sentinel-cli sentinel; do
        if ! swift build --package-path "$1" --scratch-path "$2" "${flags[@]}" --product "$product" >>"$3" 2>&1; then
            echo "findings-identical.sh: the build of $1 ($product) failed; see $3" >&2
            return 2
        fi
    done
}
read -r BASE_BIN BASE_SRC BASE_LABEL < <(build_side "$BASE") && [[ -x ${BASE_BIN:-} ]] || exit 2
read -r HEAD_BIN HEAD_SRC HEAD_LABEL < <(build_side "$HEAD_REV") && [[ -x ${HEAD_BIN:-} ]] || exit 2
BASE_VERSION=$("$BASE_BIN" --version)
HEAD_VERSION=$("$HEAD_BIN" --version)
RUN=$WORK/runs/$(basename "$BASE_LABEL")..$(basename "${HEAD_LABEL//\//_}")
rm -rf "$RUN" && mkdir -p "$RUN/out" "$RUN/diff" "$RUN/cwd"

# 2. One SENTINEL_HOME with the OSV database, imported once by BASE's binary and kept.
HOME_TEMPLATE=$WORK/home-osv-$(basename "$BASE_LABEL")
if [[ ! -f "$HOME_TEMPLATE/.complete" ]]; then
    rm -rf "$HOME_TEMPLATE" && mkdir -m 700 -p "$HOME_TEMPLATE"
    SENTINEL_HOME=$HOME_TEMPLATE "$BASE_BIN" db import "$CORPORA/osv/pypa/vulns" "$CORPORA/osv/rustsec/crates" \
        "$CORPORA/osv/golang/data/osv" >"$WORK/osv-import.log" 2>&1 || {
        echo "findings-identical.sh: OSV import failed; see $WORK/osv-import.log" >&2
        exit 2
    }
    touch "$HOME_TEMPLATE/.complete"
fi

# 3. Targets: NAME PATH, one a line.
noise_sources "$NOISE"
PROJECTS=$(private_dir "${IDENTICAL_SRC_DIR:-${TMPDIR:-/tmp}/sentinel-bench-$(id -u)/identical-projects}" IDENTICAL_SRC_DIR) || exit 2
targets=$RUN/targets.tsv
{
    printf 'bandit-examples\t%s\n' "$CORPORA/bandit/examples"
    printf 'semgrep-rules-python\t%s\n' "$CORPORA/semgrep-rules/python"
    printf 'condefects-py\t%s\n' "$CORPORA/condefects-py"
    for app in "$CORPORA"/realvuln-dev/apps/*/; do printf '%s\t%s\n' "$(basename "$app")" "${app%/}"; done
    for app in "$CORPORA"/js-vuln-dev/apps/*/; do printf 'js-vuln-%s\t%s\n' "$(basename "$app")" "${app%/}"; done
    for app in "$CORPORA"/js-cve-dev/apps/*/; do printf 'js-cve-%s\t%s\n' "$(basename "$app")" "${app%/}"; done
    for project in "$CORPORA"/realcode-dev/proj/*/; do
        printf 'realcode-%s\t%s\n' "$(basename "$project")" "${project%/}"
    done
    for source in "$NOISE"/src/*/; do
        name=$(basename "$source")
        # Bandit refuses a workspace beneath /root (a system directory), where the noise cache of
        # a root user lies: the projects are scanned from a copy in a private directory of $TMPDIR.
        [[ -d "$PROJECTS/$name" ]] || cp -a "${source%/}" "$PROJECTS/$name"
        printf '%s\t%s\n' "${name%%-[0-9]*}" "$PROJECTS/$name"
    done
} >"$targets.all"
if [[ -n "${TARGETS:-}" ]]; then
    set -f # the patterns are matched against target names, not expanded against files
    while IFS=$'\t' read -r name path; do
        for pattern in $TARGETS; do
            # shellcheck disable=SC2053 # a pattern on purpose
            if [[ $name == $pattern ]]; then
                printf '%s\t%s\n' "$name" "$path"
                break
            fi
        done
    done <"$targets.all" >"$targets"
    set +f
else
    cp "$targets.all" "$targets"
fi

tools=native,secrets,osv
for adapter in ${ADAPTERS//,/ }; do
    if [[ -x /opt/sentinel-tools/venv/bin/$adapter ]] || command -v "$adapter" >/dev/null; then
        tools+=,$adapter
    else
        echo "findings-identical.sh: $adapter is not installed; left out" >&2
    fi
done

# half NAME PATH: " [tune]" or " [check]" for a target of a corpus bench/halves.py splits, else nothing.
half() {
    case $2 in
    "$CORPORA"/realvuln-dev/* | "$CORPORA"/js-vuln-dev/* | "$CORPORA"/js-cve-dev/* | "$CORPORA"/realcode-dev/*)
        printf ' [%s]' "$(python3 bench/halves.py half "$(basename "$2")" | awk '{print $NF}')"
        ;;
    esac
}

# scan SIDE NAME PATH FORMAT: one scan into $RUN/out/NAME.SIDE.FORMAT.
scan() {
    local side=$1 name=$2 path=$3 format=$4 bin src home
    if [[ $side == base ]]; then bin=$BASE_BIN src=$BASE_SRC; else bin=$HEAD_BIN src=$HEAD_SRC; fi
    home=$RUN/home
    rm -rf "$home" && cp -a "$HOME_TEMPLATE" "$home"
    (cd "$RUN/cwd" && SENTINEL_HOME=$home SENTINEL_RULES=$src/rules SENTINEL_PROFILES=$src/profiles "$bin" scan "$path" \
        --tools "$tools" --min-confidence low --allow-stale-db --allow-missing-db --fail-on none --format "$format" \
        --output "$RUN/out/$name.$side.$format" 2>"$RUN/out/$name.$side.$format.stderr") || {
        echo "findings-identical.sh: $name ($side, $format) failed; see $RUN/out/$name.$side.$format.stderr" >&2
        exit 2
    }
}

echo "base: $BASE_LABEL ($BASE_BIN)"
echo "head: $HEAD_LABEL ($HEAD_BIN)"
echo "tools: $tools; $CONFIG builds; outputs in $RUN"
printf '%-48s %s\n' target result
same=0
different=0
explained=0
failures=0
while IFS=$'\t' read -r name path; do
    verdicts=()
    for format in json sarif; do
        for side in base head; do scan "$side" "$name" "$path" "$format"; done
        verdicts+=("$(python3 bench/findings-normalise.py compare "$format" "$RUN/out/$name.base.$format" \
            "$RUN/out/$name.head.$format" "$RUN/diff/$name.$format.diff" "$BASE_VERSION" "$HEAD_VERSION")")
    done
    # A tool that failed on a side makes the comparison hollow: say so on the target's line.
    failed=$(python3 bench/findings-normalise.py failed "$RUN/out/$name.base.json" "$RUN/out/$name.head.json")
    note=${failed:+; TOOL NOT SUCCEEDED: $failed}
    [[ -n $failed ]] && failures=$((failures + 1))
    # Each verdict: "identical N" or "DIFFERENT N M" (findings base, head).
    read -r json_verdict base_count head_count <<<"${verdicts[0]}"
    read -r sarif_verdict _ <<<"${verdicts[1]}"
    label=$name$(half "$name" "$path")
    if [[ $json_verdict == identical && $sarif_verdict == identical ]]; then
        same=$((same + 1))
        printf '%-48s identical (%d findings%s)\n' "$label" "$base_count" "$note"
    else
        different=$((different + 1))
        # "generated N budget N other N files G summary KEYS"
        read -r _ in_generated _ budget _ other _ generated_files _ summary_keys < <(python3 bench/findings-normalise.py \
            classify "$RUN/out/$name.base.json" "$RUN/out/$name.head.json" "$RUN/diff/$name.classes.txt")
        [[ $other -eq 0 ]] && explained=$((explained + 1))
        printf '%-48s DIFFERENT (%d findings base, %d head; json %s, sarif %s; %d in %d generated files, %d file-not-analysed, %d other; summary %s%s; see %s)\n' \
            "$label" "$base_count" "${head_count:-$base_count}" "$json_verdict" "$sarif_verdict" "$in_generated" \
            "$generated_files" "$budget" "$other" "$summary_keys" "$note" "$RUN/diff/$name.*"
    fi
done <"$targets"
total=$((same + different))
[[ $failures -gt 0 ]] && echo "warning: on $failures targets a tool did not succeed on a side (see the lines above)"
if [[ $different -eq 0 ]]; then
    echo "== FINDINGS IDENTICAL: $same of $total targets (JSON and SARIF), base $BASE_LABEL, head $HEAD_LABEL =="
else
    echo "== FINDINGS DIFFERENT: $different of $total targets differ (JSON or SARIF), base $BASE_LABEL, head $HEAD_LABEL =="
    echo "== of those, $explained differ only in generated files and file-not-analysed findings; $((different - explained)) otherwise =="
fi

# 4. Speed A/B: hyperfine on the default tools' JSON scan (no adapter: Bandit's time is Bandit's),
# in rounds that alternate base and head (hyperfine itself runs one command's runs after the
# other's), each with its warm-up run, pooled per side. ROUNDS=3 RUNS=3 by default.
if [[ $SPEED == 1 ]]; then
    ROUNDS=${ROUNDS:-3}
    RUNS=${RUNS:-3}
    echo
    echo "speed A/B: hyperfine -N --warmup 1 --runs $RUNS, $ROUNDS rounds alternating base/head, pooled;"
    echo "scan PATH --tools native,secrets,osv --min-confidence low --allow-stale-db --allow-missing-db --fail-on none --format json"
    for name in $SPEED_TARGETS; do
        path=$(awk -F'\t' -v n="$name" '$1 == n {print $2}' "$targets.all")
        [[ -n "$path" ]] || continue
        for round in $(seq "$ROUNDS"); do
            for side in base head; do
                if [[ $side == base ]]; then bin=$BASE_BIN src=$BASE_SRC; else bin=$HEAD_BIN src=$HEAD_SRC; fi
                rm -rf "$RUN/home" && cp -a "$HOME_TEMPLATE" "$RUN/home"
                (cd "$RUN/cwd" && SENTINEL_HOME=$RUN/home SENTINEL_RULES=$src/rules SENTINEL_PROFILES=$src/profiles \
                    hyperfine -N --warmup 1 --runs "$RUNS" --style none \
                    --export-json "$RUN/speed-$name-$round-$side.json" \
                    "$bin scan $path --tools native,secrets,osv --min-confidence low --allow-stale-db --allow-missing-db --fail-on none --format json --output /dev/null" \
                    >/dev/null 2>>"$RUN/speed.log")
            done
        done
    done
    python3 bench/findings-normalise.py speed "$RUN" $SPEED_TARGETS
fi
echo "took $(((SECONDS - started) / 60)) min $(((SECONDS - started) % 60)) s"
