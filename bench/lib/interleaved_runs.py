"""Runs commands interleaved (A, B, C, A, B, C, ...) so that machine drift touches them alike, and
returns each one's wall and CPU (user+sys of the whole tree, from wait4) per run, in ms.
hyperfine runs one command's runs after the other's, so a drift lands on one command only.
Each run is spawned with posix_spawn, as `hyperfine -N` does, so the harness adds nothing of its
own to either side; bench/launch-overhead.sh checks its medians against `hyperfine -N`'s.

Wall ends when the command itself returns. CPU counts every process the command started, also
those it leaves behind for a reaper: this harness is a child subreaper, so they come back to it,
and it waits for them before the next run. bwrap returns before its sandbox's pid 1 (which reaped
the payload) is reaped: without this, its CPU counted only bwrap's own outer process.

    from interleaved_runs import run_interleaved
    samples = run_interleaved({"name": argv, ...}, runs=200)   # {name: (walls, cpus)}
"""
import ctypes
import os
import statistics
import sys
import time

PR_SET_CHILD_SUBREAPER = 36


def once(argv, devnull):
    # posix_spawn (glibc: clone with CLONE_VM|CLONE_VFORK), not fork: forking copies this Python
    # process's page tables for every run, ~3 ms charged to both sides of a comparison.
    actions = [(os.POSIX_SPAWN_DUP2, devnull, fd) for fd in (0, 1, 2)]
    start = time.perf_counter_ns()
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=actions)
    _, status, usage = os.wait4(pid, 0)
    wall = (time.perf_counter_ns() - start) / 1e6
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(argv)} failed: {status}")
    cpu = usage.ru_utime + usage.ru_stime
    while True:  # what the command left running, handed to this subreaper
        try:
            _, _, usage = os.wait4(-1, 0)
        except ChildProcessError:
            break
        cpu += usage.ru_utime + usage.ru_stime
    return wall, cpu * 1e3


def run_interleaved(commands, runs, warmup=10, pause=0.0):
    """`pause` seconds between runs: a command launched once in a while, as users and heal do,
    rather than back to back (where kernel state left by the previous launch is still warm)."""
    if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.exit(f"prctl(PR_SET_CHILD_SUBREAPER): {os.strerror(ctypes.get_errno())}")
    devnull = os.open(os.devnull, os.O_RDWR)
    for argv in commands.values():
        for _ in range(warmup):  # page cache, the seccomp program cache
            once(argv, devnull)
    samples = {name: ([], []) for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            if pause:
                time.sleep(pause)
            wall, cpu = once(argv, devnull)
            samples[name][0].append(wall)
            samples[name][1].append(cpu)
    return samples


def sandbox_commands(new, old, bwrap=None):
    """`sandbox run --profile minimal -- /bin/true` of the new build (and the old one, when
    given) beside bwrap's argv (when given)."""
    run = ["sandbox", "run", "--profile", "minimal", "--", "/bin/true"]
    commands = {"sentinel sandbox run": [new] + run}
    if old:
        commands["baseline sandbox run"] = [old] + run
    if bwrap:
        commands["bwrap"] = bwrap
    return commands


def medians(samples):
    """{name: (wall median, CPU median)} of `run_interleaved`'s samples, in ms."""
    return {name: (statistics.median(w), statistics.median(c)) for name, (w, c) in samples.items()}


def print_wall_rows(samples):
    """One line per command: wall min, median and max, and the CPU median, in ms; returns `medians`."""
    median = medians(samples)
    for name, (wall, _) in samples.items():
        print(f"{name:22} wall ms: min {min(wall):6.2f}  median {median[name][0]:6.2f}  max {max(wall):7.2f}   "
              f"CPU ms median {median[name][1]:6.2f}")
    return median
