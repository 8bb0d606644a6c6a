#!/usr/bin/env python3
"""Fleet throughput (issue 32): the queue's own ceiling, small scans per worker count, and how many
worker machines one PostgreSQL would carry.

    bench/fleet-throughput.py SENTINEL SENTINEL_BENCH [--jobs 100] [--workers 1,2,4,8] [--queued 10000]
        [--fsync on|off] [--timeout SECONDS] [--skip-ceiling] [--kind scan|noop] [--concurrency N]

Starts its own PostgreSQL 15 (initdb as the `postgres` user in a fresh temporary directory, SCRAM
password for role `sentinel`, 127.0.0.1 at a free port; stopped and removed at the end, also on an
error or Ctrl-C; needs root) with a new database per measurement, then:

  a. queue ceiling: `sentinel-bench queue` per worker count: 10,000 no-op jobs submitted, then W
     threads (one connection each) claim and complete them: claims+completes per second of one
     PostgreSQL, no scan work;
  b. small scans: a five-file Python project with three findings submitted --jobs times
     (`sentinel fleet submit scan DIR --tools native,secrets`), then W `sentinel fleet worker`
     processes (concurrency 1, each its own SENTINEL_HOME, as separate machines would have) started
     together; wall time until the last job ends, jobs/s, claim latency (the workers'
     `sentinel_fleet_claim_seconds` histogram), the gap between a worker's jobs (its log), the
     median job time (`job.succeeded` seconds), and CPU: the machine's (/proc/stat) split into the
     workers with their scans and PostgreSQL, so the bottleneck can be named. Every job must have
     succeeded exactly once (one `job.succeeded` per job id across the workers' logs, `fleet status`
     agreeing). `--kind noop` (issue 58) submits no-op jobs instead (`sentinel fleet submit noop`
     once, copied in SQL --jobs times: a submitting process per job would dominate the run),
     which the workers claim and record with no process: the fleet's own cost per job, audit
     included. `--concurrency N` gives each worker N slots. Each run also samples the server's
     connections to its database (pg_stat_activity, psql's own left out) every half second while
     the workers run and reports the most seen, total and per worker;
  c. markdown tables for BENCHMARKS.md with the machine, date and PostgreSQL version, and the
     capacity model: machines = queue ceiling / jobs per second of one saturated worker machine.

The server runs with fsync on by default (a real server's commit cost; the tests use fsync=off:
--fsync off measures that). The queue client, the workers and the server share this machine, so
the ceiling is a lower bound for a server on its own host. Pass release binaries for figures.
"""
import argparse
import datetime
import json
import os
import pwd
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

PG_BIN = Path("/usr/lib/postgresql/15/bin")
HERE = Path(__file__).resolve().parent
RULES = HERE.parent / "rules"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def say(message):
    print(f"== {message}", file=sys.stderr, flush=True)


def stop_workers(procs, timeout, resume=False):
    """SIGTERM to every worker still running (SIGCONT first when `resume`: a stopped one cannot
    drain), then waits up to `timeout` seconds for each; one that ignored it gets SIGKILL.
    `procs`: {name: Popen}."""
    for proc in procs.values():
        if proc.poll() is None:
            if resume:
                proc.send_signal(signal.SIGCONT)
            proc.send_signal(signal.SIGTERM)
    for name, proc in procs.items():
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            say(f"worker {name} ignored SIGTERM for {timeout} s: SIGKILL")
            proc.kill()
            proc.wait()


class Failure(Exception):
    """A step that went wrong; main prints it and exits 1 after cleaning up."""


def run(argv, *, env=None, timeout=600, check=True, as_postgres=False):
    """Runs argv with output to a temporary file (never a pipe: a server pg_ctl starts would hold
    its write end open); returns (status, output)."""
    if as_postgres:
        # runuser drops root for postgres without a login shell; descriptors above stderr stay ours.
        argv = ["runuser", "-u", "postgres", "--"] + argv
    with tempfile.TemporaryFile() as out:
        status = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=out, env=env, timeout=timeout,
                                cwd="/", close_fds=True).returncode
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    if check and status != 0:
        raise Failure(f"{' '.join(map(str, argv))} exited {status}:\n{text.strip()}")
    return status, text


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Postgres:
    """A throwaway server, as Tests/TestSupport/PostgresServer.swift starts one."""

    user = "sentinel"

    def __init__(self, fsync, ssl=False):
        if os.geteuid() != 0:
            raise Failure("needs root (PostgreSQL runs as the postgres user, which root hands the directory to)")
        if not (PG_BIN / "initdb").exists():
            raise Failure(f"no PostgreSQL 15 at {PG_BIN} (apt-get install postgresql-15)")
        account = pwd.getpwnam("postgres")
        self.password = uuid.uuid4().hex
        self.directory = Path(tempfile.mkdtemp(prefix="sentinel-fleet-pg-"))
        self.port = free_port()
        self.started = False
        password_file = self.directory / "password"
        password_file.write_text(self.password)
        for path in (self.directory, password_file):
            os.chown(path, account.pw_uid, account.pw_gid)
            os.chmod(path, 0o700)
        say(f"PostgreSQL: initdb in {self.directory}, port {self.port}, fsync={fsync}")
        run([str(PG_BIN / "initdb"), "-D", str(self.directory / "data"), "-U", self.user, "--auth=scram-sha-256",
             f"--pwfile={password_file}", "--no-sync", "-E", "UTF8", "--locale=C.UTF-8"], as_postgres=True)
        self.started = True
        options = f"-h 127.0.0.1 -p {self.port} -k {self.directory} -c fsync={fsync}"
        if ssl:
            # As Debian's packaged cluster runs (ssl = on, a self-signed certificate): clients that
            # prefer TLS, libpq's default, then use it.
            data = self.directory / "data"
            run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
                 "-keyout", str(data / "server.key"), "-out", str(data / "server.crt")], as_postgres=True)
            options += " -c ssl=on"
        run([str(PG_BIN / "pg_ctl"), "-D", str(self.directory / "data"), "-l", str(self.directory / "log"), "-w",
             "-t", "60", "-o", options, "start"], as_postgres=True)
        self.version = self.psql("SHOW server_version").strip()

    def url(self, database):
        return f"postgres://{self.user}:{self.password}@127.0.0.1:{self.port}/{database}"

    def psql(self, sql, database="postgres"):
        env = dict(os.environ, PGPASSWORD=self.password)
        return run([str(PG_BIN / "psql"), "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p",
                    str(self.port), "-U", self.user, "-d", database, "-c", sql], env=env)[1]

    def create_database(self, name):
        self.psql(f"CREATE DATABASE {name}")
        return self.url(name)

    def drop_database(self, name):
        self.psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def postmaster_pid(self):
        return int((self.directory / "data" / "postmaster.pid").read_text().split()[0])

    def stop(self):
        if self.started:
            say("PostgreSQL: stopping")
            run([str(PG_BIN / "pg_ctl"), "-D", str(self.directory / "data"), "-m", "immediate", "-w", "stop"],
                as_postgres=True, check=False)
            self.started = False
        shutil.rmtree(self.directory, ignore_errors=True)


# --- CPU accounting -------------------------------------------------------------------------------

def machine_ticks():
    """(busy, iowait, total) jiffies of all CPUs from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle, iowait = fields[3], fields[4]
    total = sum(fields[:8])  # user nice system idle iowait irq softirq steal (guest is inside user)
    return total - idle - iowait, iowait, total


def process_ticks(pid, children_too=True):
    """utime+stime (+ the reaped children's) of pid, 0 when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0
    fields = text[text.rindex(")") + 2:].split()
    ticks = int(fields[11]) + int(fields[12])
    if children_too:
        ticks += int(fields[13]) + int(fields[14])
    return ticks


def postgres_ticks(postmaster):
    """The server's CPU: the postmaster, its live children, and the children it reaped."""
    ticks = process_ticks(postmaster)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                text = (entry / "stat").read_text()
            except OSError:
                continue
            if int(text[text.rindex(")") + 2:].split()[1]) == postmaster:
                ticks += process_ticks(int(entry.name))
    return ticks


def settled_postgres_ticks(postmaster):
    """postgres_ticks once it stops changing: a backend whose client just left may exit and be reaped
    between reading the postmaster and its children, and would be missed."""
    last = postgres_ticks(postmaster)
    for _ in range(20):
        time.sleep(0.1)
        now = postgres_ticks(postmaster)
        if now == last:
            break
        last = now
    return last


class CpuWindow:
    """Machine and per-party CPU between start() and stop()."""

    def __init__(self, postgres_pid):
        self.postgres_pid = postgres_pid

    def start(self):
        self.pg0 = settled_postgres_ticks(self.postgres_pid)
        self.t0 = time.monotonic()
        self.machine0 = machine_ticks()

    def stop(self, client_ticks):
        """client_ticks: the CPU our clients (workers with their scans, or the bench) used in the window."""
        seconds = time.monotonic() - self.t0
        busy1, iowait1, total1 = machine_ticks()
        busy0, iowait0, total0 = self.machine0
        total = max(1, total1 - total0)
        pg = settled_postgres_ticks(self.postgres_pid) - self.pg0
        return {
            "seconds": seconds,
            "busyPercent": 100.0 * (busy1 - busy0) / total,
            "iowaitPercent": 100.0 * (iowait1 - iowait0) / total,
            "clientPercent": 100.0 * client_ticks / total,
            "postgresPercent": 100.0 * pg / total,
            "otherPercent": 100.0 * max(0, (busy1 - busy0) - client_ticks - pg) / total,
        }


# --- a. queue ceiling -----------------------------------------------------------------------------

def queue_ceiling(server, bench, workers, queued):
    name = f"ceiling_w{workers}_{uuid.uuid4().hex[:8]}"
    url = server.create_database(name)
    say(f"queue ceiling: {queued} no-op jobs, {workers} claiming connection(s) (database {name})")
    cpu = CpuWindow(server.postmaster_pid())
    env = dict(os.environ, SENTINEL_DATABASE_URL=url)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        cpu.start()
        child = subprocess.Popen([bench, "queue", "--queued", str(queued), "--workers", str(workers)],
                                 stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        window = cpu.stop(round((usage.ru_utime + usage.ru_stime) * CLOCK_TICKS))
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(), err.read().decode()
    if child.returncode != 0:
        raise Failure(f"sentinel-bench queue --workers {workers} exited {child.returncode}:\n{stderr.strip()}")
    lines = [line for line in stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise Failure(f"sentinel-bench queue printed no JSON:\n{stdout}{stderr}")
    result = json.loads(lines[-1])
    result["cpu"] = window  # the window includes submitting; the bench's own CPU is clientPercent
    print(json.dumps(result), flush=True)
    server.drop_database(name)
    return result


# --- b. small scans -------------------------------------------------------------------------------

PROJECT = {
    "app.py": "import subprocess\n\nfrom .util import quote\n\n\ndef run(cmd):\n"
              "    return subprocess.call(quote(cmd), shell=True)\n",
    "settings.py": 'DEBUG = False\nDATABASE_PASSWORD = "Sup3rS3cretPassw0rd!2024"\n',
    "util.py": "import shlex\n\n\ndef quote(text):\n    return shlex.quote(text)\n",
    "models.py": "class User:\n    def __init__(self, name):\n        self.name = name\n\n"
                 "    def greeting(self):\n        return f'hello {self.name}'\n",
    "__init__.py": "",
}


def make_project(root):
    project = Path(root) / "smallapp"
    project.mkdir()
    for name, text in PROJECT.items():
        (project / name).write_text(text)
    return project


def parse_ts(text):
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(
        tzinfo=datetime.timezone.utc).timestamp()


def read_log(path):
    events = []
    for line in Path(path).read_text(errors="replace").splitlines():
        if line.startswith("{"):
            try:
                events.append(json.loads(line))
            except json.JSONDecodeError:
                pass
    return events


def histogram(texts, name):
    """Sums Prometheus histogram `name` over several /metrics bodies: ([(le, cumulative)], sum, count)."""
    buckets, total, count = {}, 0.0, 0
    for text in texts:
        for line in text.splitlines():
            m = re.match(rf'{name}_bucket\{{.*?le="([^"]+)".*?\}} (\S+)', line)
            if m:
                le = float("inf") if m.group(1) == "+Inf" else float(m.group(1))
                buckets[le] = buckets.get(le, 0) + float(m.group(2))
            elif line.startswith(f"{name}_sum"):
                total += float(line.split()[-1])
            elif line.startswith(f"{name}_count"):
                count += int(float(line.split()[-1]))
    return sorted(buckets.items()), total, count


def bucket_quantile(buckets, count, q):
    """The upper bound of the bucket holding quantile q (Prometheus's resolution)."""
    for le, cumulative in buckets:
        if cumulative >= q * count:
            return le
    return float("inf")


def sentinel_env(home, url=None):
    env = dict(os.environ, SENTINEL_HOME=str(home), SENTINEL_RULES=str(RULES))
    env.pop("SENTINEL_DATABASE_URL", None)
    if url:
        env["SENTINEL_DATABASE_URL"] = url
    return env


def connections(server, name):
    """Sessions connected to database `name` now, psql's own left out."""
    text = server.psql("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                       "AND pid <> pg_backend_pid()", database=name)
    return int(text.strip())


def small_scans(server, sentinel, workers, jobs, work, timeout, kind="scan", concurrency=1):
    name = f"{kind}_w{workers}_{uuid.uuid4().hex[:8]}"
    url = server.create_database(name)
    run_dir = Path(tempfile.mkdtemp(prefix=f"w{workers}-", dir=work))
    # The repository root holds the project only: a worker refuses a root that holds its own state.
    (run_dir / "repos").mkdir()
    project = make_project(run_dir / "repos")
    submit_home = run_dir / "home-submit"
    submit_home.mkdir()
    ids = []
    if kind == "noop":
        say(f"no-op jobs: submitting {jobs} (database {name})")
        text = run([sentinel, "fleet", "submit", "noop"], env=sentinel_env(submit_home, url))[1]
        first = int(text.strip().splitlines()[-1])
        if jobs > 1:
            server.psql("INSERT INTO fleet_jobs (kind, spec, repository, branch, priority, max_attempts, run_after, "
                        "created_at) SELECT kind, spec, repository, branch, priority, max_attempts, run_after, created_at "
                        f"FROM fleet_jobs, generate_series(2, {jobs}) WHERE id = {first}", database=name)
        ids = [int(x) for x in server.psql("SELECT id FROM fleet_jobs ORDER BY id", database=name).split()]
    else:
        say(f"small scans: submitting {jobs} scans of {project} (database {name})")
        for _ in range(jobs):
            text = run([sentinel, "fleet", "submit", "scan", str(project), "--tools", "native,secrets"],
                       env=sentinel_env(submit_home, url))[1]
            ids.append(int(text.strip().splitlines()[-1]))
    say(f"small scans: starting {workers} worker process(es)")
    cpu = CpuWindow(server.postmaster_pid())
    procs, logs = [], []
    started = time.time()
    # One fleet, one audit key (as an operator copies it to every machine): each worker is given it.
    key = run_dir / "fleet-audit.key"
    with os.fdopen(os.open(key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as handle:
        handle.write(secrets.token_hex(32) + "\n")
    cpu.start()
    try:
        for k in range(workers):
            home = run_dir / f"home-w{k}"
            home.mkdir()
            log = run_dir / f"worker-{k}.log"
            logs.append(log)
            with open(log, "wb") as handle:
                procs.append(subprocess.Popen(
                    [sentinel, "fleet", "worker", "--concurrency", str(concurrency), "--metrics", "0", "--name", f"w{k}",
                     "--audit-key-file", str(key), "--repository-root", str(run_dir / "repos")],
                    stdin=subprocess.DEVNULL, stdout=handle, stderr=subprocess.STDOUT,
                    env=sentinel_env(home, url)))
        # Done when every job has a terminal event in some worker's log (reading files costs no CPU
        # a `fleet status` process would take from the scans).
        deadline = time.monotonic() + timeout
        most_connections, next_sample = 0, 0.0
        while True:
            if time.monotonic() >= next_sample:
                most_connections = max(most_connections, connections(server, name))
                next_sample = time.monotonic() + 0.5
            events = [e for log in logs for e in read_log(log)]
            terminal = [e for e in events if e.get("event") in ("job.succeeded", "job.failed", "job.dead")]
            if len({e.get("job") for e in terminal}) >= jobs:
                break
            for k, proc in enumerate(procs):
                if proc.poll() is not None:
                    raise Failure(f"worker w{k} exited {proc.returncode} early; its log:\n{logs[k].read_text()[-3000:]}")
            if time.monotonic() > deadline:
                tails = "".join(f"\n--- {log.name}\n" + log.read_text(errors="replace")[-2000:] for log in logs)
                raise Failure(f"{len(terminal)}/{jobs} jobs ended after {timeout} s{tails}")
            time.sleep(0.1)
        # CPU of the workers, with their reaped scan processes, read before they stop.
        client = sum(process_ticks(p.pid) for p in procs)
        window = cpu.stop(client)
        metrics = []
        for log in logs:
            serving = [e for e in read_log(log) if e.get("event") == "metrics.serving"]
            if not serving:
                raise Failure(f"{log}: no metrics.serving line")
            with urllib.request.urlopen(serving[0]["url"], timeout=10) as response:
                metrics.append(response.read().decode())
        status = json.loads(run([sentinel, "fleet", "status", "--format", "json"],
                                env=sentinel_env(submit_home, url))[1])
    finally:
        stop_workers({f"w{k}": proc for k, proc in enumerate(procs)}, 60)
    events = [e for log in logs for e in read_log(log)]
    stopped = sum(1 for e in events if e.get("event") == "worker.stopped")
    succeeded = [e for e in events if e.get("event") == "job.succeeded"]
    per_job = {}
    for e in succeeded:
        per_job[e["job"]] = per_job.get(e["job"], 0) + 1
    twice = sorted(j for j, n in per_job.items() if n > 1)
    missing = sorted(set(ids) - set(per_job))
    exactly_once = not twice and not missing and len(succeeded) == jobs and status.get("succeeded") == jobs
    last_end = max(parse_ts(e["ts"]) for e in succeeded) if succeeded else time.time()
    wall = last_end - started
    # The gap between a worker's jobs: from one job.succeeded to its next job.claimed.
    gaps = []
    for log in logs:
        previous = None
        for e in read_log(log):
            if e.get("event") == "job.succeeded":
                previous = parse_ts(e["ts"])
            elif e.get("event") == "job.claimed" and previous is not None:
                gaps.append(parse_ts(e["ts"]) - previous)
                previous = None
    buckets, claim_sum, claim_count = histogram(metrics, "sentinel_fleet_claim_seconds")
    result = {
        "kind": kind,
        "workers": workers,
        "concurrency": concurrency,
        "connectionsMost": most_connections,
        "connectionsPerWorker": most_connections / workers,
        "jobs": jobs,
        "wallSeconds": wall,
        "jobsPerSecond": jobs / wall if wall > 0 else None,
        "jobSecondsMedian": statistics.median(e["seconds"] for e in succeeded) if succeeded else None,
        "claimMs": {"mean": 1000 * claim_sum / claim_count if claim_count else None,
                    "p50le": 1000 * bucket_quantile(buckets, claim_count, 0.5),
                    "p95le": 1000 * bucket_quantile(buckets, claim_count, 0.95), "claims": claim_count},
        "gapMsMedian": 1000 * statistics.median(gaps) if gaps else None,
        "cpu": window,
        "status": status,
        "succeededEvents": len(succeeded),
        "jobsSucceededTwice": twice,
        "jobsWithoutSuccess": missing,
        "retries": sum(1 for e in events if e.get("event") == "job.retry"),
        "leaseExpiries": sum(1 for e in events if e.get("event") == "lease.expired"),
        "exactlyOnce": exactly_once,
        "workersStopped": stopped,
    }
    print(json.dumps(result), flush=True)
    if stopped != workers:
        say(f"warning: {stopped}/{workers} workers logged worker.stopped after SIGTERM")
    server.drop_database(name)
    shutil.rmtree(run_dir, ignore_errors=True)
    return result


# --- c. the report --------------------------------------------------------------------------------

def cpu_model():
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown"


def fmt(value, digits=1):
    return "–" if value is None else f"{value:.{digits}f}"


def report(args, server, ceiling, scans):
    cores = os.cpu_count()
    print()
    print(f"Machine: {cores} × {cpu_model()}; {datetime.date.today().isoformat()}; PostgreSQL {server.version} "
          f"(fsync={args.fsync}) on the same machine; sentinel {args.sentinel}")
    if any("/debug/" in path for path in (args.sentinel, args.bench)):
        print("WARNING: a debug build was measured; use release binaries for BENCHMARKS.md.")
    print()
    if ceiling:
        print_ceiling(args, ceiling)
    print_scans(args, scans)
    if ceiling:
        print_model(cores, ceiling, scans)


def print_ceiling(args, ceiling):
    print(f"Queue ceiling ({args.queued} no-op jobs queued, `sentinel-bench queue`: claim + complete, one connection per "
          "thread; CPU over submitting and draining):")
    print()
    print("| threads | jobs/s | claim p50 / p95 / p99 ms | complete p50 / p95 / p99 ms | submit/s | CPU busy % | PostgreSQL % "
          "| client % | other % |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in ceiling:
        c, k, cpu = r["claimMs"], r["completeMs"], r["cpu"]
        print(f"| {r['workers']} | {r['jobsPerSecond']:.0f} | {c['p50']:.2f} / {c['p95']:.2f} / {c['p99']:.2f} "
              f"| {k['p50']:.2f} / {k['p95']:.2f} / {k['p99']:.2f} | {r['submitPerSecond']:.0f} "
              f"| {cpu['busyPercent']:.0f} | {cpu['postgresPercent']:.0f} | {cpu['clientPercent']:.0f} "
              f"| {cpu['otherPercent']:.0f} |")
    print()


def print_scans(args, scans):
    what = ("no-op jobs (`sentinel fleet submit noop`: no process, no checkout)" if args.kind == "noop"
            else "scans of a 5-file Python project, `--tools native,secrets`")
    print(f"{args.jobs} {what}; W worker processes, concurrency {args.concurrency} each:")
    print()
    print("| workers | jobs | wall s | jobs/s | median job s | claim mean ms (p95 ≤) | gap between jobs ms | "
          "CPU busy % | workers+scans % | PostgreSQL % | other % | connections (per worker) | each job succeeded once |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in scans:
        cpu, c = r["cpu"], r["claimMs"]
        once = "yes" if r["exactlyOnce"] else (f"NO: {r['succeededEvents']} events, twice {r['jobsSucceededTwice']}, "
                                               f"none {r['jobsWithoutSuccess']}, status {r['status']}")
        print(f"| {r['workers']} | {r['jobs']} | {r['wallSeconds']:.2f} | {fmt(r['jobsPerSecond'], 2)} "
              f"| {fmt(r['jobSecondsMedian'], 3)} | {fmt(c['mean'], 2)} ({fmt(c['p95le'], 1)}) | {fmt(r['gapMsMedian'], 0)} "
              f"| {cpu['busyPercent']:.0f} | {cpu['clientPercent']:.0f} | {cpu['postgresPercent']:.0f} "
              f"| {cpu['otherPercent']:.0f} | {r['connectionsMost']} ({r['connectionsPerWorker']:.1f}) | {once} |")
    print()


def name_bottleneck(cpu):
    """What limited a run, from its CPU split."""
    split = (f"machine busy {cpu['busyPercent']:.0f} %: workers and scans {cpu['clientPercent']:.0f} %, "
             f"PostgreSQL {cpu['postgresPercent']:.0f} %, other processes {cpu['otherPercent']:.0f} %")
    if cpu["busyPercent"] < 85:
        verdict = "not CPU-bound (waiting: latency or I/O)"
    elif cpu["postgresPercent"] > cpu["clientPercent"]:
        verdict = "CPU-bound, PostgreSQL the larger share"
    else:
        verdict = "CPU-bound on the scans"
    if cpu["otherPercent"] > 10:
        verdict += "; WARNING: other processes took a share, so these figures are low"
    return f"{verdict} ({split})"


def print_model(cores, ceiling, scans):
    best_ceiling = max(ceiling, key=lambda r: r["jobsPerSecond"])
    best_scans = max(scans, key=lambda r: r["jobsPerSecond"] or 0)
    c = best_ceiling["jobsPerSecond"]
    m = best_scans["jobsPerSecond"]
    t = best_scans["jobSecondsMedian"]
    bottleneck = name_bottleneck(best_scans["cpu"])
    print("Capacity model:")
    print()
    print(f"- Queue ceiling C = {c:.0f} jobs/s (claim + complete, {best_ceiling['workers']} connection(s), "
          f"PostgreSQL sharing {cores} cores with the client).")
    print(f"- One worker machine of this size ({cores} cores) saturated with small scans: M = {m:.2f} jobs/s "
          f"({best_scans['workers']} worker(s); median job {t:.3f} s; {bottleneck}).")
    print(f"- Machines one PostgreSQL carries ≈ C / M = {c:.0f} / {m:.2f} ≈ {c / m:.0f} "
          f"(equivalently C × t_job / slots = {c:.0f} × {t:.3f} / {best_scans['workers']} ≈ "
          f"{c * t / best_scans['workers']:.0f} with the median job time).")
    print("- Not in C: lease renewals (one per running job per lease/3; none for a sub-second scan), each worker "
          "slot's expired-lease sweep (once a second) and queue-depth read (every 5 s), and results larger than "
          "an empty one; a real scan's report and findings make complete() dearer.")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sentinel")
    parser.add_argument("bench")
    parser.add_argument("--jobs", type=int, default=100, help="small scans per worker count (default 100)")
    parser.add_argument("--workers", default="1,2,4,8", help="worker counts (default 1,2,4,8)")
    parser.add_argument("--queued", type=int, default=10000, help="no-op jobs for the queue ceiling (default 10000)")
    parser.add_argument("--fsync", choices=["on", "off"], default="on", help="the server's fsync (default on)")
    parser.add_argument("--timeout", type=float, default=0, help="seconds per scan run (default 60 + 10 × jobs)")
    parser.add_argument("--skip-ceiling", action="store_true", help="only the small scans")
    parser.add_argument("--kind", choices=["scan", "noop"], default="scan",
                        help="the workers' jobs: small scans, or no-op jobs (default scan)")
    parser.add_argument("--concurrency", type=int, default=1, help="slots per worker process (default 1)")
    args = parser.parse_args()
    args.sentinel = str(Path(args.sentinel).resolve())
    args.bench = str(Path(args.bench).resolve())
    for binary in (args.sentinel, args.bench):
        if not os.access(binary, os.X_OK):
            parser.error(f"{binary}: not an executable")
    try:
        counts = [int(x) for x in args.workers.split(",")]
    except ValueError:
        parser.error(f"--workers {args.workers}: a comma-separated list of numbers")
    if args.jobs < 1 or args.queued < 1 or not counts or min(counts) < 1 or args.concurrency < 1:
        parser.error("--jobs, --queued, --workers and --concurrency must be positive")
    timeout = args.timeout or 60 + 10 * args.jobs

    # SIGTERM (and SIGHUP) end the run like Ctrl-C: through the finally below.
    def terminate(number, _frame):
        raise KeyboardInterrupt(f"signal {number}")
    signal.signal(signal.SIGTERM, terminate)
    signal.signal(signal.SIGHUP, terminate)

    server = None
    work = Path(tempfile.mkdtemp(prefix="sentinel-fleet-bench-"))
    try:
        server = Postgres(args.fsync)
        say(f"PostgreSQL {server.version} up; work directory {work}")
        ceiling = [] if args.skip_ceiling else [queue_ceiling(server, args.bench, w, args.queued) for w in counts]
        scans = [small_scans(server, args.sentinel, w, args.jobs, work, timeout, args.kind, args.concurrency)
                 for w in counts]
        report(args, server, ceiling, scans)
        failed = [r for r in scans if not r["exactlyOnce"]]
        if failed:
            say(f"FAILED: not every job succeeded exactly once with {[r['workers'] for r in failed]} worker(s)")
            return 1
        say("every job succeeded exactly once")
        return 0
    except Failure as error:
        say(f"FAILED: {error}")
        return 1
    except KeyboardInterrupt:
        say("interrupted; cleaning up")
        return 130
    finally:
        if server:
            server.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
