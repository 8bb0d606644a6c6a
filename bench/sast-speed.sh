#!/usr/bin/env bash
# SAST throughput on a large real Python tree (Django's sources from PyPI, scanned at the root of the
# `pip install --target` tree, where users point the tool, not at its `django/` package): the native engine
# vs `bandit -r` vs `semgrep` with Sentinel's rule ids' Semgrep counterparts unavailable offline,
# so Semgrep runs the shipped Python rules of the semgrep-rules corpus merged into one file.
# All three in one hyperfine run; peak memory from /usr/bin/time -v.
#
#   bench/sast-speed.sh          # needs make tools (bandit, semgrep) and a release build
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLS=${SENTINEL_TOOLS:-/opt/sentinel-tools/venv}
# Django 5.2.8 (the tree issue 13 names) in a private directory (mode 700, refused when it is a
# link or another user's), not a fixed /tmp name; TREE=DIR scans another copy.
source bench/lib/private-dir.sh
WORK=$(private_dir "${SAST_BENCH_DIR:-${TMPDIR:-/tmp}/sentinel-bench-$(id -u)}" SAST_BENCH_DIR) || exit 2
out=bench/out
mkdir -p "$out"

# TREE=DIR is read only: Django is installed only into this script's own directory (a repository
# given as TREE once received a copy of Django beside its sources).
if [ -n "${TREE:-}" ]; then
  [ -d "$TREE" ] || { echo "sast-speed.sh: TREE=$TREE is not a directory" >&2; exit 2; }
else
  TREE=$WORK/django-5.2.8
  if [ ! -d "$TREE/django" ]; then
    python3 -m pip install --quiet --no-deps --target "$TREE" "django==5.2.8"
  fi
fi
files=$(find "$TREE" -name '*.py' | wc -l)
lines=$(find "$TREE" -name '*.py' -print0 | xargs -0 cat | wc -l)
echo "tree: $TREE ($files Python files, $lines lines)"

source bench/lib/release-build.sh
# Both: `sentinel` runs every command but `sandbox run` through `sentinel-cli` beside it (a stale
# sentinel-cli once answered in 0.13 s with a rules error that hyperfine's --ignore-failure hid).
release_build sentinel-cli sentinel
SENTINEL=$RELEASE_SCRATCH/release/sentinel
# The timed command must scan: with --fail-on none it exits 0, anything else is a broken build.
if ! "$SENTINEL" scan "$TREE" --sast --tools native --format json --output /dev/null --fail-on none; then
  echo "sast-speed.sh: $SENTINEL does not scan $TREE (see above)" >&2
  exit 2
fi

semgrep_rules=$out/semgrep-python-rules.yml
python3 - "$semgrep_rules" <<'PY'
import glob, sys, yaml
rules = []
for path in sorted(glob.glob("../shared/corpora/semgrep-rules/python/**/*.yaml", recursive=True)):
    try:
        doc = yaml.safe_load(open(path))
    except Exception:
        continue
    for rule in (doc or {}).get("rules", []) or []:
        rules.append(rule)
yaml.safe_dump({"rules": rules}, open(sys.argv[1], "w"))
print(f"semgrep: {len(rules)} rules merged", file=sys.stderr)
PY

# SEMGREP=0 skips Semgrep (about 2 minutes a run here).
peers=(-n bandit "$TOOLS/bin/bandit -r -q -f json -o /dev/null $TREE")
if [ "${SEMGREP:-1}" != 0 ]; then
  peers+=(-n semgrep "$TOOLS/bin/semgrep scan --metrics=off --disable-version-check --quiet --json -o /dev/null --config $semgrep_rules $TREE")
fi
hyperfine --warmup 1 --runs "${RUNS:-3}" --ignore-failure --export-json "$out/sast-speed.json" \
  -n native "$SENTINEL scan $TREE --sast --tools native --format json --output /dev/null --fail-on none" \
  "${peers[@]}" >/dev/null
python3 - "$out/sast-speed.json" "$lines" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
lines = int(sys.argv[2])
for name in [n for n in ("native", "bandit", "semgrep") if n in r]:
    m = r[name]["median"]
    print(f"{name:8} median {m:7.2f} s  {lines/m/1000:8.1f} k lines/s")
print(f"native throughput / bandit = {r['bandit']['median']/r['native']['median']:.1f}x")
if "semgrep" in r:
    print(f"native throughput / semgrep = {r['semgrep']['median']/r['native']['median']:.1f}x")
PY
for name in native bandit; do
  case $name in
    native) cmd=("$SENTINEL" scan "$TREE" --sast --tools native --format json --output /dev/null --fail-on none) ;;
    bandit) cmd=("$TOOLS/bin/bandit" -r -q -f json -o /dev/null "$TREE") ;;
  esac
  /usr/bin/time -v "${cmd[@]}" 2>"$out/time-$name.txt" >/dev/null || true
  echo "$name peak RSS $(awk -F: '/Maximum resident/ {gsub(/ /,"",$2); print $2}' "$out/time-$name.txt") KiB"
done
