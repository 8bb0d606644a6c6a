#!/usr/bin/env bash
# libFuzzer over the readers of attacker-controlled input (issue 26): builds fuzz/ (a separate,
# opt-in SwiftPM package) with -sanitize=fuzzer and runs each target for SECONDS (default 600),
# one at a time. usage: bench/fuzz.sh [TARGET|all] [SECONDS]
#   TARGET: documents lockfiles requirements python signals osvzip
#   KEEP_GOING=1 runs in fork mode and carries on past crashes, hangs and OOMs (for a reader
#   with known crashes); otherwise the run stops at the first one and leaves it in ARTIFACTS.
# Prints one `FUZZ` line per target: executions, exec/s, coverage, corpus, peak RSS, crashes.
# The corpus grows across runs in fuzz/.build-fuzz/corpus/TARGET; seeds are regenerated each
# run from the test fixtures and ../shared/corpora (never committed).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
ALL=(documents lockfiles requirements python signals osvzip)
TARGET="${1:-all}"
SECONDS_EACH="${2:-600}"
BUILD="$ROOT/fuzz/.build"
# Seeds, corpora, findings and logs: beside SwiftPM's directory, which it may prune.
WORK="$ROOT/fuzz/.build-fuzz"
[ "$TARGET" = all ] && TARGETS=("${ALL[@]}") || TARGETS=("$TARGET")

for target in "${TARGETS[@]}"; do
  [[ " ${ALL[*]} " == *" $target "* ]] || { echo "fuzz.sh: unknown target $target (${ALL[*]})" >&2; exit 2; }
  (cd fuzz && swift build -c release --product "fuzz-$target" \
     -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library -Xswiftc -enable-testing 2>&1 | tail -1)
  seeds="$WORK/seeds/$target" corpus="$WORK/corpus/$target" artifacts="$WORK/artifacts/$target"
  rm -rf "$seeds"
  mkdir -p "$corpus" "$artifacts" "$WORK/logs"
  python3 bench/fuzz-seeds.py "$target" "$seeds" >/dev/null
  log="$WORK/logs/$target.log"
  mode=()
  [ "${KEEP_GOING:-0}" = 1 ] && mode=(-fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1)
  before=$(find "$artifacts" -type f | wc -l)
  command=("$BUILD/release/fuzz-$target" "${mode[@]}" -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048
           -timeout=10 -max_len=65537 -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" "$seeds")
  echo "fuzz: ${command[*]}" >&2
  status=0
  started=$(date +%s)
  /usr/bin/time -f 'maxrss_kb=%M' -o "$WORK/logs/$target.time" "${command[@]}" >"$log" 2>&1 || status=$?
  # Fork mode (KEEP_GOING=1) prints no final stats: its last status line has the count.
  execs=$( (grep -oE 'stat::number_of_executed_units: [0-9]+' "$log" || true) | awk '{s+=$2} END {print s+0}')
  [ "$execs" -gt 0 ] || execs=$( (grep -oE '^#[0-9]+' "$log" || echo 0) | tail -1 | tr -d '#')
  last=$(grep -E '(cov|ft): [0-9]+' "$log" | tail -1)
  cov=$(grep -oE 'cov: [0-9]+' <<<"$last" | grep -oE '[0-9]+' || echo ?)
  ft=$(grep -oE 'ft: [0-9]+' <<<"$last" | grep -oE '[0-9]+' || echo ?)
  corp=$(grep -oE 'corp: [0-9]+(/[0-9]+[a-zA-Z]*)?' <<<"$last" | cut -d' ' -f2 || echo ?)
  rss=$(( $(grep -oE '[0-9]+' "$WORK/logs/$target.time" | tail -1) / 1024 ))
  elapsed=$(( $(date +%s) - started ))
  found=$(( $(find "$artifacts" -type f | wc -l) - before ))
  echo "FUZZ target=$target seconds=$elapsed execs=$execs exec/s=$(( execs / (elapsed > 0 ? elapsed : 1) ))" \
       "cov=$cov ft=$ft corpus=$corp peak_rss_mb=$rss new_artifacts=$found exit=$status log=$log"
  [ "$found" -eq 0 ] || ls -t "$artifacts" | head -5 | sed "s|^|  $artifacts/|"
done
