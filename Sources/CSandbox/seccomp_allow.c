/*
 * The allow-list layer of the default seccomp policy: the syscalls a payload may make at all.
 * Anything not named here answers ENOSYS, as on a kernel without it, so a syscall a future
 * kernel adds stays closed until someone reviews it and lists it here.
 *
 * The list is Docker's default profile for a container with no capabilities on x86_64 (see
 * ../shared/corpora/seccomp/docker-default.json), minus what the deny layer refuses anyway
 * and minus Linux AIO (below).
 * SeccompPolicyTests checks it is never looser than that profile.
 */
#include "internal.h"
#include "seccomp_internal.h"

#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>

static const char *const allowed_syscalls[] = {
    /* files and directories */
    "access", "chdir", "chmod", "chown", "close", "close_range", "copy_file_range", "creat",
    "dup", "dup2", "dup3", "faccessat", "faccessat2", "fadvise64", "fallocate", "fchdir",
    "fchmod", "fchmodat", "fchmodat2", "fchown", "fchownat", "fcntl", "fdatasync", "flock",
    "fstat", "fstatfs", "fsync", "ftruncate", "futimesat", "getcwd", "getdents", "getdents64",
    "lchown", "link", "linkat", "lseek", "lstat", "mkdir", "mkdirat", "mknod", "mknodat",
    "newfstatat", "open", "openat", "pread64", "preadv", "preadv2", "pwrite64", "pwritev",
    "pwritev2", "read", "readahead", "readlink", "readlinkat", "readv", "rename", "renameat",
    "renameat2", "rmdir", "sendfile", "splice", "stat", "statfs", "statx", "symlink",
    "symlinkat", "sync", "sync_file_range", "syncfs", "tee", "truncate", "umask", "unlink",
    "unlinkat", "utime", "utimensat", "utimes", "vmsplice", "write", "writev", "cachestat",
    "statmount", "listmount",
    /* extended attributes */
    "fgetxattr", "flistxattr", "fremovexattr", "fsetxattr", "getxattr", "lgetxattr",
    "listxattr", "llistxattr", "lremovexattr", "lsetxattr", "removexattr", "setxattr",
    "getxattrat", "listxattrat", "removexattrat", "setxattrat",
    /* memory */
    "brk", "madvise", "membarrier", "memfd_create", "memfd_secret", "mincore", "mlock",
    "mlock2", "mlockall", "mmap", "mprotect", "mremap", "msync", "munlock", "munlockall",
    "munmap", "pkey_alloc", "pkey_free", "pkey_mprotect", "remap_file_pages", "mseal",
    "map_shadow_stack",
    /* processes, threads, signals (clone is conditional, below) */
    "arch_prctl", "execve", "execveat", "exit", "exit_group", "fork", "vfork", "wait4",
    "waitid", "kill", "tkill", "tgkill", "pidfd_open", "pidfd_send_signal", "process_mrelease",
    "getpid", "getppid", "gettid", "getpgid", "getpgrp", "getsid", "setpgid", "setsid",
    "get_robust_list", "set_robust_list", "set_tid_address", "get_thread_area",
    "set_thread_area", "rseq", "restart_syscall", "pause", "prctl", "seccomp",
    "rt_sigaction", "rt_sigpending", "rt_sigprocmask", "rt_sigqueueinfo", "rt_sigreturn",
    "rt_sigsuspend", "rt_sigtimedwait", "rt_tgsigqueueinfo", "sigaltstack", "signalfd",
    "signalfd4", "futex", "futex_waitv", "futex_wake", "futex_wait", "futex_requeue",
    "uretprobe",
    /* credentials and limits (the kernel checks privilege; the payload holds none) */
    "capget", "capset", "getegid", "geteuid", "getgid", "getgroups", "getresgid", "getresuid",
    "getuid", "setfsgid", "setfsuid", "setgid", "setgroups", "setregid", "setresgid",
    "setresuid", "setreuid", "setuid", "getrlimit", "setrlimit", "prlimit64", "getrusage",
    "getpriority", "setpriority", "ioprio_get", "ioprio_set",
    "landlock_add_rule", "landlock_create_ruleset", "landlock_restrict_self",
    /* scheduling */
    "sched_getaffinity", "sched_getattr", "sched_getparam", "sched_get_priority_max",
    "sched_get_priority_min", "sched_getscheduler", "sched_rr_get_interval",
    "sched_setaffinity", "sched_setattr", "sched_setparam", "sched_setscheduler", "sched_yield",
    "getcpu",
    /* time */
    "alarm", "clock_getres", "clock_gettime", "clock_nanosleep", "getitimer", "gettimeofday",
    "nanosleep", "setitimer", "time", "times", "timer_create", "timer_delete",
    "timer_getoverrun", "timer_gettime", "timer_settime", "timerfd_create", "timerfd_gettime",
    "timerfd_settime",
    /* waiting and events */
    "epoll_create", "epoll_create1", "epoll_ctl", "epoll_ctl_old", "epoll_pwait",
    "epoll_pwait2", "epoll_wait", "epoll_wait_old", "eventfd", "eventfd2", "inotify_add_watch",
    "inotify_init", "inotify_init1", "inotify_rm_watch", "fanotify_mark", "poll", "ppoll",
    "pselect6", "select", "pipe", "pipe2",
    /* Not Linux AIO (io_setup and the rest): fs.aio-max-nr is one pool of events for the whole
       host, and one io_setup can take all of it. Absent, as on a kernel built without
       CONFIG_AIO, which its users handle (glibc's POSIX AIO uses threads anyway). */
    /* sockets (socket itself is conditional, below) */
    "accept", "accept4", "bind", "connect", "getpeername", "getsockname", "getsockopt",
    "listen", "recvfrom", "recvmmsg", "recvmsg", "sendmmsg", "sendmsg", "sendto",
    "setsockopt", "shutdown", "socketpair",
    /* System V and POSIX IPC (namespaced with the sandbox's IPC namespace) */
    "mq_getsetattr", "mq_notify", "mq_open", "mq_timedreceive", "mq_timedsend", "mq_unlink",
    "msgctl", "msgget", "msgrcv", "msgsnd", "semctl", "semget", "semop", "semtimedop",
    "shmat", "shmctl", "shmdt", "shmget",
    /* the rest: device control (the deny layer refuses TIOCSTI and TIOCLINUX), host facts */
    "ioctl", "sysinfo", "uname", "getrandom",
};

/* Namespace flags clone() must not carry: NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID,
   NEWNET (Docker's 0x7E020000) and NEWTIME (0x80). */
#define SBX_CLONE_NAMESPACE_FLAGS 0x7E020080UL

/* personality() values Docker permits: PER_LINUX, PER_LINUX32, UNAME26 with either, and the
   query. The deny layer refuses the query anyway, with EPERM. */
static const unsigned long allowed_personalities[] = {0x0, 0x8, 0x20000, 0x20008, 0xffffffffUL};

/* socket(): Unix sockets, and TCP and UDP over IPv4 and IPv6. No ICMP "ping" sockets (the
   sandbox has no route out but its HTTP(S) proxy), no netlink (glibc's getaddrinfo does not
   need it: it falls back when the socket fails), no MPTCP, UDP-Lite, SCTP, raw or packet. */
static int add_socket_allows(scmp_filter_ctx ctx) {
    int rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_EQ, AF_UNIX, 0));
    static const struct {
        int type;
        int protocol;
    } inet[] = {{SOCK_STREAM, 0}, {SOCK_STREAM, IPPROTO_TCP}, {SOCK_DGRAM, 0}, {SOCK_DGRAM, IPPROTO_UDP}};
    const int families[] = {AF_INET, AF_INET6};
    for (size_t f = 0; f < 2; f++) {
        for (size_t i = 0; i < sizeof inet / sizeof inet[0]; i++) {
            /* The low four bits are the type; SOCK_NONBLOCK and SOCK_CLOEXEC sit above them. */
            rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socket), 3,
                                   SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)families[f], 0),
                                   SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, (scmp_datum_t)inet[i].type),
                                   SCMP_A2(SCMP_CMP_EQ, (scmp_datum_t)inet[i].protocol, 0));
        }
    }
    return rc;
}

int sbx_seccomp_allow_layer_openat2(scmp_filter_ctx ctx, char *err, size_t err_len) {
    int nr = sbx_syscall_number("openat2");
    int rc = nr < 0 ? 0 : seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
    if (rc != 0) {
        snprintf(err, err_len, "seccomp allow rule for openat2: %s", strerror(-rc));
        return -1;
    }
    return sbx_seccomp_allow_layer(ctx, err, err_len);
}

int sbx_seccomp_allow_layer(scmp_filter_ctx ctx, char *err, size_t err_len) {
    for (size_t i = 0; i < sizeof allowed_syscalls / sizeof allowed_syscalls[0]; i++) {
        int nr = sbx_syscall_number(allowed_syscalls[i]);
        if (nr < 0) continue; /* not a syscall on this architecture */
        int rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
        if (rc != 0) {
            snprintf(err, err_len, "seccomp allow rule for %s: %s", allowed_syscalls[i], strerror(-rc));
            return -1;
        }
    }
    int rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
                              SCMP_A0(SCMP_CMP_MASKED_EQ, SBX_CLONE_NAMESPACE_FLAGS, 0));
    for (size_t i = 0; i < sizeof allowed_personalities / sizeof allowed_personalities[0]; i++) {
        rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(personality), 1,
                               SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)allowed_personalities[i], 0));
    }
    rc |= add_socket_allows(ctx);
    if (rc != 0) {
        snprintf(err, err_len, "seccomp conditional allow rules: %s", strerror(-rc));
        return -1;
    }
    return 0;
}
