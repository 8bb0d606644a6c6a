#!/usr/bin/env bash
# Precision of the native rules on real code (issue 13): installs the sources of seven large
# projects from PyPI (wheels, no dependencies, pinned) into a private directory, scans each with
# the native SAST rules as a new user would (default excludes, so no tests), and prints lines of
# Python, high/critical findings per 10k lines per project and per rule, and by confidence.
# bench/sast-real-code.py writes a random sample (fixed seed) of high/critical findings with
# their code to bench/out/sast-real-code-sample.md for judging by hand; the verdicts live in
# bench/sast-real-code-judged.md.
#
#   bench/sast-real-code.sh                       # this tree's debug binary and rules
#   BIN=/other/sentinel RULES=/other/rules/python bench/sast-real-code.sh   # another side
#   TAG=before bench/sast-real-code.sh            # names the outputs bench/out/sast-real-code-before.*
#   SAMPLE=60 SEED=13 bench/sast-real-code.sh     # the sample's size and seed (these defaults)
#   MIN_CONFIDENCE=high MIN_SEVERITY=low bench/sast-real-code.sh   # sample floors (default: any
#                                                 # confidence, high severity)
#
# The sources live in /tmp/sentinel-sast-real-$UID (mode 700, refused when another user owns
# it), or $SAST_REAL_DIR; the pip cache with them.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
source bench/lib/private-dir.sh
WORK=$(private_dir "${SAST_REAL_DIR:-/tmp/sentinel-sast-real-$(id -u)}" SAST_REAL_DIR) || exit 2
TAG=${TAG:-current}
OUT=$REPO/bench/out
PACKAGES=(django==5.2.8 flask==3.1.3 requests==2.34.2 httpx==0.28.1 sqlalchemy==2.1.9 scrapy==2.19.0
    ansible-core==2.19.14)

mkdir -p "$OUT"

# 1. Sources: the wheels hold every module as source; --no-deps keeps each project alone.
if [[ ! -f "$WORK/pkgs/.complete" ]]; then
    [[ -x "$WORK/venv/bin/pip" ]] || python3 -m venv "$WORK/venv"
    rm -rf "$WORK/pkgs"
    "$WORK/venv/bin/pip" install -q --disable-pip-version-check --cache-dir "$WORK/pip-cache" --no-deps \
        --target "$WORK/pkgs" "${PACKAGES[@]}"
    touch "$WORK/pkgs/.complete"
fi
# One directory per project (ansible-core ships two packages).
declare -A DIRS=([django]=django [flask]=flask [requests]=requests [httpx]=httpx [sqlalchemy]=sqlalchemy
    [scrapy]=scrapy [ansible-core]="ansible ansible_test")
for project in "${!DIRS[@]}"; do
    if [[ ! -d "$WORK/src/$project" ]]; then
        mkdir -p "$WORK/src/$project"
        for dir in ${DIRS[$project]}; do cp -r "$WORK/pkgs/$dir" "$WORK/src/$project/"; done
    fi
done

# 2. The binary and rules.
if [[ -z "${BIN:-}" ]]; then
    swift build --product sentinel >/dev/null
    BIN=$REPO/.build/debug/sentinel
fi
RULES=${RULES:-$REPO/rules/python}
extra=()
# --min-confidence low shows every finding where the binary has the flag (its default hides low).
if "$BIN" scan --help 2>&1 | grep -q -- --min-confidence; then extra=(--min-confidence low); fi

# 3. Scans, then counts and the sample.
mkdir -p "$WORK/out/$TAG"
for project in "${!DIRS[@]}"; do
    SENTINEL_HOME=$WORK/home SENTINEL_RULES=$RULES "$BIN" scan "$WORK/src/$project" --sast --tools native \
        --format json --output "$WORK/out/$TAG/$project.json" --fail-on none "${extra[@]}" -q >/dev/null
done
python3 "$REPO/bench/sast-real-code.py" --src "$WORK/src" --scans "$WORK/out/$TAG" \
    --sample "${SAMPLE:-60}" --seed "${SEED:-13}" --min-confidence "${MIN_CONFIDENCE:-low}" --min-severity "${MIN_SEVERITY:-high}" \
    --sample-out "$OUT/sast-real-code-$TAG-sample.md" --json-out "$OUT/sast-real-code-$TAG.json"
