/* Resource attempts: processes, memory, disk, CPU time, and a daemon that outlives its parent.
 * Each is bounded so that, run by mistake without limits, it stops on its own. */
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { FORK_CAP = 4096, DISK_CAP_MB_DEFAULT = 512, MIB = 1024 * 1024 };

int v_fork_bomb(int argc, char **argv) {
    (void)argc;
    pid_t *children = calloc(FORK_CAP, sizeof *children);
    if (children == NULL) return denied(argv[0], ENOMEM);
    int count = 0, err = 0;
    fflush(stdout);
    while (count < FORK_CAP) {
        pid_t pid = fork();
        if (pid == 0) {
            for (;;) pause();
        }
        if (pid < 0) {
            err = errno;
            break;
        }
        children[count++] = pid;
    }
    for (int i = 0; i < count; i++) kill(children[i], SIGKILL);
    for (int i = 0; i < count; i++) {
        int status;
        while (waitpid(children[i], &status, 0) < 0 && errno == EINTR) {
        }
    }
    free(children);
    fprintf(stderr, "sentinel-probe fork-bomb: %d children before %s\n", count,
            err ? errno_name(err) : "the cap");
    if (err == 0) return escaped(argv[0], "forked=%d", count);
    return denied(argv[0], err);
}

int v_memory_bomb(int argc, char **argv) {
    (void)argc;
    long limit = 0;
    if (parse_int(argv[1], &limit) != 0 || limit <= 0) return usage(argv[0], "MB must be a positive number");
    long held = 0;
    /* The blocks are leaked on purpose: the point is to hold them until killed. */
    for (; held < limit; held++) {
        char *block = malloc(MIB);
        if (block == NULL) return denied(argv[0], ENOMEM);
        memset(block, 0xa5, MIB);
    }
    return escaped(argv[0], "held-mb=%ld", held);
}

int v_disk_fill(int argc, char **argv) {
    long cap = DISK_CAP_MB_DEFAULT;
    if (argc > 2 && (parse_int(argv[2], &cap) != 0 || cap <= 0)) return usage(argv[0], "MAX_MB must be a positive number");
    signal(SIGXFSZ, SIG_IGN); /* so an fsize limit shows as EFBIG rather than a kill */
    char path[4096];
    snprintf(path, sizeof path, "%s/.sentinel-fill-%ld", argv[1], (long)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return denied(argv[0], errno);
    static char chunk[MIB];
    memset(chunk, 0x5a, sizeof chunk);
    long written_mb = 0;
    int err = 0;
    while (written_mb < cap) {
        size_t done = 0;
        while (done < sizeof chunk) {
            ssize_t n = write(fd, chunk + done, sizeof chunk - done);
            if (n < 0) {
                if (errno == EINTR) continue;
                err = errno;
                break;
            }
            done += (size_t)n;
        }
        if (err != 0) break;
        written_mb++;
    }
    close(fd);
    unlink(path);
    fprintf(stderr, "sentinel-probe disk-fill: %ld MiB before %s\n", written_mb,
            err ? errno_name(err) : "the cap");
    if (err == 0) return escaped(argv[0], "written-mb=%ld", written_mb);
    return denied(argv[0], err);
}

int v_spin(int argc, char **argv) {
    (void)argc;
    (void)argv;
    volatile unsigned long counter = 0;
    for (;;) counter++;
}

/* Burns CPU until this process has used MS milliseconds of it, reports the exact figure (the
 * truth a launcher's CPU accounting is checked against), then exits, or with HOLD waits to be
 * killed without using more. */
int v_burn_cpu(int argc, char **argv) {
    long target_ms;
    if (parse_int(argv[1], &target_ms) != 0 || target_ms <= 0 || target_ms > 60000) {
        return usage(argv[0], "MS must be 1..60000");
    }
    struct timespec used = {0, 0};
    volatile unsigned long counter = 0;
    long used_ms = 0;
    while (used_ms < target_ms) {
        for (int i = 0; i < 1000000; i++) counter++;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &used);
        used_ms = (long)used.tv_sec * 1000 + used.tv_nsec / 1000000;
    }
    int status = info(argv[0], "cpu_ms=%ld", used_ms);
    if (argc > 2) {
        for (;;) pause();
    }
    return status;
}

/* The grandchild: detached, deaf to polite signals, appending a heartbeat forever. */
static void heartbeat_forever(const char *file) {
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    signal(SIGINT, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    int null_fd = open("/dev/null", O_RDWR);
    for (int fd = 0; fd <= 2 && null_fd >= 0; fd++) dup2(null_fd, fd);
    if (null_fd > 2) close(null_fd);
    struct timespec tick = {0, 100 * 1000 * 1000};
    for (unsigned long beat = 0;; beat++) {
        int fd = open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (fd >= 0) {
            char line[64];
            int len = snprintf(line, sizeof line, "beat %lu pid %ld\n", beat, (long)getpid());
            if (len > 0 && write(fd, line, (size_t)len) < 0) {
                /* nothing to report to: stderr is /dev/null */
            }
            close(fd);
        }
        nanosleep(&tick, NULL);
    }
}

int v_daemon(int argc, char **argv) {
    (void)argc;
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0) return usage(argv[0], "pipe failed");
    fflush(stdout);
    pid_t child = fork();
    if (child < 0) return usage(argv[0], "fork failed");
    if (child == 0) {
        close(pipefd[0]);
        setsid();
        pid_t grandchild = fork();
        if (grandchild == 0) {
            close(pipefd[1]);
            heartbeat_forever(argv[1]);
        }
        long reported = grandchild;
        ssize_t n = write(pipefd[1], &reported, sizeof reported);
        _exit(n == (ssize_t)sizeof reported && grandchild > 0 ? 0 : 1);
    }
    close(pipefd[1]);
    long grandchild = -1;
    ssize_t n = read(pipefd[0], &grandchild, sizeof grandchild);
    close(pipefd[0]);
    int status;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (n != (ssize_t)sizeof grandchild || grandchild <= 0) return denied(argv[0], EAGAIN);
    return info(argv[0], "daemon-pid=%ld file=%s", grandchild, argv[1]);
}

int v_rlimit_raise(int argc, char **argv) {
    (void)argc;
    static const int resources[] = {RLIMIT_NPROC, RLIMIT_FSIZE, RLIMIT_NOFILE, RLIMIT_AS};
    static const char *const names[] = {"NPROC", "FSIZE", "NOFILE", "AS"};
    for (size_t i = 0; i < sizeof resources / sizeof resources[0]; i++) {
        struct rlimit lim;
        if (getrlimit(resources[i], &lim) != 0 || lim.rlim_max == RLIM_INFINITY) continue;
        struct rlimit raised = {RLIM_INFINITY, RLIM_INFINITY};
        if (setrlimit(resources[i], &raised) == 0) return escaped(argv[0], "raised=%s", names[i]);
        return denied(argv[0], errno);
    }
    return info(argv[0], "no-finite-hard-limit");
}

int v_nice(int argc, char **argv) {
    (void)argc;
    if (setpriority(PRIO_PROCESS, 0, -20) != 0) return denied(argv[0], errno);
    return escaped(argv[0], "nice=-20");
}
