/* Credentials and inherited state: ids, capabilities, secrets in the environment, open fds. */
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char **environ;

int v_euid(int argc, char **argv) {
    (void)argc;
    return info(argv[0], "euid=%u uid=%u egid=%u gid=%u", (unsigned)geteuid(), (unsigned)getuid(),
                (unsigned)getegid(), (unsigned)getgid());
}

int v_caps(int argc, char **argv) {
    (void)argc;
    static const char *const fields[] = {"CapEff", "CapPrm", "CapInh", "CapBnd",
                                         "CapAmb", "NoNewPrivs", "Seccomp"};
    char out[512] = "";
    size_t used = 0;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        char value[128];
        if (status_field(fields[i], value, sizeof value) != 0) snprintf(value, sizeof value, "?");
        int wrote = snprintf(out + used, sizeof out - used, "%s%s=%s", used ? " " : "", fields[i], value);
        if (wrote < 0 || (size_t)wrote >= sizeof out - used) break;
        used += (size_t)wrote;
    }
    return info(argv[0], "%s", out);
}

int v_setuid0(int argc, char **argv) {
    (void)argc;
    if (setuid(0) != 0) return denied(argv[0], errno);
    return escaped(argv[0], "uid=%u euid=%u", (unsigned)getuid(), (unsigned)geteuid());
}

int v_setgid0(int argc, char **argv) {
    (void)argc;
    if (setgid(0) != 0) return denied(argv[0], errno);
    return escaped(argv[0], "gid=%u egid=%u", (unsigned)getgid(), (unsigned)getegid());
}

int v_setgroups(int argc, char **argv) {
    (void)argc;
    gid_t root = 0;
    if (setgroups(1, &root) != 0) return denied(argv[0], errno);
    return escaped(argv[0], "groups=0");
}

int v_capset(int argc, char **argv) {
    (void)argc;
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof data);
    if (syscall(SYS_capget, &header, data) != 0) return denied(argv[0], errno);
    /* Raise CAP_SYS_ADMIN in effective and permitted: legal only if already permitted. */
    data[0].effective |= 1U << CAP_SYS_ADMIN;
    data[0].permitted |= 1U << CAP_SYS_ADMIN;
    if (syscall(SYS_capset, &header, data) != 0) return denied(argv[0], errno);
    return escaped(argv[0], "raised=CAP_SYS_ADMIN");
}

int v_securebits(int argc, char **argv) {
    (void)argc;
    int old = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
    if (old < 0) return denied(argv[0], errno);
    if (prctl(PR_SET_SECUREBITS, (unsigned long)old | SECBIT_KEEP_CAPS, 0, 0, 0) != 0)
        return denied(argv[0], errno);
    return escaped(argv[0], "securebits=0x%x", (unsigned)(old | SECBIT_KEEP_CAPS));
}

int v_env_secret(int argc, char **argv) {
    char found[1024] = "";
    size_t used = 0;
    for (int i = 1; i < argc; i++) {
        if (getenv(argv[i]) == NULL) continue;
        int wrote = snprintf(found + used, sizeof found - used, "%s%s", used ? "," : "", argv[i]);
        if (wrote < 0 || (size_t)wrote >= sizeof found - used) break;
        used += (size_t)wrote;
    }
    if (used > 0) return escaped(argv[0], "visible=%s", found);
    return denied_text(argv[0], "ENOENT");
}

int v_env(int argc, char **argv) {
    (void)argc;
    char names[2048] = "";
    size_t used = 0;
    for (char **e = environ; e != NULL && *e != NULL; e++) {
        size_t name_len = strcspn(*e, "=");
        int wrote = snprintf(names + used, sizeof names - used, "%s%.*s", used ? "," : "",
                             (int)name_len, *e);
        if (wrote < 0 || (size_t)wrote >= sizeof names - used) break;
        used += (size_t)wrote;
    }
    return info(argv[0], "names=%s", used ? names : "none");
}

int v_fds(int argc, char **argv) {
    (void)argc;
    char open_fds[2048] = "";
    size_t used = 0;
    for (int fd = 3; fd <= 4096; fd++) {
        if (fcntl(fd, F_GETFD) < 0) continue;
        char link_path[64], target[256];
        snprintf(link_path, sizeof link_path, "/proc/self/fd/%d", fd);
        ssize_t n = readlink(link_path, target, sizeof target - 1);
        if (n < 0) snprintf(target, sizeof target, "?");
        else target[n] = '\0';
        int wrote = snprintf(open_fds + used, sizeof open_fds - used, "%s%d:%s", used ? "," : "", fd, target);
        if (wrote < 0 || (size_t)wrote >= sizeof open_fds - used) break;
        used += (size_t)wrote;
    }
    if (used > 0) return escaped(argv[0], "open=%s", open_fds);
    return info(argv[0], "open=none");
}
