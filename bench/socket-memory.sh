#!/usr/bin/env bash
# Kernel socket memory one sandboxed payload can pin (issue 25): runs the probe's `tcp-pin` (every
# descriptor a loopback connection, both directions full) and `tcp-backlog` (connections never
# accepted) under the default profile, and while the probe holds its sockets reads the run's memory
# cgroup (v1: memory.kmem.tcp.*) and the host's /proc/net/sockstat and MemAvailable.
# Needs root and a debug build (the probe); SENTINEL defaults to the static release binary.
#
#   bench/socket-memory.sh                       # both attempts with the README's parameters
#   SENTINEL=path/to/sentinel bench/socket-memory.sh
#
# The probe stops by itself at CAP_MB of kernel TCP memory, so a run against a build without the
# bounds stays below the host's net.ipv4.tcp_mem ceiling.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib/private-dir.sh
SENTINEL=${SENTINEL:-.build-release-static/release/sentinel}
PROBE=.build/debug/sentinel-probe
[[ -x $SENTINEL && -x $PROBE ]] || { echo "socket-memory: build $SENTINEL and $PROBE first" >&2; exit 2; }
work=$(private_dir "${SOCKMEM_DIR:-/tmp/sentinel-socket-memory}" SOCKMEM_DIR)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/ws" "$work/hold"; chmod 755 "$work" "$work/ws" "$work/hold"
cp "$PROBE" "$work/ws/sentinel-probe"
runtime=$(ldd "$PROBE" | awk '/libswiftCore/{print $3}')
[[ -n $runtime ]] && cp "$runtime" "$work/ws/"
sockstat_pages() { awk '/^TCP:/{print $NF}' /proc/net/sockstat; }
available_kib() { awk '/MemAvailable/{print $2}' /proc/meminfo; }

attempt() {
  local verb=$1; shift
  echo h > "$work/hold/h"
  local pages0 avail0; pages0=$(sockstat_pages); avail0=$(available_kib)
  "$SENTINEL" sandbox run --workspace "$work/ws" --bind-ro "$work/hold" -- \
    /workspace/sentinel-probe "$verb" "$@" "$work/hold/h" > "$work/out" 2>&1 &
  local run=$! line=""
  for _ in $(seq 1 3000); do
    for pid in $(pgrep -f "sentinel-probe $verb" || true); do
      # Holding: the probe waits for the hold file to go (nanosleep or clock_nanosleep).
      local call; call=$(cut -d' ' -f1 "/proc/$pid/syscall" 2>/dev/null || true)
      [[ $call == 35 || $call == 230 ]] || continue
      local group; group=$(grep -E '^[0-9]+:memory:' "/proc/$pid/cgroup" | cut -d: -f3)
      local dir=/sys/fs/cgroup/memory$group
      line="tcp limit $(cat "$dir/memory.kmem.tcp.limit_in_bytes") B, tcp peak $(cat "$dir/memory.kmem.tcp.max_usage_in_bytes") B, memory peak $(cat "$dir/memory.max_usage_in_bytes") B; host sockstat TCP +$(( ($(sockstat_pages) - pages0) * 4096 )) B, MemAvailable -$(( (avail0 - $(available_kib)) * 1024 )) B"
      break 2
    done
    sleep 0.1
  done
  rm -f "$work/hold/h"
  wait "$run" || true
  echo "$verb $*: ${line:-the probe never held}"
  grep -E '^(INFO|ESCAPED|DENIED)' "$work/out" | head -2 | sed 's/^/    probe: /'
}

echo "sentinel: $SENTINEL; kernel $(uname -r); host tcp_mem $(cat /proc/sys/net/ipv4/tcp_mem)"
attempt tcp-pin 127 126 2560
attempt tcp-backlog 250 1000 2560
