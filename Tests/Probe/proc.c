/* Other processes: trace them, read their memory, signal them, see them. */
#include "probe.h"

#include <ctype.h>
#include <limits.h>
#include <fcntl.h>
#include <stdint.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

/* Written by the child before it waits, read from the parent through the kernel. */
static volatile long marker = 0;

/* A sibling to attack: a forked child that waits to be killed. */
static pid_t spawn_victim(void) {
    marker = 0x5e471e1; /* inherited by the child, so its copy holds it from the start */
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        for (;;) pause();
    }
    if (pid > 0) usleep(20 * 1000); /* let the child reach pause() */
    marker = 0;                     /* so a read of 0x5e471e1 came from the child */
    return pid;
}

static void end_victim(pid_t pid) {
    kill(pid, SIGKILL);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
}

int v_ptrace_sibling(int argc, char **argv) {
    (void)argc;
    pid_t pid = spawn_victim();
    if (pid < 0) return usage(argv[0], "fork failed");
    long rc = ptrace(PTRACE_ATTACH, pid, NULL, NULL);
    int err = errno;
    end_victim(pid);
    if (rc != 0) return denied(argv[0], err);
    return escaped(argv[0], "attached=%ld", (long)pid);
}

static int traceme_attempt(const char *verb, void *ctx) {
    (void)ctx;
    if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0) return denied(verb, errno);
    return escaped(verb, "traced-by-parent");
}

int v_ptrace_traceme(int argc, char **argv) {
    (void)argc;
    return in_child(argv[0], traceme_attempt, NULL);
}

int v_process_vm_readv(int argc, char **argv) {
    (void)argc;
    pid_t pid = spawn_victim();
    if (pid < 0) return usage(argv[0], "fork failed");
    long value = 0;
    struct iovec local = {&value, sizeof value};
    struct iovec remote = {(void *)&marker, sizeof marker};
    ssize_t n = process_vm_readv(pid, &local, 1, &remote, 1, 0);
    int err = errno;
    end_victim(pid);
    if (n < 0) return denied(argv[0], err);
    return escaped(argv[0], "read=0x%lx from=%ld", value, (long)pid);
}

int v_kill_pid(int argc, char **argv) {
    (void)argc;
    long pid = 0;
    if (parse_int(argv[1], &pid) != 0 || pid <= 0 || pid > INT_MAX)
        return usage(argv[0], "PID must be a positive number");
    if (kill((pid_t)pid, 0) != 0) return denied(argv[0], errno);
    return escaped(argv[0], "signalable=%ld", pid);
}

int v_kill_init(int argc, char **argv) {
    (void)argc;
    /* As pid 1 we would signal ourselves, which the kernel silently drops for an init. */
    if (getpid() == 1) return info(argv[0], "pid1=self");
    if (kill(1, SIGKILL) != 0) return denied(argv[0], errno);
    return escaped(argv[0], "killed=1");
}

int v_ps(int argc, char **argv) {
    (void)argc;
    DIR *dir = opendir("/proc");
    if (dir == NULL) return denied(argv[0], errno);
    int count = 0;
    char list[512] = "";
    size_t used = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (!isdigit((unsigned char)entry->d_name[0])) continue;
        count++;
        int wrote = snprintf(list + used, sizeof list - used, "%s%s", used ? "," : "", entry->d_name);
        if (wrote > 0 && (size_t)wrote < sizeof list - used) used += (size_t)wrote;
    }
    closedir(dir);
    return info(argv[0], "pids=%d list=%s", count, used ? list : "none");
}

/* /proc/PID/mem needs no ptrace syscall: only the ptrace access check, which seccomp never sees. */
int v_proc_mem_sibling(int argc, char **argv) {
    (void)argc;
    pid_t pid = spawn_victim();
    if (pid < 0) return usage(argv[0], "fork failed");
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/mem", (long)pid);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    int err = errno;
    long value = 0;
    ssize_t n = -1;
    if (fd >= 0) {
        n = pread(fd, &value, sizeof value, (off_t)(uintptr_t)&marker);
        err = errno;
        close(fd);
    }
    end_victim(pid);
    if (fd < 0 || n != (ssize_t)sizeof value) return denied(argv[0], err);
    return escaped(argv[0], "read=0x%lx via=%s", value, path);
}
