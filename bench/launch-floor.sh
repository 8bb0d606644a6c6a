#!/usr/bin/env bash
# The floor under issue 33's CPU target: what bwrap costs once it carries the work every sentinel
# launch must also do, whatever the language of the launcher. One small C driver starts bwrap
# (the peer of bench/launch-overhead.sh) with each of the default profile's mandatory extras
# that bwrap does not do, then with all of them, interleaved with `sentinel sandbox run` in one
# run. Every row forks, execs bwrap and waits; the extras are
#   seccomp  the default seccomp program loaded (bwrap --seccomp), compiled once beforehand as
#            sentinel's program cache does;
#   cgroup   the profile's cgroup: one group per controller (v1: memory, pids, cpu, cpuacct;
#            v2: one), its limits written, the child moved in by itself before it execs bwrap,
#            the usage read back, the group removed once bwrap's sandbox has left it;
#   nss      the user and group database asked about one id of the host id range (as
#            HostIDLease does: a payload never runs as an id someone owns).
# Wall and CPU (user+sys of the whole tree) per run, as bench/launch-overhead.sh measures them.
# Needs root, gcc and libseccomp-dev.
#
#   bench/launch-floor.sh            # RUNS=200 runs per command
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib/csandbox-harness.sh
source bench/lib/release-build.sh
release_build sentinel-cli sentinel
SENTINEL=$RELEASE_SCRATCH/release/sentinel
RUNS=${RUNS:-200}
export SENTINEL_RULES=$PWD/rules SENTINEL_PROFILES=$PWD/profiles
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat > "$work/floor.c" <<'C'
#include "sandbox.h"
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The default profile's limits: memory 512M, pids 128, cpus 1. */
static const char *v1_controllers[] = {"memory", "pids", "cpu", "cpuacct"};
enum { v1_count = 4 };
static char groups[v1_count][128];
static int group_count;

/* Names the failure and removes the groups made so far (a killed child leaves them empty). */
static void die(const char *what) {
    fprintf(stderr, "floor: %s: %s\n", what, strerror(errno));
    for (int i = 0; i < group_count; i++) rmdir(groups[i]);
    exit(2);
}

/* Writes `text` to, or reads, `directory`/`name`. */
static void write_in(const char *directory, const char *name, const char *text) {
    char path[192];
    snprintf(path, sizeof path, "%s/%s", directory, name);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) die(path);
    close(fd);
}

static void read_in(const char *directory, const char *name) {
    char path[192], buffer[4096];
    snprintf(path, sizeof path, "%s/%s", directory, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || read(fd, buffer, sizeof buffer) < 0) die(path);
    close(fd);
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--write-program") == 0) {
        char err[256];
        struct sbx_filter filter;
        if (sbx_seccomp_default(&filter, err, sizeof err) != 0) {
            fprintf(stderr, "floor: %s\n", err);
            return 2;
        }
        FILE *out = fopen(argv[2], "w");
        if (out == NULL || fwrite(filter.prog.filter, sizeof filter.prog.filter[0], filter.prog.len, out) != filter.prog.len) die(argv[2]);
        fclose(out);
        return 0;
    }
    if (argc < 4) {
        fprintf(stderr, "usage: floor none|seccomp,cgroup,nss PROGRAM BWRAP-ARGV...\n");
        return 2;
    }
    int nss = strstr(argv[1], "nss") != NULL, cgroup = strstr(argv[1], "cgroup") != NULL;
    int seccomp = strstr(argv[1], "seccomp") != NULL;
    char **bwrap = argv + 3;
    int v2 = access("/sys/fs/cgroup/cgroup.controllers", F_OK) == 0;
    int procs[v1_count];
    if (nss) {
        /* One id of sentinel's default host id range, as HostIDLease asks about it. */
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        uid_t id = 0x70000000u + (uid_t)(now.tv_nsec % 0x10000);
        char buffer[4096];
        struct passwd user, *found_user;
        struct group group, *found_group;
        getpwuid_r(id, &user, buffer, sizeof buffer, &found_user);
        getgrgid_r(id, &group, buffer, sizeof buffer, &found_group);
    }
    if (cgroup) {
        char path[192];
        if (v2) {
            snprintf(groups[0], sizeof groups[0], "/sys/fs/cgroup/floor-%d", (int)getpid());
            if (mkdir(groups[0], 0755) != 0) die(groups[0]);
            group_count = 1;
            write_in(groups[0], "memory.max", "536870912");
            write_in(groups[0], "pids.max", "128");
            write_in(groups[0], "cpu.max", "100000 100000");
        } else {
            for (int i = 0; i < v1_count; i++) {
                snprintf(groups[i], sizeof groups[i], "/sys/fs/cgroup/%s/floor-%d", v1_controllers[i], (int)getpid());
                if (mkdir(groups[i], 0755) != 0) die(groups[i]);
                group_count = i + 1;
            }
            write_in(groups[0], "memory.limit_in_bytes", "536870912");
            write_in(groups[1], "pids.max", "128");
            write_in(groups[2], "cpu.cfs_period_us", "100000");
            write_in(groups[2], "cpu.cfs_quota_us", "100000");
        }
        /* The child moves itself in, as sentinel's init does: on v1 a task alone (`tasks`),
           which takes no global lock; v2 moves whole processes only. */
        for (int i = 0; i < group_count; i++) {
            snprintf(path, sizeof path, "%s/%s", groups[i], v2 ? "cgroup.procs" : "tasks");
            if ((procs[i] = open(path, O_WRONLY | O_CLOEXEC)) < 0) die(path);
        }
    }
    if (seccomp) {
        /* bwrap --seccomp 10: the program, compiled once beforehand. */
        int program = open(argv[2], O_RDONLY);
        if (program < 0) die(argv[2]);
        if (dup2(program, 10) < 0 || close(program) != 0) die("dup2");
    }
    pid_t child = fork();
    if (child < 0) die("fork");
    if (child == 0) {
        for (int i = 0; i < group_count; i++) {
            if (write(procs[i], "0", 1) != 1) _exit(126);
        }
        execvp(bwrap[0], bwrap);
        fprintf(stderr, "floor: %s: %s\n", bwrap[0], strerror(errno));
        _exit(127);
    }
    int status;
    while (waitpid(child, &status, 0) < 0) {
        if (errno != EINTR) die("waitpid");
    }
    if (cgroup) {
        if (v2) {
            read_in(groups[0], "memory.events");
            read_in(groups[0], "cpu.stat");
            read_in(groups[0], "memory.peak");
        } else {
            read_in(groups[0], "memory.oom_control");
            read_in(groups[3], "cpuacct.usage");
            read_in(groups[0], "memory.max_usage_in_bytes");
        }
        /* bwrap returns before its sandbox's init has finished exiting: a group empties only
           then, as sentinel's does once it has reaped its init. */
        for (int i = 0; i < group_count; i++) {
            close(procs[i]);
            while (rmdir(groups[i]) != 0) {
                if (errno != EBUSY) die(groups[i]);
                struct timespec pause = {0, 20000};
                nanosleep(&pause, NULL);
            }
        }
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
C
csandbox_harness "$work/floor" Sources/CSandbox "$work/floor.c"
"$work/floor" --write-program "$work/default.bpf"

mkdir -p bench/out
echo "== bwrap with each of a launch's mandatory extras, then all, and sentinel: $RUNS runs each, interleaved =="
PYTHONPATH=bench/lib python3 - "$RUNS" "$work/floor" "$work/default.bpf" "$SENTINEL" <<'PY' | tee bench/out/launch-floor.txt
import sys
from interleaved_runs import medians, run_interleaved, sandbox_commands
runs, floor, program, sentinel = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
bwrap = ["bwrap", "--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "--cap-drop", "ALL", "/bin/true"]
seccomp = bwrap[:-1] + ["--seccomp", "10", "/bin/true"]
commands = {
    "bwrap": [floor, "none", program] + bwrap,
    "+ seccomp": [floor, "seccomp", program] + seccomp,
    "+ cgroup": [floor, "cgroup", program] + bwrap,
    "+ nss": [floor, "nss", program] + bwrap,
    "+ all three": [floor, "seccomp,cgroup,nss", program] + seccomp,
} | sandbox_commands(sentinel, None)
samples = run_interleaved(commands, runs)
median = medians(samples)
b = median["bwrap"]
for name, (wall, cpu) in samples.items():
    print(f"{name:22} wall ms: min {min(wall):6.2f}  median {median[name][0]:6.2f}  ({median[name][0] / b[0]:.2f}x)   "
          f"CPU ms: min {min(cpu):6.2f}  median {median[name][1]:6.2f}  ({median[name][1] / b[1]:.2f}x)")
PY
