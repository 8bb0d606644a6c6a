#!/usr/bin/env bash
# Cost of the default seccomp policy: compiling it (once per `sentinel` process) and running it
# (on every syscall the payload makes), the allow-list (this tree) vs the deny-list it replaced
# (commit 66d8159), in the same run. Needs gcc and libseccomp-dev; no root.
#
#   bench/seccomp-overhead.sh          # prints the figures for BENCHMARKS.md
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/csandbox-harness.sh
source bench/lib/csandbox-harness.sh
PEER_COMMIT=${PEER_COMMIT:-66d8159}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat > "$work/harness.c" <<'C'

#include "sandbox.h"
#include <fcntl.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* ns per call of getppid and of a 1-byte read of /dev/zero, best of 5 rounds. */
static void syscalls(const char *label) {
    int fd = open("/dev/zero", O_RDONLY);
    char byte;
    double best_pid = 1e9, best_read = 1e9;
    const int n = 1000000;
    for (int round = 0; round < 5; round++) {
        double t0 = now();
        for (int i = 0; i < n; i++) syscall(SYS_getppid);
        double t1 = now();
        for (int i = 0; i < n; i++) if (read(fd, &byte, 1) != 1) abort();
        double t2 = now();
        if ((t1 - t0) < best_pid) best_pid = t1 - t0;
        if ((t2 - t1) < best_read) best_read = t2 - t1;
    }
    printf("%-10s getppid %6.1f ns   read %6.1f ns\n", label, best_pid * 1e9 / n, best_read * 1e9 / n);
}

int main(void) {
    char err[256];
    struct sbx_filter filter;
    const int compiles = 200;
    double t0 = now();
    for (int i = 0; i < compiles; i++) {
        if (sbx_seccomp_default(&filter, err, sizeof err) != 0) { fprintf(stderr, "%s\n", err); return 1; }
        if (i + 1 < compiles) sbx_filter_free(&filter);
    }
    printf("compile   %.3f ms per program, %u instructions\n", (now() - t0) * 1e3 / compiles, filter.prog.len);
    syscalls("unfiltered");
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &filter.prog, 0, 0) != 0) {
        perror("seccomp");
        return 1;
    }
    syscalls("filtered");
    return 0;
}
C

build() { # $1 = output, $2 = directory holding the CSandbox sources
  csandbox_harness "$1" "$2" "$work/harness.c"
}
mkdir -p "$work/peer/include"
for file in $(git ls-tree --name-only "$PEER_COMMIT" Sources/CSandbox/ Sources/CSandbox/include/); do
  case "$file" in */seccomp*.c|*.h) git show "$PEER_COMMIT:$file" > "$work/peer/${file#Sources/CSandbox/}" ;; esac
done
rm -f "$work/peer/seccomp_oci.c"  # the OCI loader is not part of the default policy
build "$work/allow-list" Sources/CSandbox
build "$work/deny-list" "$work/peer"
for round in 1 2 3; do
  echo "== round $round: allow-list (this tree)"; "$work/allow-list"
  echo "== round $round: deny-list ($PEER_COMMIT)"; "$work/deny-list"
done
