#!/usr/bin/env bash
# What the kernel charges the sandbox's start for three of its steps, each measured alone, against
# the same step without the costly part in the same run:
#   clone    the namespaces the launcher's clone makes, with and without CLONE_NEWNET (bwrap's
#            `--unshare-all` makes a network namespace too);
#   seccomp  installing the default program (the kernel checks, converts and JIT-compiles it),
#            against a one-instruction program;
#   masks    binding an empty file over 16 paths: a bind, statvfs and read-only remount each, against
#            a bind of one read-only mount each (what the launcher does since its third stop).
# Medians of RUNS samples (default 400), each in a fresh child. Needs root, gcc, libseccomp-dev.
#
#   bench/init-costs.sh          # prints the figures for BENCHMARKS.md
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/csandbox-harness.sh
source bench/lib/csandbox-harness.sh
RUNS=${RUNS:-400}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat > "$work/probe.c" <<'C'
#include "sandbox.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values, int count) {
    qsort(values, (size_t)count, sizeof *values, compare);
    return values[count / 2];
}

/* A sample in a fresh child, which sends its duration back on a pipe. */
static double in_child(double (*step)(void *), void *argument) {
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) abort();
    pid_t pid = fork();
    if (pid == 0) {
        double taken = step(argument);
        if (write(pipe_fds[1], &taken, sizeof taken) != sizeof taken) _exit(1);
        _exit(0);
    }
    double taken = -1;
    if (read(pipe_fds[0], &taken, sizeof taken) != sizeof taken) abort();
    waitpid(pid, NULL, 0);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    if (taken < 0) { fprintf(stderr, "a step failed\n"); exit(1); }
    return taken;
}

static double clone_step(void *argument) {
    int flags = *(int *)argument;
    double start = now_ms();
    pid_t pid = (pid_t)syscall(SYS_clone, flags | SIGCHLD, 0, 0, 0, 0);
    if (pid == 0) _exit(0);
    double taken = now_ms() - start;
    if (pid < 0) return -1;
    waitpid(pid, NULL, 0);
    return taken;
}

static double seccomp_step(void *argument) {
    struct sock_fprog *program = argument;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    double start = now_ms();
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, program, 0, 0) != 0) return -1;
    return now_ms() - start;
}

enum { MASKS = 16 };
/* One directory for every sample: each mounts its tmpfs there in a mount namespace of its own. */
static char root[] = "/tmp/sentinel-masks-XXXXXX";

/* In a private mount namespace: a tmpfs with an empty file and MASKS files, each covered by the
   empty file read-only, the old way (bind, then remount) or the new (bind a read-only bind). */
static double masks_step(void *argument) {
    int inherit = *(int *)argument;
    if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return -1;
    if (mount("tmpfs", root, "tmpfs", 0, "size=1m") != 0) return -1;
    char empty[64], path[64];
    snprintf(empty, sizeof empty, "%s/empty", root);
    close(open(empty, O_CREAT | O_WRONLY, 0));
    for (int i = 0; i < MASKS; i++) {
        snprintf(path, sizeof path, "%s/f%d", root, i);
        close(open(path, O_CREAT | O_WRONLY, 0600));
    }
    const unsigned long readOnly = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC;
    double start = now_ms();
    if (inherit && (mount(empty, empty, NULL, MS_BIND, NULL) != 0 || mount(NULL, empty, NULL, readOnly, NULL) != 0)) return -1;
    for (int i = 0; i < MASKS; i++) {
        snprintf(path, sizeof path, "%s/f%d", root, i);
        if (mount(empty, path, NULL, MS_BIND, NULL) != 0) return -1;
        /* The launcher reads the flags the kernel locked (statvfs) before each remount. */
        struct statvfs flags;
        if (!inherit && (statvfs(path, &flags) != 0 || mount(NULL, path, NULL, readOnly, NULL) != 0)) return -1;
    }
    return now_ms() - start;
}

static void report(const char *label, double (*step)(void *), void *argument, int runs) {
    double *samples = malloc(sizeof(double) * (size_t)runs);
    for (int i = 0; i < runs; i++) samples[i] = in_child(step, argument);
    printf("%-52s median %.3f ms\n", label, median(samples, runs));
    free(samples);
}

int main(int argc, char **argv) {
    int runs = argc > 1 ? atoi(argv[1]) : 400;
    int namespaces = CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC;
    int with_net = namespaces | CLONE_NEWNET;
    report("clone: user, pid, mount, uts, ipc namespaces", clone_step, &namespaces, runs);
    report("clone: the same and a network namespace", clone_step, &with_net, runs);

    char err[256];
    struct sbx_filter filter;
    if (sbx_seccomp_default(&filter, err, sizeof err) != 0) { fprintf(stderr, "%s\n", err); return 1; }
    struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    struct sock_fprog one = {1, &allow};
    char label[96];
    snprintf(label, sizeof label, "seccomp: the default program (%u instructions)", filter.prog.len);
    report(label, seccomp_step, &filter.prog, runs);
    report("seccomp: a one-instruction program", seccomp_step, &one, runs);

    if (mkdtemp(root) == NULL) { perror("mkdtemp"); return 1; }
    int remount = 0, inherit = 1;
    snprintf(label, sizeof label, "masks: %d binds, each remounted read-only", MASKS);
    report(label, masks_step, &remount, runs);
    snprintf(label, sizeof label, "masks: %d binds of one read-only mount", MASKS);
    report(label, masks_step, &inherit, runs);
    rmdir(root);
    return 0;
}
C
csandbox_harness "$work/probe" Sources/CSandbox "$work/probe.c"
for round in 1 2 3; do
  echo "== round $round ($RUNS samples per line)"
  "$work/probe" "$RUNS"
done
