/* Kernel-facing syscalls a sandbox must not reach: bpf, perf, keyrings, modules, kexec, ... */
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/io_uring.h>
#include <linux/kexec.h>
#include <linux/keyctl.h>
#include <linux/perf_event.h>
#include <linux/reboot.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/io.h>
#include <sys/klog.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int fd_result(const char *verb, long fd, const char *what) {
    if (fd < 0) return denied(verb, errno);
    close((int)fd);
    return escaped(verb, "%s fd=%ld", what, fd);
}

int v_bpf(int argc, char **argv) {
    (void)argc;
    union bpf_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.map_type = BPF_MAP_TYPE_ARRAY;
    attr.key_size = 4;
    attr.value_size = 4;
    attr.max_entries = 1;
    return fd_result(argv[0], syscall(SYS_bpf, BPF_MAP_CREATE, &attr, sizeof attr), "map-created");
}

int v_perf_event_open(int argc, char **argv) {
    (void)argc;
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_SOFTWARE;
    attr.config = PERF_COUNT_SW_CPU_CLOCK;
    attr.disabled = 1;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0UL);
    return fd_result(argv[0], fd, "perf-event");
}

int v_userfaultfd(int argc, char **argv) {
    (void)argc;
    return fd_result(argv[0], syscall(SYS_userfaultfd, O_CLOEXEC), "userfaultfd");
}

int v_keyctl(int argc, char **argv) {
    (void)argc;
    long id = syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 0);
    if (id < 0) return denied(argv[0], errno);
    return escaped(argv[0], "session-keyring=%ld", id);
}

int v_add_key(int argc, char **argv) {
    (void)argc;
    long id = syscall(SYS_add_key, "user", "sentinel-probe", "x", (size_t)1,
                      KEY_SPEC_PROCESS_KEYRING);
    if (id < 0) return denied(argv[0], errno);
    syscall(SYS_keyctl, KEYCTL_INVALIDATE, id);
    return escaped(argv[0], "key=%ld", id);
}

int v_request_key(int argc, char **argv) {
    (void)argc;
    long id = syscall(SYS_request_key, "user", "sentinel-probe-absent", NULL, 0);
    /* ENOKEY means the keyring was searched: the call was allowed. */
    if (id < 0 && errno == ENOKEY) return escaped(argv[0], "searched=ENOKEY");
    return gated_result(argv[0], id, errno);
}

int v_io_uring_setup(int argc, char **argv) {
    (void)argc;
    struct io_uring_params params;
    memset(&params, 0, sizeof params);
    return fd_result(argv[0], syscall(SYS_io_uring_setup, 4, &params), "io_uring");
}

int v_init_module(int argc, char **argv) {
    (void)argc;
    static const char junk[64] = "not an ELF module";
    long ret = syscall(SYS_init_module, junk, sizeof junk, "");
    return gated_result(argv[0], ret, errno);
}

int v_finit_module(int argc, char **argv) {
    (void)argc;
    int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return denied(argv[0], errno);
    long ret = syscall(SYS_finit_module, fd, "", 0);
    int err = errno;
    close(fd);
    return gated_result(argv[0], ret, err);
}

int v_kexec_load(int argc, char **argv) {
    (void)argc;
    /* One segment pointing nowhere: the privilege check comes before it is read. */
    struct kexec_segment segment;
    memset(&segment, 0, sizeof segment);
    segment.bufsz = 1;
    segment.memsz = 4096;
    segment.mem = (void *)0x1000000;
    long ret = syscall(SYS_kexec_load, 0x1000000UL, 1UL, &segment, KEXEC_ARCH_DEFAULT);
    return gated_result(argv[0], ret, errno);
}

int v_kexec_file_load(int argc, char **argv) {
    (void)argc;
    long ret = syscall(SYS_kexec_file_load, -1, -1, 1UL, "", 0UL);
    return gated_result(argv[0], ret, errno);
}

int v_reboot(int argc, char **argv) {
    (void)argc;
    /* CAD_OFF is the kernel default, so even a success leaves the host as it was. */
    long ret = syscall(SYS_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
                       LINUX_REBOOT_CMD_CAD_OFF, NULL);
    return gated_result(argv[0], ret, errno);
}

int v_swapon(int argc, char **argv) {
    (void)argc;
    long ret = syscall(SYS_swapon, "/tmp/.sentinel-probe-no-such-swap", 0);
    return gated_result(argv[0], ret, errno);
}

int v_acct(int argc, char **argv) {
    (void)argc;
    long ret = syscall(SYS_acct, "/tmp/.sentinel-probe-no-such-dir/acct");
    return gated_result(argv[0], ret, errno);
}

int v_personality(int argc, char **argv) {
    (void)argc;
    long old = syscall(SYS_personality, 0xffffffffUL);
    if (old < 0) return denied(argv[0], errno);
    static const unsigned long wanted[] = {PER_LINUX32, PER_LINUX | READ_IMPLIES_EXEC,
                                           PER_LINUX | ADDR_NO_RANDOMIZE};
    int err = 0;
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++) {
        errno = 0;
        if (syscall(SYS_personality, wanted[i]) >= 0 &&
            syscall(SYS_personality, 0xffffffffUL) == (long)wanted[i]) {
            syscall(SYS_personality, (unsigned long)old);
            return escaped(argv[0], "persona=0x%lx", wanted[i]);
        }
        if (err == 0) err = errno != 0 ? errno : EPERM;
    }
    return denied(argv[0], err);
}

int v_sethostname(int argc, char **argv) {
    (void)argc;
    char name[256] = "";
    if (gethostname(name, sizeof name - 1) != 0) snprintf(name, sizeof name, "sentinel-probe");
    if (sethostname(name, strlen(name)) != 0) return denied(argv[0], errno);
    return escaped(argv[0], "hostname=%s", name);
}

int v_setdomainname(int argc, char **argv) {
    (void)argc;
    char name[256] = "";
    if (getdomainname(name, sizeof name - 1) != 0) name[0] = '\0';
    if (setdomainname(name, strlen(name)) != 0) return denied(argv[0], errno);
    return escaped(argv[0], "domainname=%s", name);
}

int v_syslog(int argc, char **argv) {
    (void)argc;
    char buf[256];
    int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, sizeof buf);
    if (n < 0) return denied(argv[0], errno);
    return escaped(argv[0], "kernel-log-bytes=%d", n);
}

int v_clock_settime(int argc, char **argv) {
    (void)argc;
    struct timespec now;
    if (clock_gettime(CLOCK_REALTIME, &now) != 0) return denied(argv[0], errno);
    if (clock_settime(CLOCK_REALTIME, &now) != 0) return denied(argv[0], errno);
    return escaped(argv[0], "clock-set");
}

int v_iopl(int argc, char **argv) {
    (void)argc;
    if (iopl(3) != 0) return denied(argv[0], errno);
    iopl(0);
    return escaped(argv[0], "iopl=3");
}

/* The ia32 entry point from 64-bit code: a filter that checks only x86_64 numbers is bypassed. */
static int int80_attempt(const char *verb, void *ctx) {
    (void)ctx;
    long ret = 20; /* __NR_getpid on i386 */
    __asm__ volatile("int $0x80" : "+a"(ret) : : "memory", "r8", "r9", "r10", "r11");
    if (ret < 0) return denied(verb, (int)-ret);
    return escaped(verb, "ia32-getpid=%ld", ret);
}

int v_int80(int argc, char **argv) {
    (void)argc;
    return in_child(argv[0], int80_attempt, NULL);
}

static int x32_attempt(const char *verb, void *ctx) {
    (void)ctx;
    long ret = syscall(0x40000000L | SYS_getpid);
    if (ret < 0) return denied(verb, errno);
    return escaped(verb, "x32-getpid=%ld", ret);
}

int v_x32(int argc, char **argv) {
    (void)argc;
    return in_child(argv[0], x32_attempt, NULL);
}

int v_vhangup(int argc, char **argv) {
    (void)argc;
    /* Hangs up the caller's terminal: needs CAP_SYS_TTY_CONFIG. */
    long ret = syscall(SYS_vhangup);
    if (ret != 0) return denied(argv[0], errno);
    return escaped(argv[0], "hung-up");
}

/* Syscalls newer than the policy's review: a filter that lists only what it denies lets each
 * new kernel's additions through. Each is called harmlessly; reaching the kernel is the escape. */
static long call_newer(const char *name) {
    if (strcmp(name, "open_tree_attr") == 0) {
        /* The 6.15 sibling of open_tree; without OPEN_TREE_CLONE it returns an O_PATH fd. */
        long fd = syscall(467, AT_FDCWD, "/", 01000000 /* OPEN_TREE_CLOEXEC */, NULL, 0UL);
        if (fd >= 0) close((int)fd);
        return fd < 0 ? -1 : 0;
    }
    if (strcmp(name, "file_getattr") == 0) {
        unsigned char attr[24]; /* struct file_attr, FILE_ATTR_SIZE_VER0 */
        memset(attr, 0, sizeof attr);
        return syscall(468, AT_FDCWD, "/", attr, sizeof attr, 0U);
    }
    if (strcmp(name, "set_mempolicy_home_node") == 0) return syscall(450, 0UL, 0UL, 0UL, 0UL);
    errno = EINVAL;
    return -2;
}

int v_newer_syscall(int argc, char **argv) {
    (void)argc;
    errno = 0;
    long ret = call_newer(argv[1]);
    if (ret == -2 && errno == EINVAL)
        return usage(argv[0], "NAME is one of open_tree_attr file_getattr set_mempolicy_home_node");
    if (ret >= 0) return escaped(argv[0], "%s=%ld", argv[1], ret);
    return gated_result(argv[0], ret, errno);
}

/* Any syscall number, all arguments zero: past the kernel's table it answers ENOSYS either
 * way, so this only proves the number is refused, not by whom (SeccompPolicyTests do that). */
int v_syscall_nr(int argc, char **argv) {
    (void)argc;
    long nr;
    if (parse_int(argv[1], &nr) != 0 || nr < 0 || nr >= 0x40000000L)
        return usage(argv[0], "NR must be a number below 0x40000000");
    long ret = syscall(nr, 0L, 0L, 0L, 0L, 0L, 0L);
    if (ret < 0) return denied(argv[0], errno);
    return escaped(argv[0], "nr=%ld ret=%ld", nr, ret);
}
