/* Namespace attempts: new namespaces by unshare, clone and clone3; joining others by setns. */
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int try_unshare(const char *verb, int flags) {
    if (unshare(flags) != 0) return denied(verb, errno);
    return escaped(verb, "unshared=0x%x", (unsigned)flags);
}

int v_unshare_userns(int argc, char **argv) {
    (void)argc;
    return try_unshare(argv[0], CLONE_NEWUSER);
}

int v_unshare_netns(int argc, char **argv) {
    (void)argc;
    return try_unshare(argv[0], CLONE_NEWNET);
}

int v_unshare_mntns(int argc, char **argv) {
    (void)argc;
    return try_unshare(argv[0], CLONE_NEWNS);
}

/* Reaps a child that exits at once; the child ran no code of ours after the raw clone. */
static void reap(long pid) {
    int status;
    while (waitpid((pid_t)pid, &status, 0) < 0 && errno == EINTR) {
    }
}

static int try_clone3(const char *verb, uint64_t flags) {
    struct clone_args args;
    memset(&args, 0, sizeof args);
    args.flags = flags;
    args.exit_signal = SIGCHLD;
    fflush(stdout);
    long pid = syscall(SYS_clone3, &args, sizeof args);
    if (pid == 0) _exit(0);
    if (pid < 0) return denied(verb, errno);
    reap(pid);
    return escaped(verb, "child=%ld flags=0x%llx", pid, (unsigned long long)flags);
}

int v_clone3(int argc, char **argv) {
    (void)argc;
    return try_clone3(argv[0], 0);
}

int v_clone3_newuser(int argc, char **argv) {
    (void)argc;
    return try_clone3(argv[0], CLONE_NEWUSER);
}

int v_clone_newns(int argc, char **argv) {
    (void)argc;
    fflush(stdout);
    /* x86_64 raw clone: flags, stack, parent_tid, child_tid, tls. */
    long pid = syscall(SYS_clone, (unsigned long)(CLONE_NEWUSER | SIGCHLD), 0L, 0L, 0L, 0L);
    if (pid == 0) _exit(0);
    if (pid < 0) return denied(argv[0], errno);
    reap(pid);
    return escaped(argv[0], "child=%ld flags=CLONE_NEWUSER", pid);
}

int v_setns(int argc, char **argv) {
    (void)argc;
    int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
    if (fd < 0) return denied(argv[0], errno);
    int rc = setns(fd, 0);
    int err = errno;
    close(fd);
    if (rc != 0) return denied(argv[0], err);
    return escaped(argv[0], "joined=%s", argv[1]);
}

int v_setns_pidfd(int argc, char **argv) {
    long pid = 1;
    if (argc > 1 && (parse_int(argv[1], &pid) != 0 || pid <= 0 || pid > INT_MAX))
        return usage(argv[0], "PID must be a positive number");
    long pidfd = syscall(SYS_pidfd_open, (pid_t)pid, 0);
    if (pidfd < 0) return denied(argv[0], errno);
    int rc = setns((int)pidfd, CLONE_NEWNET | CLONE_NEWUTS | CLONE_NEWIPC);
    int err = errno;
    close((int)pidfd);
    if (rc != 0) return denied(argv[0], err);
    return escaped(argv[0], "joined-pid=%ld", pid);
}

int v_ns_ids(int argc, char **argv) {
    (void)argc;
    static const char *const kinds[] = {"user", "pid", "net", "mnt", "uts", "ipc", "cgroup"};
    char out[512] = "";
    size_t used = 0;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        char path[64], target[64];
        snprintf(path, sizeof path, "/proc/self/ns/%s", kinds[i]);
        ssize_t n = readlink(path, target, sizeof target - 1);
        if (n < 0) snprintf(target, sizeof target, "?");
        else target[n] = '\0';
        /* "net:[4026531840]" → the number only. */
        char *open_bracket = strchr(target, '[');
        char *id = open_bracket != NULL ? open_bracket + 1 : target;
        id[strcspn(id, "]")] = '\0';
        int wrote = snprintf(out + used, sizeof out - used, "%s%s=%s", used ? " " : "", kinds[i], id);
        if (wrote < 0 || (size_t)wrote >= sizeof out - used) break;
        used += (size_t)wrote;
    }
    return info(argv[0], "%s", out);
}
