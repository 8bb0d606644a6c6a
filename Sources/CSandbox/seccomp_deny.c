/*
 * The deny layer of the default seccomp policy: calls refused with a chosen errno, the answer
 * an unprivileged process gets from the kernel (EPERM for privileged operations, EAFNOSUPPORT
 * and EPROTONOSUPPORT for families and protocols a kernel may lack), and one option that
 * succeeds without effect (SO_RCVBUF). It runs before the
 * allow-list layer (seccomp_allow.c); where it allows, the allow-list decides.
 *
 * libseccomp cannot express an exception inside a rule for the same syscall with another
 * action (it rejects or silently drops one of the two), which is why the two are separate
 * programs joined after compilation (seccomp.c).
 */
#include "internal.h"
#include "seccomp_internal.h"

#include <fcntl.h>
#include <linux/sched.h>
#include <netinet/in.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <termios.h>

/* Denied outright with EPERM: kernel attack surface, namespace and mount control,
   tracing, and host administration. */
static const char *const denied_syscalls[] = {
    "ptrace", "process_vm_readv", "process_vm_writev", "process_madvise", "pidfd_getfd",
    "kcmp", "mount", "umount", "umount2", "pivot_root", "chroot", "fsopen", "fsconfig",
    "fsmount", "fspick", "move_mount", "open_tree", "open_tree_attr", "mount_setattr",
    "unshare", "setns", "bpf", "perf_event_open", "userfaultfd", "keyctl", "add_key",
    "request_key", "init_module", "finit_module", "delete_module", "create_module",
    "query_module", "get_kernel_syms", "kexec_load", "kexec_file_load", "io_uring_setup",
    "io_uring_enter", "io_uring_register", "open_by_handle_at", "name_to_handle_at", "reboot",
    "swapon", "swapoff", "acct", "syslog", "quotactl", "quotactl_fd", "nfsservctl",
    "lookup_dcookie", "uselib", "ustat", "sysfs", "_sysctl", "vhangup", "settimeofday", "stime",
    "clock_settime", "clock_adjtime", "adjtimex", "iopl", "ioperm", "sethostname",
    "setdomainname", "fanotify_init", "vm86", "vm86old", "modify_ldt", "lsm_set_self_attr",
};

/* Namespace-creating flags that clone() must not carry. */
static const unsigned long namespace_clone_flags[] = {
    CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID,
    CLONE_NEWNET, 0x00000080 /* CLONE_NEWTIME */,
};

/* Families other than AF_UNIX, AF_INET and AF_INET6 are EAFNOSUPPORT; raw and packet sockets
   on the inet families EPERM (what a process without CAP_NET_RAW gets); inet protocols beyond
   TCP and UDP EPROTONOSUPPORT (what a kernel without them says, so MPTCP users fall back). */
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
    /* On the families that remain, the rules below never overlap one another or the ones
       above: libseccomp keeps only one of two overlapping rules with different actions. */
    const int inet_families[] = {AF_INET, AF_INET6};
    const int eperm_types[] = {SOCK_RAW, SOCK_PACKET};
    const int no_protocol_types[] = {SOCK_RDM, SOCK_SEQPACKET, SOCK_DCCP};
    const int protonosupport = SCMP_ACT_ERRNO(EPROTONOSUPPORT);
    for (size_t f = 0; f < 2; f++) {
        const scmp_datum_t family = (scmp_datum_t)inet_families[f];
        for (size_t t = 0; t < 2; t++) {
            rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(socket), 2,
                                   SCMP_A0(SCMP_CMP_EQ, family, 0),
                                   SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, (scmp_datum_t)eperm_types[t]));
        }
        for (size_t t = 0; t < 3; t++) {
            rc |= seccomp_rule_add(ctx, protonosupport, SCMP_SYS(socket), 2,
                                   SCMP_A0(SCMP_CMP_EQ, family, 0),
                                   SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, (scmp_datum_t)no_protocol_types[t]));
        }
        /* SOCK_STREAM beyond TCP (6): MPTCP (262), SCTP (132). */
        rc |= seccomp_rule_add(ctx, protonosupport, SCMP_SYS(socket), 3, SCMP_A0(SCMP_CMP_EQ, family, 0),
                               SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, SOCK_STREAM),
                               SCMP_A2(SCMP_CMP_GT, IPPROTO_TCP, 0));
        /* SOCK_DGRAM beyond UDP (17): UDP-Lite (136), ICMPv6 (58); and ICMP (1), ping. */
        rc |= seccomp_rule_add(ctx, protonosupport, SCMP_SYS(socket), 3, SCMP_A0(SCMP_CMP_EQ, family, 0),
                               SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, SOCK_DGRAM),
                               SCMP_A2(SCMP_CMP_GT, IPPROTO_UDP, 0));
        rc |= seccomp_rule_add(ctx, protonosupport, SCMP_SYS(socket), 3, SCMP_A0(SCMP_CMP_EQ, family, 0),
                               SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, SOCK_DGRAM),
                               SCMP_A2(SCMP_CMP_EQ, IPPROTO_ICMP, 0));
    }
    /* setsockopt(SOL_SOCKET, SO_RCVBUF) succeeds without effect: the kernel's own sizing
       (tcp_rmem, autotuning) stays. A connection nobody has accepted belongs to no memory
       cgroup and keeps its listener's buffer, which SO_RCVBUF could raise to twice the host's
       net.core.rmem_max (read-only in a child network namespace). */
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(0), SCMP_SYS(setsockopt), 2,
                           SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, SOL_SOCKET),
                           SCMP_A2(SCMP_CMP_MASKED_EQ, 0xffffffffu, SO_RCVBUF));
    return rc;
}

/* No setuid or setgid bits on files, and no device nodes: a payload whose uid maps to the owner of a writable
   workspace could otherwise leave a setuid binary on the host (nosuid protects only the
   sandbox's own mounts). Covers chmod and file creation modes. */
static int add_setid_rules(scmp_filter_ctx ctx, int allow_openat2) {
    static const struct {
        const char *name;
        unsigned mode_arg;
    } mode_calls[] = {
        {"chmod", 1}, {"fchmod", 1}, {"fchmodat", 2}, {"fchmodat2", 2},
        {"creat", 1}, {"mknod", 1}, {"mknodat", 2},
    };
    const scmp_datum_t bits[] = {S_ISUID, S_ISGID};
    int rc = 0;
    for (size_t i = 0; i < sizeof mode_calls / sizeof mode_calls[0]; i++) {
        int nr = sbx_syscall_number(mode_calls[i].name);
        if (nr < 0) continue;
        for (size_t b = 0; b < 2; b++) {
            struct scmp_arg_cmp cmp = {mode_calls[i].mode_arg, SCMP_CMP_MASKED_EQ, bits[b], bits[b]};
            rc |= seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(EPERM), nr, 1, &cmp);
        }
    }
    /* open and openat read their mode only when they create a file (O_CREAT, O_TMPFILE);
       otherwise the argument is whatever the caller's register held. jemalloc opens
       /proc/sys/vm/overcommit_memory with a raw two-argument syscall: refused on a stray bit,
       it took the kernel for one that does not overcommit and mapped every page it handed
       out one by one (FilesystemEscapeTests, anOpenThatCreatesNothingIgnoresItsMode). */
    static const struct {
        const char *name;
        unsigned flags_arg;
        unsigned mode_arg;
    } create_calls[] = {{"open", 1, 2}, {"openat", 2, 3}};
    /* The kernel's own O_TMPFILE bit: glibc's __O_TMPFILE carries O_DIRECTORY too, and the
       kernel reads the mode on this bit alone (without O_DIRECTORY it refuses the call, EINVAL). */
    const scmp_datum_t kernel_tmpfile = 020000000;
    const scmp_datum_t creating[] = {O_CREAT, kernel_tmpfile};
    for (size_t i = 0; i < sizeof create_calls / sizeof create_calls[0]; i++) {
        int nr = sbx_syscall_number(create_calls[i].name);
        if (nr < 0) continue;
        for (size_t c = 0; c < 2; c++) {
            for (size_t b = 0; b < 2; b++) {
                struct scmp_arg_cmp cmp[2] = {
                    {create_calls[i].flags_arg, SCMP_CMP_MASKED_EQ, creating[c], creating[c]},
                    {create_calls[i].mode_arg, SCMP_CMP_MASKED_EQ, bits[b], bits[b]},
                };
                rc |= seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(EPERM), nr, 2, cmp);
            }
        }
    }
    /* No device nodes either: a 0:0 character device (an overlayfs whiteout) needs no
       capability, and would be left on the host as a root-owned node. */
    static const struct {
        const char *name;
        unsigned mode_arg;
    } node_calls[] = {{"mknod", 1}, {"mknodat", 2}};
    const scmp_datum_t device_types[] = {S_IFCHR, S_IFBLK};
    for (size_t i = 0; i < sizeof node_calls / sizeof node_calls[0]; i++) {
        int nr = sbx_syscall_number(node_calls[i].name);
        if (nr < 0) continue;
        for (size_t t = 0; t < 2; t++) {
            struct scmp_arg_cmp cmp = {node_calls[i].mode_arg, SCMP_CMP_MASKED_EQ, S_IFMT, device_types[t]};
            rc |= seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(EPERM), nr, 1, &cmp);
        }
    }
    /* openat2 hides its mode in a struct the filter cannot read; callers fall back to openat.
       Allowed only where no writable mount reaches the host (the variant's caller decides). */
    int openat2 = sbx_syscall_number("openat2");
    if (openat2 >= 0 && !allow_openat2) rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), openat2, 0);
    return rc;
}

static int deny_layer(scmp_filter_ctx ctx, char *err, size_t err_len, int allow_openat2);

int sbx_seccomp_deny_layer(scmp_filter_ctx ctx, char *err, size_t err_len) {
    return deny_layer(ctx, err, err_len, 0);
}

int sbx_seccomp_deny_layer_openat2(scmp_filter_ctx ctx, char *err, size_t err_len) {
    return deny_layer(ctx, err, err_len, 1);
}

static int deny_layer(scmp_filter_ctx ctx, char *err, size_t err_len, int allow_openat2) {
    int rc;
    size_t count = sizeof denied_syscalls / sizeof denied_syscalls[0];
    for (size_t i = 0; i < count; i++) {
        int nr = sbx_syscall_number(denied_syscalls[i]);
        if (nr < 0) continue; /* not on this architecture */
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
    /* prctl(PR_SET_MM) rewrites the process's memory map bounds and auxv: privileged
       (CAP_SYS_RESOURCE), and nothing a payload needs; the rest of prctl stays. */
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(prctl), 1,
                           SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, PR_SET_MM));
    rc |= add_socket_rules(ctx);
    rc |= add_setid_rules(ctx, allow_openat2);
    if (rc != 0) {
        snprintf(err, err_len, "seccomp conditional rules: %s", strerror(-rc));
        return -1;
    }
    return 0;
}
