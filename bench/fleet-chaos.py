#!/usr/bin/env python3
"""Fleet chaos (issue 58): workers killed, stopped and cut off, the server restarted, while jobs run;
then every job must have ended exactly once and every outcome must be in the audit chain once.

    bench/fleet-chaos.py SENTINEL [--workers 6] [--jobs 400] [--scan-share 0.25] [--seconds 90]
        [--lease 3] [--seed N] [--fsync on|off]

Starts its own PostgreSQL (as bench/fleet-throughput.py does), submits --jobs jobs (no-op jobs and a
share of tiny scans, each with 50 attempts so that chaos alone never dead-letters one), starts
--workers `sentinel fleet worker` processes (one machine each: its own SENTINEL_HOME; one fleet audit
key; one scratch root they share, as workers on one host would) and, for --seconds, every 1-3 s one of:

  kill -9      a random worker; a new one starts in its place a second later;
  SIGSTOP      a random worker for two lease lengths, then SIGCONT (it may be inside any transaction:
               the others must keep finishing jobs meanwhile, which is measured);
  terminate    pg_terminate_backend() of a random session of the fleet's database;
  restart      the server (`pg_ctl restart -m fast`), once, half-way.

Then the chaos stops, the workers finish the queue and stop (SIGTERM), one more worker starts and
stops (its start sweeps what killed workers left), and the checks run:

  exactly once   every job succeeded, with exactly one result row;
  audited        `sentinel fleet audit verify` passes, and the chain holds exactly one outcome entry per
                 job (fleet.job.succeeded for each) and one fleet.lease.expired entry per expiry the
                 jobs' rows count;
  progress       while a worker was stopped, the others finished jobs (for every stop that began with
                 at least --workers jobs still queued);
  swept          no job scratch directory is left in the scratch root.

Prints one JSON line per check and a summary; exits 1 when a check fails.
"""
import argparse
import json
import os
import random
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import importlib.util
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("fleet_throughput", HERE / "fleet-throughput.py")
ft = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ft)
say, run, Failure, Postgres, PG_BIN = ft.say, ft.run, ft.Failure, ft.Postgres, ft.PG_BIN


class Fleet:
    def __init__(self, sentinel, url, run_dir, lease):
        self.sentinel, self.url, self.run_dir, self.lease = sentinel, url, run_dir, lease
        self.key = run_dir / "fleet-audit.key"
        with os.fdopen(os.open(self.key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as handle:
            handle.write(secrets.token_hex(32) + "\n")
        self.scratch = run_dir / "scratch"
        self.scratch.mkdir(mode=0o1777)
        self.procs = {}
        self.started = 0
        self.home = run_dir / "home-cli"
        self.home.mkdir()

    def env(self, home):
        env = ft.sentinel_env(home, self.url)
        env["TMPDIR"] = str(self.scratch)
        return env

    def start(self):
        k = self.started
        self.started += 1
        home = self.run_dir / f"home-{k}"
        home.mkdir()
        log = self.run_dir / f"worker-{k}.log"
        with open(log, "wb") as handle:
            proc = subprocess.Popen(
                [self.sentinel, "fleet", "worker", "--concurrency", "1", "--name", f"w{k}", "--lease", str(self.lease),
                 "--audit-key-file", str(self.key), "--repository-root", str(self.run_dir / "repos")],
                stdin=subprocess.DEVNULL, stdout=handle, stderr=subprocess.STDOUT, env=self.env(home))
        self.procs[k] = (proc, log)
        return k

    def cli(self, *argv, check=True):
        return run([self.sentinel, *argv], env=self.env(self.home), check=check)

    def stop_all(self):
        running = {k for k, (proc, _) in self.procs.items() if proc.poll() is None}
        ft.stop_workers({k: proc for k, (proc, _) in self.procs.items()}, 120, resume=True)
        for k in sorted(running):
            proc, log = self.procs[k]
            if proc.returncode == -signal.SIGKILL:
                say(f"worker {k} needed SIGKILL; its log ends:\n" + log.read_text(errors="replace")[-3000:])


def sql(server, database, text):
    return server.psql(text, database=database).strip()


def finished(server, database):
    return int(sql(server, database, "SELECT count(*) FROM fleet_jobs WHERE state IN ('succeeded','failed','dead','cancelled')"))


def audit_lines(server, database):
    """Every audit line, whatever table the chain lives in (one chain or one per writer)."""
    tables = sql(server, database, "SELECT string_agg(table_name, ' ') FROM information_schema.columns "
                                   "WHERE column_name = 'line' AND table_name LIKE 'fleet_audit%'").split()
    lines = []
    for table in tables:
        lines += [l for l in sql(server, database, f"SELECT line FROM {table}").splitlines() if l.startswith("{")]
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sentinel")
    parser.add_argument("--workers", type=int, default=6)
    parser.add_argument("--jobs", type=int, default=400)
    parser.add_argument("--scan-share", type=float, default=0.25)
    parser.add_argument("--seconds", type=float, default=90)
    parser.add_argument("--lease", type=float, default=3)
    parser.add_argument("--seed", type=int, default=58)
    parser.add_argument("--fsync", choices=["on", "off"], default="on")
    parser.add_argument("--timeout", type=float, default=900)
    args = parser.parse_args()
    sentinel = str(Path(args.sentinel).resolve())
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="sentinel-fleet-chaos-"))
    os.chmod(work, 0o755)
    server = Postgres(args.fsync)
    failures = []
    try:
        database = "chaos"
        url = server.create_database(database)
        fleet = Fleet(sentinel, url, work, args.lease)
        (work / "repos").mkdir()
        project = ft.make_project(work / "repos")
        scans = int(args.jobs * args.scan_share)
        say(f"submitting {args.jobs - scans} no-op jobs and {scans} scans")
        columns = None
        for kind, count, argv in (("noop", args.jobs - scans, ["noop"]),
                                  ("scan", scans, ["scan", str(project), "--tools", "native,secrets"])):
            if count == 0:
                continue
            fleet.cli("fleet", "submit", *argv, "--max-attempts", "50")
            columns = columns or sql(server, database,
                                     "SELECT string_agg(column_name, ', ' ORDER BY ordinal_position) FROM information_schema."
                                     "columns WHERE table_name = 'fleet_jobs' AND column_name <> 'id'")
            sql(server, database, f"INSERT INTO fleet_jobs ({columns}) SELECT {columns} FROM fleet_jobs, generate_series(1, "
                                  f"{count - 1}) WHERE id = (SELECT min(id) FROM fleet_jobs WHERE kind = '{kind}')")
        for _ in range(args.workers):
            fleet.start()
        actions = {"kill": 0, "stop": 0, "terminate": 0, "restart": 0}
        stops = []
        restarted = False
        began = time.monotonic()
        while time.monotonic() - began < args.seconds:
            time.sleep(rng.uniform(1, 3))
            live = [k for k, (p, _) in fleet.procs.items() if p.poll() is None]
            if not restarted and time.monotonic() - began > args.seconds / 2:
                restarted = True
                actions["restart"] += 1
                say("chaos: restarting PostgreSQL")
                run([str(PG_BIN / "pg_ctl"), "-D", str(server.directory / "data"), "-m", "fast", "-w", "-t", "60",
                     "restart"], as_postgres=True)
                continue
            action = rng.choice(["kill", "kill", "stop", "terminate"])
            if action == "kill" and live:
                k = rng.choice(live)
                say(f"chaos: kill -9 worker {k}")
                fleet.procs[k][0].kill()
                fleet.procs[k][0].wait()
                actions["kill"] += 1
                time.sleep(1)
                fleet.start()
            elif action == "stop" and live:
                k = rng.choice(live)
                queued = int(sql(server, database, "SELECT count(*) FROM fleet_jobs WHERE state = 'queued'"))
                before = finished(server, database)
                say(f"chaos: SIGSTOP worker {k} for {2 * args.lease} s ({queued} queued)")
                fleet.procs[k][0].send_signal(signal.SIGSTOP)
                time.sleep(2 * args.lease)
                after = finished(server, database)
                fleet.procs[k][0].send_signal(signal.SIGCONT)
                actions["stop"] += 1
                stops.append({"worker": k, "queued": queued, "finishedMeanwhile": after - before})
            elif action == "terminate":
                count = sql(server, database, "SELECT count(pg_terminate_backend(pid)) FROM (SELECT pid FROM "
                                              "pg_stat_activity WHERE datname = 'chaos' AND pid <> pg_backend_pid() "
                                              "ORDER BY random() LIMIT 1) AS chosen")
                say(f"chaos: terminated {count} session(s)")
                actions["terminate"] += 1
        say("chaos over: letting the fleet finish the queue")
        deadline = time.monotonic() + args.timeout
        while finished(server, database) < args.jobs:
            if time.monotonic() > deadline:
                raise Failure(f"{finished(server, database)}/{args.jobs} jobs ended {args.timeout} s after the chaos")
            for k, (proc, log) in list(fleet.procs.items()):
                if proc.poll() is not None and proc.returncode not in (-9,):
                    raise Failure(f"worker {k} exited {proc.returncode}:\n" + log.read_text()[-1500:])
            time.sleep(0.5)
        fleet.stop_all()
        # A fresh worker's start sweeps what killed ones left; then it stops.
        k = fleet.start()
        time.sleep(3)
        fleet.stop_all()

        states = dict(line.split("|") for line in sql(server, database,
                                                     "SELECT state, count(*) FROM fleet_jobs GROUP BY state").splitlines())
        results = int(sql(server, database, "SELECT count(*) FROM fleet_results"))
        exactly_once = states.get("succeeded") == str(args.jobs) and results == args.jobs
        report("exactly once", exactly_once, {"states": states, "results": results, "jobs": args.jobs}, failures)

        verify = subprocess.run([sentinel, "fleet", "audit", "verify", "--audit-key-file", str(fleet.key)],
                                env=fleet.env(fleet.home), capture_output=True, text=True, timeout=600)
        entries = [json.loads(line) for line in audit_lines(server, database)]
        outcomes = {}
        expiries = 0
        for entry in entries:
            event, details = entry.get("event", ""), entry.get("details") or {}
            if event == "fleet.job.succeeded":
                outcomes[details.get("job")] = outcomes.get(details.get("job"), 0) + 1
            elif event == "fleet.lease.expired":
                expiries += 1
        counted = int(sql(server, database, "SELECT coalesce(sum(lease_expiries), 0) FROM fleet_jobs"))
        missing = [j for j in range(1, args.jobs + 1) if outcomes.get(str(j), 0) == 0]
        doubled = [j for j, n in outcomes.items() if n > 1]
        audited = verify.returncode == 0 and not missing and not doubled and expiries == counted
        report("audited", audited, {"verifyExit": verify.returncode, "verify": (verify.stdout + verify.stderr).strip()[-400:],
                                    "jobsWithoutOutcomeEntry": missing[:20], "missingCount": len(missing),
                                    "jobsWithTwo": doubled[:20], "expiryEntries": expiries, "expiriesCounted": counted},
               failures)

        judged = [s for s in stops if s["queued"] >= args.workers]
        progress = all(s["finishedMeanwhile"] > 0 for s in judged)
        report("progress while a worker was stopped", progress, {"stops": stops}, failures)

        left = sorted(p.name for p in fleet.scratch.iterdir())
        report("scratch swept", not left, {"left": left[:20], "count": len(left)}, failures)
        print(json.dumps({"summary": "pass" if not failures else "fail", "failed": failures, "actions": actions,
                          "workersStarted": fleet.started}), flush=True)
    except Failure as failure:
        print(f"fleet-chaos.py: {failure}", file=sys.stderr)
        return 1
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


def report(name, passed, details, failures):
    print(json.dumps({"check": name, "pass": passed, **details}), flush=True)
    if not passed:
        failures.append(name)


if __name__ == "__main__":
    sys.exit(main())
