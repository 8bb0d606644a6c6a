#!/usr/bin/env bash
# Fleet acceptance scenario (issue 32): N real projects scanned by 4 workers on one PostgreSQL, one
# worker killed with SIGKILL mid-run; every job must still succeed exactly once.
#
#   bench/fleet-demo.sh SENTINEL [N_PROJECTS=50]
#   WORKERS=4 KILL_AFTER=3 DEMO_TIMEOUT=3600 MAX_SDIST_MB=20 APPS_MAX=13 bench/fleet-demo.sh .build/release/sentinel 50
#
# Projects: the 13 apps under ../shared/corpora/realvuln-dev/apps, scanned in place (the script
# checks that no file there changed), then sdists of well-known pure-Python PyPI packages fetched
# with `pip download --no-deps --no-binary :all:` into /work/tmp/fleet-demo-cache (kept between runs;
# a package that fails to download or is over MAX_SDIST_MB is skipped) and unpacked into a temporary
# directory, until N. A throwaway PostgreSQL 15 (initdb as the postgres user in a fresh temporary
# directory, SCRAM password, 127.0.0.1 at a free port; needs root) holds the queue. One scan per
# project is submitted (`--tools native,secrets`: a fresh SENTINEL_HOME has no OSV database), 4
# workers start (`--lease 10s --retry-base 1s`), the one running a job is killed with SIGKILL after
# KILL_AFTER jobs succeeded, and the script waits until nothing is queued or running. Then it checks:
# every job succeeded (else lists the dead and failed ones), `fleet results JOB --format json` works
# for each, and each job id has exactly one `job.succeeded` across all workers' logs; and prints the
# jobs, wall time, lease expiries and retried jobs. Server, workers and temporary directories are
# removed on exit, also on an error or Ctrl-C. Exit status 0 only when every check passed.
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: $0 SENTINEL [N_PROJECTS=50]" >&2
  exit 2
fi
SENTINEL=$(realpath "$1")
N_PROJECTS=${2:-50}
HERE=$(cd "$(dirname "$0")" && pwd)
RULES=$HERE/../rules
APPS=$(realpath -m "$HERE/../../shared/corpora/realvuln-dev/apps")
CACHE=${CACHE:-/work/tmp/fleet-demo-cache}
WORKERS=${WORKERS:-4}
KILL_AFTER=${KILL_AFTER:-3}
DEMO_TIMEOUT=${DEMO_TIMEOUT:-3600}
MAX_SDIST_MB=${MAX_SDIST_MB:-20}
APPS_MAX=${APPS_MAX:-13}  # fewer realvuln apps leave room for PyPI sdists in a small run
PG_BIN=/usr/lib/postgresql/15/bin
PYPI_PACKAGES=(
  requests flask jinja2 click werkzeug itsdangerous markupsafe pyyaml urllib3 idna certifi charset-normalizer
  six attrs packaging pygments rich httpx bottle paramiko tornado sqlalchemy django cryptography pytest
  twisted docutils markdown pyparsing python-dateutil pytz simplejson toml tomli colorama tabulate decorator
  more-itertools pluggy iniconfig mako pyjwt blinker sniffio anyio h11 httpcore cachetools filelock
  platformdirs gunicorn waitress webob marshmallow sortedcontainers jsonschema chardet
)

say() { echo "== $*" >&2; }
die() {
  echo "FAILED: $*" >&2
  exit 1
}
[[ -x $SENTINEL ]] || die "$SENTINEL: not an executable"
[[ $N_PROJECTS =~ ^[1-9][0-9]*$ ]] || die "N_PROJECTS must be a positive number, not '$N_PROJECTS'"
[[ $(id -u) == 0 ]] || die "needs root (PostgreSQL runs as the postgres user, which root hands its directory to)"
[[ -x $PG_BIN/initdb ]] || die "no PostgreSQL 15 at $PG_BIN (apt-get install postgresql-15)"
[[ -d $APPS ]] || die "no corpus at $APPS"

WORK=$(mktemp -d /tmp/sentinel-fleet-demo-XXXXXX)
PGDIR=""
PG_STARTED=0
WORKER_PIDS=()
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  for pid in "${WORKER_PIDS[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null || true
    fi
  done
  for pid in "${WORKER_PIDS[@]}"; do
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      say "worker $pid still running 10 s after SIGTERM: SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  if [[ $PG_STARTED == 1 ]]; then
    say "stopping PostgreSQL"
    as_postgres "$PG_BIN/pg_ctl" -D "$PGDIR/data" -m immediate -w stop >"$WORK/pg_stop.out" 2>&1 || cat "$WORK/pg_stop.out" >&2
  fi
  [[ -n $PGDIR ]] && rm -rf "$PGDIR"
  rm -rf "$WORK"
  exit "$status"
}
trap cleanup EXIT
trap 'say interrupted; exit 130' INT TERM

# A program as the postgres user, with no descriptor above stderr: the server pg_ctl starts outlives
# it and must not hold any of ours (a caller's pipe would never see its end).
as_postgres() {
  runuser -u postgres -- /usr/bin/python3 -c \
    'import os, sys; os.closerange(3, 65536); os.execv(sys.argv[1], sys.argv[1:])' "$@" </dev/null
}

# --- the projects ---------------------------------------------------------------------------------
PROJECTS=$WORK/projects.txt
: >"$PROJECTS"
count=0
for app in "$APPS"/*/; do
  [[ $count -lt $N_PROJECTS && $count -lt $APPS_MAX ]] || break
  echo "${app%/}" >>"$PROJECTS"
  count=$((count + 1))
done
say "$count realvuln apps, scanned in place under $APPS"

mkdir -p "$CACHE" "$WORK/pypi"
for package in "${PYPI_PACKAGES[@]}"; do
  [[ $count -lt $N_PROJECTS ]] || break
  cached=$CACHE/$package
  mkdir -p "$cached"
  if [[ -f $cached/.failed ]]; then
    say "skip $package: failed before ($(head -c 200 "$cached/.failed"); remove $cached to retry)"
    continue
  fi
  sdist=$(find "$cached" -maxdepth 1 -type f \( -name '*.tar.gz' -o -name '*.zip' -o -name '*.tar.bz2' \) | head -1)
  if [[ -z $sdist ]]; then
    say "pip download $package"
    if ! (cd "$WORK" && timeout 600 pip download --quiet --no-deps --no-binary :all: -d "$cached" "$package") \
      >"$WORK/pip-$package.log" 2>&1; then
      tail -3 "$WORK/pip-$package.log" | tr '\n' ' ' >"$cached/.failed"
      say "skip $package: pip download failed: $(cat "$cached/.failed")"
      continue
    fi
    sdist=$(find "$cached" -maxdepth 1 -type f \( -name '*.tar.gz' -o -name '*.zip' -o -name '*.tar.bz2' \) | head -1)
    [[ -n $sdist ]] || { say "skip $package: pip saved no sdist"; continue; }
  fi
  size_mb=$(($(stat -c %s "$sdist") / 1048576))
  if [[ $size_mb -gt $MAX_SDIST_MB ]]; then
    say "skip $package: $(basename "$sdist") is $size_mb MB (MAX_SDIST_MB=$MAX_SDIST_MB)"
    continue
  fi
  target=$WORK/pypi/$package
  mkdir -p "$target"
  case $sdist in
    *.zip) python3 -m zipfile -e "$sdist" "$target" ;;
    *) tar -xf "$sdist" -C "$target" ;;
  esac
  # An sdist unpacks to one NAME-VERSION directory: scan that.
  top=$(find "$target" -mindepth 1 -maxdepth 1 -type d | head -1)
  echo "${top:-$target}" >>"$PROJECTS"
  count=$((count + 1))
done
if [[ $count -lt $N_PROJECTS ]]; then
  say "WARNING: only $count projects (the package list ran out); the demo runs with $count"
fi

# --- PostgreSQL -----------------------------------------------------------------------------------
PGDIR=$(mktemp -d /tmp/sentinel-fleet-pg-XXXXXX)
PASSWORD=$(python3 -c 'import uuid; print(uuid.uuid4().hex)')
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf '%s' "$PASSWORD" >"$PGDIR/password"
chown postgres:postgres "$PGDIR" "$PGDIR/password"
chmod 700 "$PGDIR" "$PGDIR/password"
say "PostgreSQL: initdb in $PGDIR, port $PORT"
as_postgres "$PG_BIN/initdb" -D "$PGDIR/data" -U sentinel --auth=scram-sha-256 --pwfile="$PGDIR/password" \
  --no-sync -E UTF8 --locale=C.UTF-8 >"$WORK/initdb.out" 2>&1 || { cat "$WORK/initdb.out" >&2; die "initdb failed"; }
PG_STARTED=1
as_postgres "$PG_BIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/log" -w -t 60 \
  -o "-h 127.0.0.1 -p $PORT -k $PGDIR" start >"$WORK/pg_ctl.out" 2>&1 ||
  { cat "$WORK/pg_ctl.out" "$PGDIR/log" >&2; die "pg_ctl start failed"; }
PGPASSWORD=$PASSWORD "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PORT" -U sentinel -d postgres \
  -c "CREATE DATABASE fleetdemo" </dev/null >/dev/null
PG_VERSION=$(PGPASSWORD=$PASSWORD "$PG_BIN/psql" -X -A -t -h 127.0.0.1 -p "$PORT" -U sentinel -d postgres \
  -c "SHOW server_version" </dev/null)
say "PostgreSQL $PG_VERSION up"

# Every sentinel below finds the queue (password included) here, never on its command line.
export SENTINEL_DATABASE_URL="postgres://sentinel:$PASSWORD@127.0.0.1:$PORT/fleetdemo"
export SENTINEL_RULES=$RULES
export SENTINEL_HOME=$WORK/home-cli
mkdir -p "$SENTINEL_HOME"
fleet() { "$SENTINEL" fleet "$@" </dev/null; }
psql_demo() {
  PGPASSWORD=$PASSWORD "$PG_BIN/psql" -X -A -t -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PORT" -U sentinel -d fleetdemo \
    -c "$1" </dev/null
}
# `fleet jobs --format json`; when it fails (on PostgreSQL it did at a410e49: "could not determine
# data type of parameter $1" from `$1 IS NULL` in JobQueue.jobs), the same fields read with psql.
jobs_json() {  # [STATE]
  local state=${1:-}
  if fleet jobs ${state:+--state "$state"} --format json --limit 100000 2>"$WORK/jobs.err"; then return; fi
  say "WARNING: sentinel fleet jobs ${state:+--state $state }failed ($(head -c 300 "$WORK/jobs.err")); reading fleet_jobs with psql"
  psql_demo "SELECT coalesce(json_agg(json_build_object('id', id, 'state', state, 'attempts', attempts,
    'maxAttempts', max_attempts, 'leaseExpiries', lease_expiries, 'lastError', last_error,
    'repository', repository) ORDER BY id DESC), '[]') FROM fleet_jobs${state:+ WHERE state = '$state'}"
}
status_json() { fleet status --format json | python3 -c 'import json, sys; d = json.load(sys.stdin); print(" ".join(f"{k}={d[k]}" for k in ("queued", "running", "succeeded", "failed", "dead", "cancelled")))'; }

# --- submit ---------------------------------------------------------------------------------------
touch "$WORK/stamp"  # files under $APPS newer than this were changed by a scan
JOBS=$WORK/jobs.tsv
: >"$JOBS"
while read -r project; do
  id=$(fleet submit scan "$project" --tools native,secrets) || die "fleet submit scan $project failed"
  printf '%s\t%s\n' "$id" "$project" >>"$JOBS"
done <"$PROJECTS"
N_JOBS=$(wc -l <"$JOBS")
say "submitted $N_JOBS scans: $(status_json)"

# --- workers --------------------------------------------------------------------------------------
START=$(date +%s.%N)
# One fleet, one audit key (as an operator copies it to every machine): each worker is given it.
(umask 077 && openssl rand -hex 32 >"$WORK/fleet-audit.key")
for k in $(seq 0 $((WORKERS - 1))); do
  mkdir -p "$WORK/home-w$k"
  # Workers run local repositories only under their roots: the realvuln apps and the unpacked sdists.
  SENTINEL_HOME=$WORK/home-w$k "$SENTINEL" fleet worker --lease 10s --retry-base 1s --name "w$k" \
    --audit-key-file "$WORK/fleet-audit.key" \
    --repository-root "$APPS" --repository-root "$WORK/pypi" </dev/null 2>"$WORK/worker-$k.log" &
  WORKER_PIDS+=($!)
done
say "started $WORKERS workers (pids ${WORKER_PIDS[*]}), lease 10s, retry base 1s"

events() { cat "$WORK"/worker-*.log 2>/dev/null | grep -c "\"event\":\"$1\"" || true; }

# Kill the worker running a job once KILL_AFTER jobs succeeded (any worker after 10 s of looking).
deadline=$(($(date +%s) + DEMO_TIMEOUT))
while [[ $(events job.succeeded) -lt $KILL_AFTER ]]; do
  [[ $(date +%s) -lt $deadline ]] || die "fewer than $KILL_AFTER jobs succeeded in $DEMO_TIMEOUT s"
  sleep 0.2
done
victim=""
victim_job=""
for _ in $(seq 100); do
  for k in $(seq 0 $((WORKERS - 1))); do
    last=$(grep -E '"event":"job\.(claimed|succeeded|retry|dead|failed|lease_lost|released)"' "$WORK/worker-$k.log" | tail -1 || true)
    if [[ $last == *'"event":"job.claimed"'* ]]; then
      victim=$k
      victim_job=$(sed -E 's/.*"job":([0-9]+).*/\1/' <<<"$last")
      break 2
    fi
  done
  sleep 0.1
done
if [[ -z $victim ]]; then
  victim=0
  say "no worker was mid-job for 10 s; killing w0 anyway"
fi
kill -KILL "${WORKER_PIDS[$victim]}"
KILLED_AT=$(date +%s.%N)
say "SIGKILL worker w$victim (pid ${WORKER_PIDS[$victim]})${victim_job:+ while it ran job $victim_job} after $(events job.succeeded) jobs succeeded"

# --- wait until nothing is queued or running ------------------------------------------------------
previous=""
while true; do
  line=$(status_json) || die "fleet status failed"
  [[ $line != "$previous" ]] && say "status: $line"
  previous=$line
  if [[ $line == *"queued=0 running=0 "* ]]; then break; fi
  for k in $(seq 0 $((WORKERS - 1))); do
    [[ $k == "$victim" ]] && continue
    kill -0 "${WORKER_PIDS[$k]}" 2>/dev/null || { tail -20 "$WORK/worker-$k.log" >&2; die "worker w$k exited early"; }
  done
  [[ $(date +%s) -lt $deadline ]] || die "jobs still queued or running after $DEMO_TIMEOUT s"
  sleep 2
done
END=$(date +%s.%N)

# --- stop the workers -----------------------------------------------------------------------------
for k in $(seq 0 $((WORKERS - 1))); do
  [[ $k == "$victim" ]] || kill -TERM "${WORKER_PIDS[$k]}"
done
STOP_FAILURES=0
for k in $(seq 0 $((WORKERS - 1))); do
  status=0
  wait "${WORKER_PIDS[$k]}" || status=$?
  if [[ $k == "$victim" ]]; then
    [[ $status == 137 ]] || say "WARNING: killed worker w$k exited $status, not 137"
  elif [[ $status != 0 ]]; then
    say "worker w$k exited $status after SIGTERM"
    STOP_FAILURES=$((STOP_FAILURES + 1))
  fi
done

# --- checks ---------------------------------------------------------------------------------------
FAILURES=0
final=$(status_json)
say "final status: $final"
if [[ $final != *"succeeded=$N_JOBS "* ]]; then
  FAILURES=$((FAILURES + 1))
  say "not every job succeeded; dead and failed jobs:"
  for state in dead failed; do
    jobs_json "$state" >"$WORK/jobs-$state.json"
    python3 - "$WORK/jobs-$state.json" >&2 <<'PY'
import json, sys
for j in json.load(open(sys.argv[1])):
    print(f"  {j['state']} job {j['id']} ({j['attempts']}/{j['maxAttempts']} attempts) {j['repository']}: {j['lastError']}")
PY
  done
fi

RESULTS_OK=0
RESULT_FINDINGS=$WORK/findings.tsv
: >"$RESULT_FINDINGS"
while IFS=$'\t' read -r id project; do
  if fleet results "$id" --format json >"$WORK/result-$id.json" 2>"$WORK/result-$id.err"; then
    RESULTS_OK=$((RESULTS_OK + 1))
    printf '%s\t%s\t%s\n' "$id" \
      "$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["findings"]))' "$WORK/result-$id.json")" \
      "$project" >>"$RESULT_FINDINGS"
  else
    FAILURES=$((FAILURES + 1))
    say "fleet results $id ($project) failed: $(cat "$WORK/result-$id.err")"
  fi
done <"$JOBS"

jobs_json >"$WORK/jobs.json"
python3 - "$JOBS" "$WORK/jobs.json" "$victim" "$victim_job" "$WORK"/worker-*.log <<'PY' || FAILURES=$((FAILURES + 1))
import collections, json, sys
jobs_file, jobs_json, victim, victim_job, *logs = sys.argv[1:]
submitted = [int(line.split("\t")[0]) for line in open(jobs_file) if line.strip()]
events = []
for log in logs:
    for line in open(log, errors="replace"):
        if line.startswith("{"):
            try:
                events.append(json.loads(line))
            except json.JSONDecodeError:
                print(f"{log}: not JSON: {line.strip()[:200]}", file=sys.stderr)
succeeded = collections.Counter(e["job"] for e in events if e.get("event") == "job.succeeded")
by_worker = collections.Counter(e.get("worker") for e in events if e.get("event") == "job.succeeded")
wrong = {j: succeeded.get(j, 0) for j in submitted if succeeded.get(j, 0) != 1}
stray = sorted(set(succeeded) - set(submitted))
expired = [e for e in events if e.get("event") == "lease.expired"]
retries = [e for e in events if e.get("event") == "job.retry"]
jobs = json.load(open(jobs_json))
again = [j for j in jobs if j["attempts"] > 1]
print(f"job.succeeded events: {sum(succeeded.values())} for {len(submitted)} jobs; per worker: "
      + ", ".join(f"{w} {n}" for w, n in sorted(by_worker.items())))
print(f"lease expiries seen: {len(expired)} "
      + " ".join(f"(job {e['job']} of {e['holder']} -> {e['state']}, reaped by {e['worker']})" for e in expired))
print(f"job.retry events: {len(retries)}; jobs run more than once: {len(again)} "
      + " ".join(f"(job {j['id']}: {j['attempts']} attempts, {j['leaseExpiries']} lease expiries)" for j in again))
if victim_job:
    j = next((j for j in jobs if str(j["id"]) == victim_job), None)
    winner = [e.get("worker") for e in events if e.get("event") == "job.succeeded" and str(e["job"]) == victim_job]
    print(f"the killed worker's job {victim_job}: {j['state'] if j else '?'} after {j['attempts'] if j else '?'} attempts, "
          f"succeeded on {winner}")
for e in events:
    if e.get("event") in ("job.dead", "job.failed", "job.lease_lost", "database.error"):
        print(f"{e.get('event')}: {json.dumps(e)[:300]}")
if wrong or stray:
    print(f"EXACTLY-ONCE VIOLATED: job -> job.succeeded count {wrong}; events for unknown jobs {stray}")
    sys.exit(1)
print("every job has exactly one job.succeeded event")
PY

changed=$(find "$APPS" -newer "$WORK/stamp" -print | head -5)
if [[ -n $changed ]]; then
  FAILURES=$((FAILURES + 1))
  say "files under $APPS changed during the run (they must be read in place, read-only): $changed"
fi

# Every outcome and the lease expiry are in the fleet's audit chain, and it is intact.
if audit=$(fleet audit verify); then
  say "$(head -1 <<<"$audit")"
else
  FAILURES=$((FAILURES + 1))
  say "fleet audit verify failed: $audit"
fi

wall=$(python3 -c "print(f'{$END - $START:.1f}')")
after_kill=$(python3 -c "print(f'{$END - $KILLED_AT:.1f}')")
echo
echo "Fleet demo: $N_JOBS projects ($(grep -c "^$APPS" "$PROJECTS") realvuln apps in place, $(grep -vc "^$APPS" "$PROJECTS" || true) PyPI sdists),"
echo "  $WORKERS workers on PostgreSQL $PG_VERSION, worker w$victim SIGKILLed${victim_job:+ during job $victim_job}"
echo "  wall time ${wall} s from the workers' start (${after_kill} s after the kill); $(nproc) × $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "  results readable: $RESULTS_OK/$N_JOBS; findings per job (id, findings, project):"
sed 's/^/    /' "$RESULT_FINDINGS"
echo "  final status: $final"
if [[ $FAILURES -gt 0 || $STOP_FAILURES -gt 0 ]]; then
  die "$FAILURES check(s) failed, $STOP_FAILURES worker(s) did not stop cleanly"
fi
echo "PASS: every job succeeded exactly once, each result readable"
