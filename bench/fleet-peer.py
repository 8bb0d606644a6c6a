#!/usr/bin/env python3
"""The fleet queue against a peer (issue 58): Sentinel's workers and procrastinate's (a well-kept
PostgreSQL job queue of the same design: SKIP LOCKED claims, LISTEN/NOTIFY, a polling fallback) on
one PostgreSQL, interleaved, with the same jobs and the same worker counts.

    make bench-pip-deps      # procrastinate and psycopg, pinned, in .venv-bench
    .venv-bench/bin/python bench/fleet-peer.py SENTINEL [--workers 1,2,4,8] [--noop-jobs 2000]
        [--scan-jobs 120] [--latency-samples 30] [--rounds 1] [--fsync on|off] [--timeout 900]

For each worker count W and each workload, each peer in turn (the order alternates between rounds)
gets a fresh database holding N queued jobs, then W worker processes (concurrency 1 each, as W
machines would run) are started together; the figure is N / (the time from their start until the
last job has ended), read from the database every 20 ms by the same poller for both peers.

  noop   a job that does nothing: Sentinel's `noop` kind, procrastinate's `def noop(): pass`. The
         queue's own cost per job: claim, lease/heartbeat, completion, audit (Sentinel), events
         (procrastinate).
  scan   a tiny scan: `sentinel scan` of a five-file project (native rules and secrets), run by
         Sentinel's worker as its scan job and by procrastinate's task as a subprocess.
  idle latency: one idle worker, one job submitted at a time: submit-to-start time from the
         server's clock (Sentinel: started_at - created_at; procrastinate: its events table).

Sentinel's jobs are enqueued by one `sentinel fleet submit` and copied by SQL (submitting thousands
of jobs through the CLI would take minutes and is not what is measured); procrastinate's with its
`batch_defer`. Every job must end succeeded exactly once (Sentinel: one result row per job and one
audit outcome entry per job; procrastinate: its status column), or the run fails. The server, the
workers and the poller share this machine; pass a release build (`swift build -c release`).
"""
import argparse
import datetime
import importlib.util
import json
import os
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("fleet_throughput", HERE / "fleet-throughput.py")
ft = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ft)
say, run, Failure, Postgres = ft.say, ft.run, ft.Failure, ft.Postgres

try:
    import psycopg
    import procrastinate  # noqa: F401  (the worker processes import it; fail here, early)
except ImportError as error:
    sys.exit(f"fleet-peer.py: {error}: run `make bench-pip-deps` and use .venv-bench/bin/python")

TASKS = '''
import os, subprocess
from procrastinate import App, PsycopgConnector

app = App(connector=PsycopgConnector(conninfo=os.environ["PEER_URL"]))

@app.task(name="noop")
def noop():
    pass

@app.task(name="scan")
def scan():
    out = os.path.join(os.environ["PEER_SCRATCH"], "out-%d.json" % os.getpid())
    status = subprocess.run([os.environ["PEER_SENTINEL"], "scan", os.environ["PEER_PROJECT"], "--tools", "native,secrets",
                             "--quiet", "--format", "json", "--output", out], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    if status not in (0, 1):
        raise RuntimeError("sentinel scan exited %d" % status)
'''


class Poller:
    """One connection that counts finished jobs for both peers (the same cost on each side)."""

    def __init__(self, url):
        self.connection = psycopg.connect(url, autocommit=True)

    def scalar(self, sql):
        return self.connection.execute(sql).fetchone()[0]

    def wait(self, sql, target, timeout, procs, logs):
        deadline = time.monotonic() + timeout
        while True:
            done = self.scalar(sql)
            if done >= target:
                return time.monotonic()
            for k, proc in enumerate(procs):
                if proc.poll() is not None:
                    raise Failure(f"worker {k} exited {proc.returncode} early:\n{tail(logs[k])}")
            if time.monotonic() > deadline:
                raise Failure(f"{done}/{target} jobs ended after {timeout} s:\n" + "".join(tail(log) for log in logs))
            time.sleep(0.02)

    def close(self):
        self.connection.close()


def tail(path, size=2500):
    return f"--- {path.name}\n" + path.read_text(errors="replace")[-size:] + "\n"


def stop_all(procs):
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    for proc in procs:
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# --- Sentinel -------------------------------------------------------------------------------------

class SentinelPeer:
    name = "Sentinel"

    def __init__(self, sentinel, work):
        self.sentinel = sentinel
        self.work = work

    def prepare(self, url, run_dir, workload, jobs, project):
        self.url, self.run_dir = url, run_dir
        self.home = run_dir / "home-submit"
        self.home.mkdir()
        self.key = run_dir / "fleet-audit.key"
        with os.fdopen(os.open(self.key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as handle:
            handle.write(secrets.token_hex(32) + "\n")
        if jobs == 0:
            # The queue's tables, without a job (the latency probe submits its own).
            run([self.sentinel, "fleet", "status"], env=ft.sentinel_env(self.home, url))
            return
        argv = [self.sentinel, "fleet", "submit", "noop"] if workload == "noop" else [
            self.sentinel, "fleet", "submit", "scan", str(project), "--tools", "native,secrets"]
        run(argv, env=ft.sentinel_env(self.home, url))
        with psycopg.connect(url, autocommit=True) as connection:
            columns = [row[0] for row in connection.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = 'fleet_jobs' AND column_name <> 'id' "
                "ORDER BY ordinal_position")]
            listed = ", ".join(columns)
            connection.execute(f"INSERT INTO fleet_jobs ({listed}) SELECT {listed} FROM fleet_jobs, generate_series(2, %s) "
                               "WHERE id = (SELECT min(id) FROM fleet_jobs)", [jobs])

    def start(self, workers):
        procs, logs = [], []
        for k in range(workers):
            home = self.run_dir / f"home-w{k}"
            home.mkdir()
            log = self.run_dir / f"sentinel-{k}.log"
            logs.append(log)
            with open(log, "wb") as handle:
                procs.append(subprocess.Popen(
                    [self.sentinel, "fleet", "worker", "--concurrency", "1", "--name", f"w{k}",
                     "--audit-key-file", str(self.key), "--repository-root", str(self.run_dir / "repos")],
                    stdin=subprocess.DEVNULL, stdout=handle, stderr=subprocess.STDOUT,
                    env=ft.sentinel_env(home, self.url)))
        return procs, logs

    done_sql = "SELECT count(*) FROM fleet_jobs WHERE state IN ('succeeded', 'failed', 'dead', 'cancelled')"

    def check(self, poller, jobs):
        succeeded = poller.scalar("SELECT count(*) FROM fleet_jobs WHERE state = 'succeeded'")
        results = poller.scalar("SELECT count(*) FROM fleet_results")
        problems = []
        if succeeded != jobs or results != jobs:
            problems.append(f"{succeeded} succeeded and {results} results for {jobs} jobs")
        verify = subprocess.run([self.sentinel, "fleet", "audit", "verify", "--audit-key-file", str(self.key)],
                                env=ft.sentinel_env(self.home, self.url), stdin=subprocess.DEVNULL,
                                capture_output=True, text=True, timeout=600)
        if verify.returncode != 0:
            problems.append(f"fleet audit verify exited {verify.returncode}: {(verify.stdout + verify.stderr).strip()[-500:]}")
        return problems

    def latency_submit(self):
        run([self.sentinel, "fleet", "submit", "noop"], env=ft.sentinel_env(self.home, self.url))

    def latencies(self, poller):
        return [row for row in poller.connection.execute(
            "SELECT started_at - created_at FROM fleet_jobs WHERE started_at IS NOT NULL ORDER BY id")]


# --- procrastinate --------------------------------------------------------------------------------

class ProcrastinatePeer:
    name = "procrastinate"

    def __init__(self, sentinel, work):
        self.sentinel = sentinel
        self.work = work

    def environment(self):
        return dict(os.environ, PYTHONPATH=str(self.run_dir), PEER_URL=self.url, PEER_SENTINEL=self.sentinel,
                    PEER_PROJECT=str(self.project), PEER_SCRATCH=str(self.run_dir))

    def prepare(self, url, run_dir, workload, jobs, project):
        self.url, self.run_dir, self.project = url, run_dir, project
        (run_dir / "peer_tasks.py").write_text(TASKS)
        run([sys.executable, "-m", "procrastinate", "--app=peer_tasks.app", "schema", "--apply"], env=self.environment())
        if jobs == 0:
            return
        code = ("import sys, peer_tasks as t\nwith t.app.open():\n"
                f"    getattr(t, {workload!r}).batch_defer(*[{{}}] * {jobs})\n")
        run([sys.executable, "-c", code], env=self.environment())

    def start(self, workers):
        procs, logs = [], []
        for k in range(workers):
            log = self.run_dir / f"procrastinate-{k}.log"
            logs.append(log)
            with open(log, "wb") as handle:
                procs.append(subprocess.Popen(
                    [sys.executable, "-m", "procrastinate", "--app=peer_tasks.app", "worker", "--concurrency", "1",
                     "--name", f"w{k}"],
                    stdin=subprocess.DEVNULL, stdout=handle, stderr=subprocess.STDOUT, env=self.environment()))
        return procs, logs

    done_sql = "SELECT count(*) FROM procrastinate_jobs WHERE status IN ('succeeded', 'failed', 'cancelled', 'aborted')"

    def check(self, poller, jobs):
        succeeded = poller.scalar("SELECT count(*) FROM procrastinate_jobs WHERE status = 'succeeded'")
        return [] if succeeded == jobs else [f"{succeeded} succeeded for {jobs} jobs"]

    def latency_submit(self):
        code = "import peer_tasks as t\nwith t.app.open():\n    t.noop.defer()\n"
        run([sys.executable, "-c", code], env=self.environment())

    def latencies(self, poller):
        return [row for row in poller.connection.execute(
            "SELECT extract(epoch FROM s.at - d.at) FROM procrastinate_events d JOIN procrastinate_events s "
            "ON s.job_id = d.job_id AND s.type = 'started' WHERE d.type = 'deferred' ORDER BY d.job_id")]


# --- the runs -------------------------------------------------------------------------------------

def throughput(server, peer, workload, workers, jobs, timeout, work):
    database = f"{peer.name.lower()}_{workload}_w{workers}_{secrets.token_hex(4)}"
    url = server.create_database(database)
    run_dir = Path(tempfile.mkdtemp(prefix=f"{peer.name.lower()}-{workload}-w{workers}-", dir=work))
    os.chmod(run_dir, 0o755)
    (run_dir / "repos").mkdir()
    project = ft.make_project(run_dir / "repos")
    say(f"{peer.name}: {jobs} {workload} jobs, {workers} worker(s)")
    peer.prepare(url, run_dir, workload, jobs, project)
    poller = Poller(url)
    procs, logs = [], []
    try:
        started = time.monotonic()
        procs, logs = peer.start(workers)
        ended = poller.wait(peer.done_sql, jobs, timeout, procs, logs)
        problems = peer.check(poller, jobs)
    finally:
        stop_all(procs)
        poller.close()
    if problems:
        raise Failure(f"{peer.name} {workload} w{workers}: " + "; ".join(problems) + "\n" + "".join(tail(l) for l in logs))
    seconds = ended - started
    result = {"peer": peer.name, "workload": workload, "workers": workers, "jobs": jobs, "seconds": round(seconds, 3),
              "jobsPerSecond": round(jobs / seconds, 1)}
    print(json.dumps(result), flush=True)
    server.drop_database(database)
    shutil.rmtree(run_dir, ignore_errors=True)
    return result


def idle_latency(server, peer, samples, timeout, work):
    database = f"{peer.name.lower()}_latency_{secrets.token_hex(4)}"
    url = server.create_database(database)
    run_dir = Path(tempfile.mkdtemp(prefix=f"{peer.name.lower()}-latency-", dir=work))
    os.chmod(run_dir, 0o755)
    (run_dir / "repos").mkdir()
    project = ft.make_project(run_dir / "repos")
    peer.prepare(url, run_dir, "noop", 0, project)
    poller = Poller(url)
    procs, logs = [], []
    try:
        procs, logs = peer.start(1)
        time.sleep(2)  # connected and listening
        for k in range(samples):
            peer.latency_submit()
            poller.wait(peer.done_sql, k + 1, timeout, procs, logs)
            time.sleep(0.2)  # idle again, waiting in LISTEN
        values = sorted(float(row[0]) * 1000 for row in peer.latencies(poller))
    finally:
        stop_all(procs)
        poller.close()
    result = {"peer": peer.name, "workload": "idle-latency", "samples": len(values),
              "medianMs": round(statistics.median(values), 2) if values else None,
              "p90Ms": round(values[int(0.9 * (len(values) - 1))], 2) if values else None}
    print(json.dumps(result), flush=True)
    server.drop_database(database)
    shutil.rmtree(run_dir, ignore_errors=True)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sentinel")
    parser.add_argument("--workers", default="1,2,4,8")
    parser.add_argument("--workloads", default="noop,scan")
    parser.add_argument("--noop-jobs", type=int, default=2000)
    parser.add_argument("--scan-jobs", type=int, default=120)
    parser.add_argument("--latency-samples", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--fsync", choices=["on", "off"], default="on")
    parser.add_argument("--timeout", type=float, default=900)
    parser.add_argument("--peers", default="Sentinel,procrastinate", help="which to run (both for figures)")
    args = parser.parse_args()
    sentinel = str(Path(args.sentinel).resolve())
    counts = [int(w) for w in args.workers.split(",")]
    workloads = args.workloads.split(",")
    work = Path(tempfile.mkdtemp(prefix="sentinel-fleet-peer-"))
    os.chmod(work, 0o755)
    server = Postgres(args.fsync)
    results = []
    try:
        chosen = args.peers.split(",")
        peers = [p for p in (SentinelPeer(sentinel, work), ProcrastinatePeer(sentinel, work)) if p.name in chosen]
        for round_number in range(args.rounds):
            for workload in workloads:
                jobs = args.noop_jobs if workload == "noop" else args.scan_jobs
                for workers in counts:
                    order = peers if (round_number + workers) % 2 == 0 else list(reversed(peers))
                    for peer in order:
                        results.append(throughput(server, peer, workload, workers, jobs, args.timeout, work))
        for peer in peers:
            results.append(idle_latency(server, peer, args.latency_samples, args.timeout, work))
        report(args, server, sentinel, results)
    except Failure as failure:
        print(f"fleet-peer.py: {failure}", file=sys.stderr)
        return 1
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)
    return 0


def report(args, server, sentinel, results):
    print()
    print(f"Machine: {os.cpu_count()} × {ft.cpu_model()}; {datetime.date.today().isoformat()}; PostgreSQL "
          f"{server.version} (fsync={args.fsync}) on the same machine; sentinel {sentinel}; procrastinate "
          f"{procrastinate.__version__ if hasattr(procrastinate, '__version__') else '?'}; {args.rounds} round(s), "
          "interleaved")
    if "/debug/" in sentinel:
        print("WARNING: a debug build was measured; use a release build for BENCHMARKS.md.")
    print()
    for workload in args.workloads.split(","):
        jobs = args.noop_jobs if workload == "noop" else args.scan_jobs
        print(f"{workload} ({jobs} jobs), jobs/s (median of rounds):")
        print()
        print("| workers | Sentinel | procrastinate |")
        print("|---:|---:|---:|")
        for workers in [int(w) for w in args.workers.split(",")]:
            row = []
            for peer in ("Sentinel", "procrastinate"):
                values = [r["jobsPerSecond"] for r in results
                          if r["peer"] == peer and r["workload"] == workload and r["workers"] == workers]
                row.append(f"{statistics.median(values):.1f}" if values else "–")
            print(f"| {workers} | {row[0]} | {row[1]} |")
        print()
    print("Idle submit-to-start latency (one worker waiting in LISTEN):")
    print()
    for r in results:
        if r["workload"] == "idle-latency":
            print(f"- {r['peer']}: median {r['medianMs']} ms, p90 {r['p90Ms']} ms ({r['samples']} jobs)")


if __name__ == "__main__":
    sys.exit(main())
