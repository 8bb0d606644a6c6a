#!/usr/bin/env python3
"""A fleet worker's wall clock stepped an hour back mid-job (issue 81): does it go on renewing?

    bench/fleet-clock-step.py SENTINEL [--lease 6] [--files 20000] [--step -3600] [--watch 14]

Starts `SENTINEL fleet worker` (as root: the worker runs in its analysis sandbox) on a fresh SQLite
fleet with its wall clock moved by the preload `Tests/Fixtures/clock-shift/clock_shift.c` (compiled
here with clang; the offset file and the library live under the worker's repository root, which it is
lent, so the sandboxed worker loads them at the same paths). A scan of a project of --files small
Python modules is submitted; once the worker has claimed it, its clock steps by --step seconds, and
the job's remaining lease (`lease_until` minus now, by the worker's stepped clock: SQLite's clock is
the writer's, so the worker's renewals are written on it) is printed every second for --watch seconds.

A worker that renews every lease/3 keeps the remaining lease between 2/3 of a lease and a lease;
one whose heartbeat sleeps in a wait that ends at a wall-clock time (Dispatch's `sem_timedwait` on
Linux) stops renewing for the step's size and the remaining lease falls through zero.
"""
import argparse
import importlib.util
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_spec = importlib.util.spec_from_file_location("fleet_throughput", os.path.join(ROOT, "bench", "fleet-throughput.py"))
ft = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ft)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("sentinel")
    parser.add_argument("--lease", type=int, default=6)
    parser.add_argument("--files", type=int, default=20000)
    parser.add_argument("--step", type=int, default=-3600)
    parser.add_argument("--watch", type=int, default=14)
    parser.add_argument("--delay", type=float, default=1.0, help="seconds between the claim and the step")
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="fleet-clock-step-")
    os.chmod(work, 0o755)
    worker = None
    try:
        roots = os.path.join(work, "roots")
        clock = os.path.join(roots, "clock")
        project = os.path.join(roots, "project")
        os.makedirs(clock)
        os.makedirs(project)
        library = os.path.join(clock, "clock_shift.so")
        subprocess.run(
            [os.environ.get("CC", "clang"), "-shared", "-fPIC", "-O2", "-o", library, os.path.join(ROOT, "Tests/Fixtures/clock-shift/clock_shift.c")],
            check=True)
        offset = os.path.join(clock, "offset")

        def step(seconds: int) -> None:
            with open(offset + ".new", "w") as handle:
                handle.write(("+" if seconds >= 0 else "") + str(seconds) + "\n")
            os.chmod(offset + ".new", 0o644)
            os.rename(offset + ".new", offset)

        step(0)
        for index in range(args.files):
            with open(os.path.join(project, f"m{index}.py"), "w") as handle:
                handle.write("import subprocess\n\ndef run(cmd):\n    return subprocess.call(cmd, shell=True)\n")
        for path, _, files in os.walk(roots):
            os.chmod(path, 0o755)
            for name in files:
                os.chmod(os.path.join(path, name), 0o755)
        home = os.path.join(work, "home")
        os.makedirs(home)
        database = os.path.join(home, "fleet.sqlite")
        environment = dict(os.environ, SENTINEL_HOME=home, SENTINEL_DATABASE_URL="sqlite:" + database)
        subprocess.run([args.sentinel, "fleet", "submit", "scan", project, "--tools", "native,secrets"],
                       env=environment, check=True, stdout=subprocess.DEVNULL)
        log_path = os.path.join(work, "worker.log")
        with open(log_path, "w") as log:
            worker = subprocess.Popen(
                [args.sentinel, "fleet", "worker", "--repository-root", roots, "--lease", f"{args.lease}s"],
                env=dict(environment, LD_PRELOAD=library, CLOCK_SHIFT_FILE=offset), stdout=subprocess.DEVNULL, stderr=log)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and "job.claimed" not in open(log_path, errors="replace").read():
            time.sleep(0.05)
        # A second into the job: the heartbeat renewed at the claim and sleeps towards the next.
        time.sleep(args.delay)
        step(args.step)
        print(f"stepped the worker's clock by {args.step} s; remaining lease (s) each second:")
        lowest = None
        seen_running = 0
        for _ in range(args.watch):
            with sqlite3.connect(database, timeout=30) as db:
                row = db.execute(
                    "SELECT state, lease_until - ((julianday('now') - 2440587.5) * 86400.0) FROM fleet_jobs").fetchone()
            state, remaining = row
            # SQLite's clock is its writer's: read the lease on the worker's stepped clock.
            remaining = None if remaining is None else remaining - args.step
            print(f"  {state:9} {remaining if remaining is None else round(remaining, 1)}")
            if state == "running" and remaining is not None:
                seen_running += 1
                lowest = remaining if lowest is None else min(lowest, remaining)
            if state != "running":
                break
            time.sleep(1)
        # Renewed every lease/3, the remaining lease never falls below 2/3 of a lease minus a second.
        renewal_due = seen_running * 1.0 > args.lease / 3 + 1
        if not renewal_due:
            verdict = "the job ended before a renewal was due: no verdict, give more --files"
        elif lowest is not None and 0 < lowest <= args.lease:
            verdict = "renewals went on"
        else:
            verdict = "renewals stopped"
        print(f"lowest remaining lease while running: {None if lowest is None else round(lowest, 1)} s ({verdict})")
        return 0
    finally:
        if worker is not None:
            ft.stop_workers({"w0": worker}, 120)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
