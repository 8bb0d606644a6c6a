/*
 * Seccomp programs, compiled in the parent with libseccomp. libseccomp 2.5.4 cannot
 * export BPF to memory, so the program goes through a memfd and is read back into a
 * sock_fprog the child hands to prctl(PR_SET_SECCOMP) without touching the library.
 */
#include "internal.h"
#include "seccomp_internal.h"

#include <fcntl.h>
#include <linux/sched.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

/* Denied outright with EPERM: kernel attack surface, namespace and mount control,
   tracing, and host administration. */
static const char *const denied_syscalls[] = {
    "ptrace", "process_vm_readv", "process_vm_writev", "process_madvise", "pidfd_getfd",
    "kcmp", "mount", "umount", "umount2", "pivot_root", "chroot", "fsopen", "fsconfig",
    "fsmount", "fspick", "move_mount", "open_tree", "mount_setattr", "unshare", "setns",
    "bpf", "perf_event_open", "userfaultfd", "keyctl", "add_key", "request_key",
    "init_module", "finit_module", "delete_module", "create_module", "query_module",
    "get_kernel_syms", "kexec_load", "kexec_file_load", "io_uring_setup", "io_uring_enter",
    "io_uring_register", "open_by_handle_at", "name_to_handle_at", "reboot", "swapon",
    "swapoff", "acct", "syslog", "quotactl", "quotactl_fd", "nfsservctl", "lookup_dcookie",
    "uselib", "ustat", "sysfs", "_sysctl", "vhangup", "settimeofday", "stime",
    "clock_settime", "clock_adjtime", "adjtimex", "iopl", "ioperm", "sethostname",
    "setdomainname", "fanotify_init", "vm86", "vm86old", "modify_ldt", "lsm_set_self_attr",
};

/* Namespace-creating flags that clone() must not carry. */
static const unsigned long namespace_clone_flags[] = {
    CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID,
    CLONE_NEWNET, 0x00000080 /* CLONE_NEWTIME */,
};

/* Address families a scanner or test suite needs; everything else is EAFNOSUPPORT. */
static int add_socket_rules(scmp_filter_ctx ctx) {
    int rc = 0;
    const int afnosupport = SCMP_ACT_ERRNO(EAFNOSUPPORT);
    /* Domains 0, 3..9 and >= 11 (AF_UNIX = 1, AF_INET = 2, AF_INET6 = 10 stay). */
    rc |= seccomp_rule_add(ctx, afnosupport, SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_EQ, 0, 0));
    for (int domain = 3; domain <= 9; domain++) {
        rc |= seccomp_rule_add(ctx, afnosupport, SCMP_SYS(socket), 1,
                               SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)domain, 0));
    }
    rc |= seccomp_rule_add(ctx, afnosupport, SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_GE, 11, 0));
    /* Raw and packet sockets on the families that remain (the others already answered
       EAFNOSUPPORT above; libseccomp would let the lower errno win if both matched). */
    const int inet_families[] = {AF_INET, AF_INET6};
    const int raw_types[] = {SOCK_RAW, SOCK_PACKET};
    for (size_t f = 0; f < 2; f++) {
        for (size_t t = 0; t < 2; t++) {
            rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(socket), 2,
                                   SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)inet_families[f], 0),
                                   SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, (scmp_datum_t)raw_types[t]));
        }
    }
    return rc;
}

/* No setuid or setgid bits on files: a payload whose uid maps to the owner of a writable
   workspace could otherwise leave a setuid binary on the host (nosuid protects only the
   sandbox's own mounts). Covers chmod and file creation modes. */
static int add_setid_rules(scmp_filter_ctx ctx) {
    static const struct {
        const char *name;
        unsigned mode_arg;
    } mode_calls[] = {
        {"chmod", 1}, {"fchmod", 1}, {"fchmodat", 2}, {"fchmodat2", 2},
        {"open", 2}, {"openat", 3}, {"creat", 1}, {"mknod", 1}, {"mknodat", 2},
    };
    const scmp_datum_t bits[] = {S_ISUID, S_ISGID};
    int rc = 0;
    for (size_t i = 0; i < sizeof mode_calls / sizeof mode_calls[0]; i++) {
        int nr = seccomp_syscall_resolve_name(mode_calls[i].name);
#ifdef __x86_64__
        if (nr == __NR_SCMP_ERROR && strcmp(mode_calls[i].name, "fchmodat2") == 0) nr = 452;
#endif
        if (nr == __NR_SCMP_ERROR) continue;
        for (size_t b = 0; b < 2; b++) {
            struct scmp_arg_cmp cmp = {mode_calls[i].mode_arg, SCMP_CMP_MASKED_EQ, bits[b], bits[b]};
            rc |= seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(EPERM), nr, 1, &cmp);
        }
    }
    /* openat2 hides its mode in a struct the filter cannot read; callers fall back to openat. */
    int openat2 = seccomp_syscall_resolve_name("openat2");
#ifdef __x86_64__
    if (openat2 == __NR_SCMP_ERROR) openat2 = 437;
#endif
    if (openat2 != __NR_SCMP_ERROR) rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), openat2, 0);
    return rc;
}

static int build_default(scmp_filter_ctx ctx, char *err, size_t err_len) {
    int rc;
    size_t count = sizeof denied_syscalls / sizeof denied_syscalls[0];
    for (size_t i = 0; i < count; i++) {
        int nr = seccomp_syscall_resolve_name(denied_syscalls[i]);
        if (nr == __NR_SCMP_ERROR) continue; /* not on this architecture */
        rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0);
        if (rc != 0) {
            snprintf(err, err_len, "seccomp rule for %s: %s", denied_syscalls[i], strerror(-rc));
            return -1;
        }
    }
    rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    for (size_t i = 0; i < sizeof namespace_clone_flags / sizeof namespace_clone_flags[0]; i++) {
        rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                               SCMP_A0(SCMP_CMP_MASKED_EQ, namespace_clone_flags[i],
                                       namespace_clone_flags[i]));
    }
    /* Typing into a terminal's input queue, and Linux console control. */
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
                           SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, TIOCSTI));
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
                           SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, TIOCLINUX));
    /* personality(): no READ_IMPLIES_EXEC, ADDR_NO_RANDOMIZE, MMAP_PAGE_ZERO, or
       ADDR_COMPAT_LAYOUT, which weaken the address space layout. */
    const unsigned long bad_personality_bits[] = {0x0400000, 0x0040000, 0x0100000, 0x0200000};
    for (size_t i = 0; i < 4; i++) {
        rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(personality), 1,
                               SCMP_A0(SCMP_CMP_MASKED_EQ, bad_personality_bits[i],
                                       bad_personality_bits[i]));
    }
    rc |= add_socket_rules(ctx);
    rc |= add_setid_rules(ctx);
    if (rc != 0) {
        snprintf(err, err_len, "seccomp conditional rules: %s", strerror(-rc));
        return -1;
    }
    return 0;
}

int sbx_seccomp_export(scmp_filter_ctx ctx, struct sbx_filter *out, char *err, size_t err_len) {
    int fd = memfd_create("sentinel-seccomp", MFD_CLOEXEC);
    if (fd < 0) {
        snprintf(err, err_len, "memfd_create: %s", strerror(errno));
        return -1;
    }
    int rc = seccomp_export_bpf(ctx, fd);
    if (rc != 0) {
        snprintf(err, err_len, "seccomp_export_bpf: %s", strerror(-rc));
        close(fd);
        return -1;
    }
    struct stat info;
    if (fstat(fd, &info) != 0 || info.st_size <= 0 ||
        info.st_size % (off_t)sizeof(struct sock_filter) != 0) {
        snprintf(err, err_len, "seccomp program has a bad size");
        close(fd);
        return -1;
    }
    struct sock_filter *program = malloc((size_t)info.st_size);
    if (program == NULL) {
        snprintf(err, err_len, "out of memory");
        close(fd);
        return -1;
    }
    ssize_t got = pread(fd, program, (size_t)info.st_size, 0);
    close(fd);
    if (got != info.st_size) {
        snprintf(err, err_len, "reading the seccomp program back failed");
        free(program);
        return -1;
    }
    out->prog.len = (unsigned short)(info.st_size / (off_t)sizeof(struct sock_filter));
    out->prog.filter = program;
    return 0;
}

scmp_filter_ctx sbx_seccomp_context(uint32_t default_action, char *err, size_t err_len) {
    scmp_filter_ctx ctx = seccomp_init(default_action);
    if (ctx == NULL) {
        snprintf(err, err_len, "seccomp_init failed");
        return NULL;
    }
    /* A syscall from a foreign architecture (int 0x80 on x86_64) kills the whole
       process, not only the thread. */
    int rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    if (rc == 0) rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
    if (rc != 0) {
        snprintf(err, err_len, "seccomp_attr_set: %s", strerror(-rc));
        seccomp_release(ctx);
        return NULL;
    }
    return ctx;
}

int sbx_seccomp_default(struct sbx_filter *out, char *err, size_t err_len) {
    out->prog.len = 0;
    out->prog.filter = NULL;
    scmp_filter_ctx ctx = sbx_seccomp_context(SCMP_ACT_ALLOW, err, err_len);
    if (ctx == NULL) return -1;
    int rc = build_default(ctx, err, err_len);
    if (rc == 0) rc = sbx_seccomp_export(ctx, out, err, err_len);
    seccomp_release(ctx);
    return rc;
}

void sbx_filter_free(struct sbx_filter *filter) {
    free(filter->prog.filter);
    filter->prog.filter = NULL;
    filter->prog.len = 0;
}
