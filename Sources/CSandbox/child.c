/*
 * The sandbox init (pid 1 of the new pid namespace) and the payload it forks.
 * Only syscalls here: this process was cloned from a multithreaded Swift program, so
 * any lock (malloc, stdio, the dynamic loader) may be held by a thread that is gone.
 */
#include "internal.h"

#include <fcntl.h>
#include <sched.h>
#include <linux/close_range.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/seccomp.h>

void sbx_child_fail(int report_fd, int stage, int index) {
    struct sbx_report report = {.stage = stage, .err = errno, .index = index};
    ssize_t ignored = write(report_fd, &report, sizeof report);
    (void)ignored;
    _exit(125);
}

static size_t string_length(const char *text) {
    size_t length = 0;
    while (text[length] != '\0') length++;
    return length;
}

static uint64_t monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

/* execvpe without allocation: try each directory of search_path in turn, remembering
   EACCES so that "exists but not executable" wins over "not found". */
static void exec_payload(const struct sbx_config *config) {
    const char *name = config->argv[0];
    char *const *argv = (char *const *)config->argv;
    char *const *envp = (char *const *)config->envp;
    if (strchr(name, '/') != NULL || config->search_path == NULL) {
        execve(name, argv, envp);
        return;
    }
    size_t name_length = string_length(name);
    char candidate[4096];
    int saw_eacces = 0;
    const char *cursor = config->search_path;
    while (1) {
        const char *end = strchr(cursor, ':');
        size_t dir_length = end ? (size_t)(end - cursor) : string_length(cursor);
        if (dir_length == 0) {
            dir_length = 1;
            cursor = ".";
        }
        if (dir_length + 1 + name_length + 1 <= sizeof candidate) {
            memcpy(candidate, cursor, dir_length);
            candidate[dir_length] = '/';
            memcpy(candidate + dir_length + 1, name, name_length + 1);
            execve(candidate, argv, envp);
            if (errno == EACCES) saw_eacces = 1;
            else if (errno != ENOENT && errno != ENOTDIR) return;
        }
        if (end == NULL) break;
        cursor = end + 1;
    }
    errno = saw_eacces ? EACCES : ENOENT;
}

static int setup_stdio(const struct sbx_config *config, int tty_slave) {
    int wanted[3] = {config->stdin_fd, config->stdout_fd, config->stderr_fd};
    if (tty_slave >= 0) wanted[0] = wanted[1] = wanted[2] = tty_slave;
    int staged[3];
    /* Move the sources out of 0..2 first so dup2 cannot clobber one with another. */
    for (int i = 0; i < 3; i++) {
        if (wanted[i] < 0) {
            staged[i] = open("/dev/null", (i == 0 ? O_RDONLY : O_WRONLY) | O_CLOEXEC);
        } else {
            staged[i] = fcntl(wanted[i], F_DUPFD_CLOEXEC, 10);
        }
        if (staged[i] < 0) return -1;
    }
    for (int i = 0; i < 3; i++) {
        if (dup2(staged[i], i) != i) return -1;
        close(staged[i]);
    }
    return 0;
}

static int reset_signals(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; sig++) {
        if (sig == SIGKILL || sig == SIGSTOP) continue;
        /* glibc refuses its internal signals; they have no handler to reset. */
        (void)sigaction(sig, &action, NULL);
    }
    sigset_t none;
    sigemptyset(&none);
    return sigprocmask(SIG_SETMASK, &none, NULL);
}

/* The payload: drop everything, in nsjail's order, then exec. */
__attribute__((noreturn)) static void payload_main(const struct sbx_config *config, int report,
                                                  int tty_slave, volatile uint64_t *exec_ns) {
    if (setsid() < 0) sbx_child_fail(report, SBX_STAGE_SETSID, -1);
    if (setup_stdio(config, tty_slave) != 0) sbx_child_fail(report, SBX_STAGE_STDIO, -1);
    if (tty_slave >= 0 && sbx_pty_take_control() != 0) sbx_child_fail(report, SBX_STAGE_CTTY, -1);
    if (sbx_apply_rlimits(config->rlimits, config->rlimit_count) != 0) {
        sbx_child_fail(report, SBX_STAGE_RLIMIT, -1);
    }
    if (sbx_drop_bounding_set() != 0) sbx_child_fail(report, SBX_STAGE_CAPBSET, -1);
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0) {
        sbx_child_fail(report, SBX_STAGE_AMBIENT, -1);
    }
    /* Raw syscalls: glibc's set*id wrappers broadcast to threads this process lacks. */
    if (!config->deny_setgroups) {
        gid_t groups[1] = {config->gid};
        if (syscall(SYS_setgroups, 1, groups) != 0) sbx_child_fail(report, SBX_STAGE_SETGROUPS, -1);
    }
    if (syscall(SYS_setresgid, config->gid, config->gid, config->gid) != 0) {
        sbx_child_fail(report, SBX_STAGE_SETGID, -1);
    }
    if (syscall(SYS_setresuid, config->uid, config->uid, config->uid) != 0) {
        sbx_child_fail(report, SBX_STAGE_SETUID, -1);
    }
    if (sbx_clear_capabilities() != 0) sbx_child_fail(report, SBX_STAGE_CAPSET, -1);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        sbx_child_fail(report, SBX_STAGE_NO_NEW_PRIVS, -1);
    }
    /* Everything above 2 closes at exec; the report pipe stays usable until then. */
    if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) != 0) sbx_child_fail(report, SBX_STAGE_CLOSE_FDS, -1);
    if (reset_signals() != 0) sbx_child_fail(report, SBX_STAGE_SIGNALS, -1);
    if (config->seccomp != NULL &&
        prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, config->seccomp, 0, 0) != 0) {
        sbx_child_fail(report, SBX_STAGE_SECCOMP, -1);
    }
    /* The init's memory is ours until the execve (CLONE_VM): the stamp taken here is what it
       reads once the vfork ends, so the command's time starts at its execve, not at whenever a
       loaded machine next schedules the init (which made a 0.3 s sleep read 0.299 s). */
    *exec_ns = monotonic_ns();
    exec_payload(config);
    sbx_child_fail(report, SBX_STAGE_EXECVE, -1);
}

/* Blocks until the parent sends one byte (a release), taking up to `capacity` descriptors with
   it (CLOEXEC) into `message`; EOF means it died or gave up. */
static void wait_for_parent(int sync_read, int report, struct sbx_fd_message *message, size_t capacity) {
    sbx_fd_message_init(message, 0, capacity);
    ssize_t got;
    do {
        got = recvmsg(sync_read, &message->header, MSG_CMSG_CLOEXEC);
    } while (got < 0 && errno == EINTR);
    if (got != 1) {
        if (got == 0) errno = EPIPE;
        sbx_child_fail(report, SBX_STAGE_SYNC, -1);
    }
}

/* The second release: one byte, with the cgroup files the init moves itself in by, if the
   launcher moves it by none (cgroup v1 `tasks`). Writing "0" moves the writing thread alone,
   which takes none of the kernel's global migration lock, so no RCU grace period; the init is
   single-threaded, and the payload forks after it. The files were opened by the root launcher,
   whose credentials the kernel checks. */
static void wait_for_release_into_cgroups(int sync_read, int report) {
    struct sbx_fd_message message;
    wait_for_parent(sync_read, report, &message, SBX_PASSED_FDS_MAX);
    if (message.header.msg_flags & MSG_CTRUNC) {
        errno = EPROTO;
        sbx_child_fail(report, SBX_STAGE_CGROUP_ATTACH, -1);
    }
    int index = 0;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message.header); header != NULL;
         header = CMSG_NXTHDR(&message.header, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; i++, index++) {
            int fd;
            memcpy(&fd, CMSG_DATA(header) + i * sizeof(int), sizeof fd);
            ssize_t written;
            do {
                written = write(fd, "0", 1);
            } while (written < 0 && errno == EINTR);
            if (written != 1) sbx_child_fail(report, SBX_STAGE_CGROUP_ATTACH, index);
            close(fd);
        }
    }
}

/* 0..2 included: they are the launcher's own stdio, which no sandbox process may hold. */
static void close_all_except(int keep) {
    if (keep > 0) (void)close_range(0, (unsigned)keep - 1, 0);
    (void)close_range((unsigned)keep + 1, ~0U, 0);
}

/* Our copy of the launcher's argv (a DAST run's `--header 'Authorization: ...'`) and environment
   shows in /proc/1/cmdline and /proc/1/environ; the first may be read by any process in the
   sandbox. Both become NULs after a fixed title, before any sandbox process exists. Plain
   stores into our own copy-on-write pages: nothing the launcher sees changes. */
static void hide_launcher_arguments(const struct sbx_config *config) {
    static const char title[] = "sentinel-init";
    volatile char *arguments = (volatile char *)config->argument_area;
    for (uintptr_t i = 0; arguments != NULL && i < config->argument_area_length; i++) {
        arguments[i] = i + 1 < config->argument_area_length && i < sizeof title - 1 ? title[i] : '\0';
    }
    volatile char *environment = (volatile char *)config->environment_area;
    for (uintptr_t i = 0; environment != NULL && i < config->environment_area_length; i++) {
        environment[i] = '\0';
    }
    (void)prctl(PR_SET_NAME, title, 0, 0, 0);
}

struct payload_start {
    const struct sbx_config *config;
    const struct sbx_child_fds *fds;
    int tty_slave;
    volatile uint64_t exec_ns; /* written by the payload just before its execve */
};

static int payload_entry(void *argument) {
    struct payload_start *start = argument;
    close(start->fds->status_write);
    payload_main(start->config, start->fds->report_write, start->tty_slave, &start->exec_ns);
}

/* 64 KiB is ample for payload_main (its deepest frame is exec_payload's 4 KiB path); the
   mapping stays until the init exits. */
#define PAYLOAD_STACK_SIZE (64 * 1024)

/* The payload shares the init's memory until its execve (CLONE_VM | CLONE_VFORK, as
   posix_spawn does), so starting it copies none of the launcher's page tables and takes no
   copy-on-write faults; the init sleeps meanwhile, so nothing changes under the payload. It
   runs on a stack of its own: a vfork child returning through the init's frames would
   overwrite them. Its file table, signal handlers and credentials are its own (no CLONE_FILES,
   CLONE_SIGHAND or CLONE_THREAD), so everything payload_main drops is dropped for it alone. */
static pid_t spawn_payload(const struct sbx_config *config, const struct sbx_child_fds *fds,
                           int tty_slave, uint64_t *exec_ns) {
    void *stack = mmap(NULL, PAYLOAD_STACK_SIZE, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED) return -1;
    struct payload_start start = {.config = config, .fds = fds, .tty_slave = tty_slave, .exec_ns = 0};
    pid_t pid = clone(payload_entry, (char *)stack + PAYLOAD_STACK_SIZE, CLONE_VM | CLONE_VFORK | SIGCHLD,
                      &start);
    *exec_ns = start.exec_ns;
    return pid;
}

void sbx_init_main(const struct sbx_config *config, const struct sbx_child_fds *fds) {
    int report = fds->report_write;
    close(fds->sync_write);
    hide_launcher_arguments(config);
    /* The launcher dying must take the whole sandbox with it. */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) {
        sbx_child_fail(report, SBX_STAGE_PDEATHSIG, -1);
    }
    struct sbx_fd_message first_release; /* the id maps are written: it carries nothing */
    wait_for_parent(fds->sync_read, report, &first_release, 0);
    if (setsid() < 0) sbx_child_fail(report, SBX_STAGE_SETSID, -1);
    /* The UTS namespace is the sandbox's own whatever the name in it. Only a filter around the
       launcher refuses sethostname here (the child holds CAP_SYS_ADMIN in the namespace's owner):
       podman's and Docker's default seccomp profiles allow it only to a container holding
       CAP_SYS_ADMIN, which a non-root container user never does. The payload then sees the name
       it inherited, the container's, and still cannot change anyone's. */
    if (config->hostname != NULL &&
        sethostname(config->hostname, string_length(config->hostname)) != 0 && errno != EPERM) {
        sbx_child_fail(report, SBX_STAGE_HOSTNAME, -1);
    }
    /* A namespace the launcher made ahead is up and set already, and not ours to change. */
    if (config->netns_fd < 0 && sbx_loopback_up(config->loopback_mtu) != 0) {
        sbx_child_fail(report, SBX_STAGE_LOOPBACK, -1);
    }
    if (config->proxy_port > 0) {
        if (sbx_proxy_listen(config->proxy_port, fds->proxy_socket) != 0) {
            sbx_child_fail(report, SBX_STAGE_PROXY_SOCKET, -1);
        }
    }

    int stage = SBX_STAGE_NONE;
    int index = -1;
    int sysctl_fds[SBX_SYSCTLS_MAX];
    if (sbx_sysctls_open(config->sysctls, config->sysctl_count, sysctl_fds, &index) != 0) {
        sbx_child_fail(report, SBX_STAGE_SYSCTLS, index);
    }
    if (sbx_build_root(config, &stage, &index) != 0) sbx_child_fail(report, stage, index);
    int tty_slave = -1;
    if (config->tty && (tty_slave = sbx_pty_open(config, fds->proxy_socket)) < 0) {
        sbx_child_fail(report, SBX_STAGE_PTY, -1);
    }
    if (fds->proxy_socket >= 0) close(fds->proxy_socket);

    /* In our cgroups after this (moved by the parent, or by ourselves); make them our cgroup
       root, so the payload and everything it forks start there. */
    wait_for_release_into_cgroups(fds->sync_read, report);
    close(fds->sync_read);
    if (unshare(CLONE_NEWCGROUP) != 0) sbx_child_fail(report, SBX_STAGE_CGROUP_NS, -1);
    if (sbx_sysctls_write(config->sysctls, config->sysctl_count, sysctl_fds, &index) != 0) {
        sbx_child_fail(report, SBX_STAGE_SYSCTLS, index);
    }
    /* Not dumpable: a payload sharing our uid (rw workspace owned by root) must not be
       able to open /proc/1/mem or ptrace the init. */
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) sbx_child_fail(report, SBX_STAGE_DUMPABLE, -1);

    uint64_t started = 0;
    pid_t payload = spawn_payload(config, fds, tty_slave, &started);
    if (payload < 0) sbx_child_fail(report, SBX_STAGE_FORK, -1);
    /* The vfork is over: the payload has exec'd (or failed to, and reported it). */
    if (started == 0) started = monotonic_ns();

    /* Init keeps only the status pipe: holding the caller's pipes would delay their EOF. */
    close_all_except(fds->status_write);
    int status_fd = fds->status_write;
    for (;;) {
        int status = 0;
        pid_t reaped = (pid_t)syscall(SYS_wait4, -1, &status, 0, NULL);
        if (reaped < 0) {
            if (errno == EINTR) continue;
            _exit(125);
        }
        if (reaped == payload) {
            struct sbx_payload_end end = {
                .status = status, .reserved = 0, .started_ns = started, .ended_ns = monotonic_ns()};
            ssize_t ignored = write(status_fd, &end, sizeof end);
            (void)ignored;
            /* pid 1 exiting makes the kernel kill everything left in the namespace,
               double-forked daemons included. */
            _exit(0);
        }
    }
}
