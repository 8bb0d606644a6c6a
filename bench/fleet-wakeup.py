#!/usr/bin/env python3
"""Wake-up latency of an idle fleet worker before and after its LISTEN connection is lost
(issue 81): one worker (concurrency 1 unless told) on a throwaway PostgreSQL 15, one `noop` job submitted at a
time, each job's submit-to-start time from the server's clock (started_at - created_at); then the
worker's listening session is ended by `pg_terminate_backend` (as an operator, a pooler or a
failover would), and the same number of jobs is measured again once the worker has listened anew.

    bench/fleet-wakeup.py SENTINEL [--samples 30] [--cuts 1] [--end listener|all|network|restart [--network-seconds 45]] [--concurrency 1] [--ssl]
    bench/fleet-wakeup.py SENTINEL --cut-each [--end listener|all] [--samples 30]

`--cut-each` ends the listening session (or every session) before every sample and submits at
once, without waiting for the worker to connect again: a submission that lands while it reconnects.

Prints the median, p90 and p99 (nearest rank) of each phase in milliseconds, and every sample
after a cut (the evaluation saw them alternate 6 ms and 640 ms). Needs root (the server runs as
`postgres`); pass a release build.
"""
import argparse
import importlib.util
import os
import secrets
import shutil
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


def quantile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(q * len(ordered) + 0.5)) - 1))]


def summary(name, values):
    return (f"{name:18} n={len(values):3}  median {statistics.median(values):7.1f} ms  "
            f"p90 {quantile(values, 0.9):7.1f} ms  p99 {quantile(values, 0.99):7.1f} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sentinel")
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--cuts", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--end", choices=["listener", "all", "network", "restart"], default="listener",
                        help="what each cut does: end the worker's listening session, or every one of its sessions, "
                        "or drop every packet to the server's port for --network-seconds (iptables; a network cut), "
                        "or stop the server for --network-seconds and start it again")
    parser.add_argument("--network-seconds", type=float, default=45)
    parser.add_argument("--ssl", action="store_true", help="the server offers TLS (as Debian's packaged cluster does)")
    parser.add_argument("--cut-each", action="store_true",
                        help="end the listening session (or with --end all every session), when there is one, right before each "
                        "sample, and submit at once")
    args = parser.parse_args()
    if args.cut_each and args.end not in ("listener", "all"):
        parser.error("--cut-each ends sessions: --end listener or all")
    sentinel = str(Path(args.sentinel).resolve())
    server = ft.Postgres("off", ssl=args.ssl)
    work = Path(tempfile.mkdtemp(prefix="sentinel-wakeup-"))
    os.chmod(work, 0o755)
    worker = None
    try:
        database = f"wakeup_{secrets.token_hex(4)}"
        url = server.create_database(database)
        home = work / "home-submit"
        home.mkdir()
        (work / "repos").mkdir()
        key = work / "fleet-audit.key"
        with os.fdopen(os.open(key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as handle:
            handle.write(secrets.token_hex(32) + "\n")
        ft.run([sentinel, "fleet", "status"], env=ft.sentinel_env(home, url))
        worker_home = work / "home-worker"
        worker_home.mkdir()
        log = open(work / "worker.log", "wb")
        worker = subprocess.Popen(
            [sentinel, "fleet", "worker", "--concurrency", str(args.concurrency), "--name", "w0", "--audit-key-file", str(key),
             "--repository-root", str(work / "repos")],
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=ft.sentinel_env(worker_home, url))
        time.sleep(2)

        def scalar(sql):
            return server.psql(sql, database=database).strip()

        def end_sessions():
            which = "AND query LIKE 'LISTEN%'" if args.end == "listener" else ""
            return scalar("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() "
                          f"AND pid <> pg_backend_pid() {which}")

        def phase(count, cut_each=False):
            first = int(scalar("SELECT count(*) FROM fleet_jobs"))
            hits = []
            for k in range(count):
                if cut_each:
                    hits.append(end_sessions() != "0")
                ft.run([sentinel, "fleet", "submit", "noop"], env=ft.sentinel_env(home, url))
                deadline = time.monotonic() + 60
                while int(scalar("SELECT count(*) FROM fleet_jobs WHERE started_at IS NOT NULL")) < first + k + 1:
                    if time.monotonic() > deadline or worker.poll() is not None:
                        raise ft.Failure(f"job {first + k + 1} did not start; worker log: {work / 'worker.log'}")
                    time.sleep(0.02)
                time.sleep(0.2)  # idle again, waiting in LISTEN
            rows = scalar(f"SELECT (started_at - created_at) * 1000 FROM fleet_jobs WHERE id > {first} ORDER BY id")
            values = [float(line) for line in rows.split("\n") if line]
            return (values, hits) if cut_each else values

        print(summary("before any cut", phase(args.samples)), flush=True)
        if args.cut_each:
            values, hits = phase(args.samples, cut_each=True)
            cut = [v for v, hit in zip(values, hits) if hit]
            missed = [v for v, hit in zip(values, hits) if not hit]
            print(summary("cut, then submit", cut), flush=True)
            if missed:
                print(summary("no session to cut", missed), flush=True)
            print("  samples: " + ", ".join(f"{v:.1f}{'' if hit else '*'}" for v, hit in zip(values, hits))
                  + "  (* no session was there to end)", flush=True)
            return
        for cut in range(1, args.cuts + 1):
            if args.end == "restart":
                data = str(server.directory / "data")
                ft.run([str(ft.PG_BIN / "pg_ctl"), "-D", data, "-m", "fast", "-w", "stop"], as_postgres=True)
                time.sleep(args.network_seconds)
                ft.run([str(ft.PG_BIN / "pg_ctl"), "-D", data, "-l", str(server.directory / "log"), "-w", "-t", "60", "-o",
                        f"-h 127.0.0.1 -p {server.port} -k {server.directory} -c fsync=off", "start"], as_postgres=True)
            elif args.end == "network":
                rule = ["INPUT", "-i", "lo", "-p", "tcp", "--dport", str(server.port), "-j", "DROP"]
                ft.run(["iptables", "-I"] + rule)
                try:
                    time.sleep(args.network_seconds)
                finally:
                    ft.run(["iptables", "-D"] + rule)
            else:
                ended = end_sessions()
                if args.end == "listener" and ended != "1":
                    raise ft.Failure(f"expected one listening session to end, ended {ended}")
            time.sleep(3)  # the worker notices, waits and listens again
            values = phase(args.samples)
            print(summary(f"after cut {cut}", values), flush=True)
            print("  samples: " + ", ".join(f"{v:.1f}" for v in values), flush=True)
    finally:
        if worker is not None:
            ft.stop_workers({"w0": worker}, 300)
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    try:
        main()
    except ft.Failure as failure:
        sys.exit(f"fleet-wakeup.py: {failure}")
