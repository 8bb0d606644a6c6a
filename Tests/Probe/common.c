/* Verdict printing and the small helpers every verb family shares. */
#include "probe.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct errno_entry {
    int value;
    const char *name;
};

/* A table, not a switch: several names share a value on Linux (EAGAIN/EWOULDBLOCK). */
static const struct errno_entry errno_table[] = {
    {EPERM, "EPERM"}, {ENOENT, "ENOENT"}, {ESRCH, "ESRCH"}, {EINTR, "EINTR"}, {EIO, "EIO"},
    {ENXIO, "ENXIO"}, {E2BIG, "E2BIG"}, {ENOEXEC, "ENOEXEC"}, {EBADF, "EBADF"},
    {ECHILD, "ECHILD"}, {EAGAIN, "EAGAIN"}, {ENOMEM, "ENOMEM"}, {EACCES, "EACCES"},
    {EFAULT, "EFAULT"}, {ENOTBLK, "ENOTBLK"}, {EBUSY, "EBUSY"}, {EEXIST, "EEXIST"},
    {EXDEV, "EXDEV"}, {ENODEV, "ENODEV"}, {ENOTDIR, "ENOTDIR"}, {EISDIR, "EISDIR"},
    {EINVAL, "EINVAL"}, {ENFILE, "ENFILE"}, {EMFILE, "EMFILE"}, {ENOTTY, "ENOTTY"},
    {ETXTBSY, "ETXTBSY"}, {EFBIG, "EFBIG"}, {ENOSPC, "ENOSPC"}, {ESPIPE, "ESPIPE"},
    {EROFS, "EROFS"}, {EMLINK, "EMLINK"}, {EPIPE, "EPIPE"}, {EDOM, "EDOM"}, {ERANGE, "ERANGE"},
    {EDEADLK, "EDEADLK"}, {ENAMETOOLONG, "ENAMETOOLONG"}, {ENOLCK, "ENOLCK"},
    {ENOSYS, "ENOSYS"}, {ENOTEMPTY, "ENOTEMPTY"}, {ELOOP, "ELOOP"}, {ENOMSG, "ENOMSG"},
    {EIDRM, "EIDRM"}, {ENOSTR, "ENOSTR"}, {ENODATA, "ENODATA"}, {ETIME, "ETIME"},
    {ENOSR, "ENOSR"}, {ENOLINK, "ENOLINK"}, {EPROTO, "EPROTO"}, {EBADMSG, "EBADMSG"},
    {EOVERFLOW, "EOVERFLOW"}, {EILSEQ, "EILSEQ"}, {EUSERS, "EUSERS"}, {ENOTSOCK, "ENOTSOCK"},
    {EDESTADDRREQ, "EDESTADDRREQ"}, {EMSGSIZE, "EMSGSIZE"}, {EPROTOTYPE, "EPROTOTYPE"},
    {ENOPROTOOPT, "ENOPROTOOPT"}, {EPROTONOSUPPORT, "EPROTONOSUPPORT"},
    {ESOCKTNOSUPPORT, "ESOCKTNOSUPPORT"}, {EOPNOTSUPP, "EOPNOTSUPP"},
    {EPFNOSUPPORT, "EPFNOSUPPORT"}, {EAFNOSUPPORT, "EAFNOSUPPORT"}, {EADDRINUSE, "EADDRINUSE"},
    {EADDRNOTAVAIL, "EADDRNOTAVAIL"}, {ENETDOWN, "ENETDOWN"}, {ENETUNREACH, "ENETUNREACH"},
    {ENETRESET, "ENETRESET"}, {ECONNABORTED, "ECONNABORTED"}, {ECONNRESET, "ECONNRESET"},
    {ENOBUFS, "ENOBUFS"}, {EISCONN, "EISCONN"}, {ENOTCONN, "ENOTCONN"},
    {ETIMEDOUT, "ETIMEDOUT"}, {ECONNREFUSED, "ECONNREFUSED"}, {EHOSTDOWN, "EHOSTDOWN"},
    {EHOSTUNREACH, "EHOSTUNREACH"}, {EALREADY, "EALREADY"}, {EINPROGRESS, "EINPROGRESS"},
    {ESTALE, "ESTALE"}, {EDQUOT, "EDQUOT"}, {ECANCELED, "ECANCELED"}, {ENOKEY, "ENOKEY"},
    {EKEYEXPIRED, "EKEYEXPIRED"}, {EKEYREVOKED, "EKEYREVOKED"}, {EKEYREJECTED, "EKEYREJECTED"},
    {ENOMEDIUM, "ENOMEDIUM"}, {EMEDIUMTYPE, "EMEDIUMTYPE"}, {EOWNERDEAD, "EOWNERDEAD"},
    {ENOTRECOVERABLE, "ENOTRECOVERABLE"}, {ERFKILL, "ERFKILL"}, {EHWPOISON, "EHWPOISON"},
};

const char *errno_name(int err) {
    static char unknown[32];
    for (size_t i = 0; i < sizeof errno_table / sizeof errno_table[0]; i++) {
        if (errno_table[i].value == err) return errno_table[i].name;
    }
    snprintf(unknown, sizeof unknown, "E%d", err);
    return unknown;
}

const char *signal_name(int sig) {
    static char buf[32];
    const char *abbrev = sigabbrev_np(sig);
    if (abbrev != NULL) snprintf(buf, sizeof buf, "SIG%s", abbrev);
    else snprintf(buf, sizeof buf, "SIG%d", sig);
    return buf;
}

static int line(int status, const char *head, const char *verb, const char *fmt, va_list ap) {
    printf("%s %s", head, verb);
    if (fmt != NULL && fmt[0] != '\0') {
        putchar(' ');
        vprintf(fmt, ap);
    }
    putchar('\n');
    fflush(stdout);
    return status;
}

int denied(const char *verb, int err) {
    printf("DENIED %s %s\n", verb, errno_name(err));
    fflush(stdout);
    return PROBE_OK;
}

int denied_signal(const char *verb, int sig) {
    printf("DENIED %s %s\n", verb, signal_name(sig));
    fflush(stdout);
    return PROBE_OK;
}

int denied_text(const char *verb, const char *what) {
    printf("DENIED %s %s\n", verb, what);
    fflush(stdout);
    return PROBE_OK;
}

int escaped(const char *verb, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int status = line(PROBE_ESCAPED, "ESCAPED", verb, fmt, ap);
    va_end(ap);
    return status;
}

int info(const char *verb, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int status = line(PROBE_OK, "INFO", verb, fmt, ap);
    va_end(ap);
    return status;
}

int usage(const char *verb, const char *msg) {
    fprintf(stderr, "sentinel-probe %s: %s\n", verb, msg);
    return PROBE_USAGE;
}

int gated_result(const char *verb, long ret, int err) {
    if (ret >= 0) return escaped(verb, "succeeded ret=%ld", ret);
    if (err == EPERM || err == EACCES || err == ENOSYS) return denied(verb, err);
    return escaped(verb, "gate-passed errno=%s", errno_name(err));
}

static int not_applicable(int err) {
    return err == ENOENT || err == ENOTTY || err == EBADF || err == ENXIO || err == ENODEV ||
           err == ENOTDIR;
}

void attempts_init(struct attempts *a) {
    a->first_errno = 0;
    a->meaningful_errno = 0;
}

void attempts_fail(struct attempts *a, const char *what, int err) {
    fprintf(stderr, "sentinel-probe: %s: %s\n", what, errno_name(err));
    if (a->first_errno == 0) a->first_errno = err;
    if (a->meaningful_errno == 0 && !not_applicable(err)) a->meaningful_errno = err;
}

int attempts_verdict(const char *verb, const struct attempts *a) {
    int err = a->meaningful_errno != 0 ? a->meaningful_errno : a->first_errno;
    return denied(verb, err != 0 ? err : EINVAL);
}

int in_child(const char *verb, int (*fn)(const char *verb, void *ctx), void *ctx) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) return usage(verb, "fork failed");
    if (pid == 0) {
        int status = fn(verb, ctx);
        fflush(stdout);
        _exit(status);
    }
    int wstatus = 0;
    while (waitpid(pid, &wstatus, 0) < 0) {
        if (errno != EINTR) return usage(verb, "waitpid failed");
    }
    if (WIFSIGNALED(wstatus)) return denied_signal(verb, WTERMSIG(wstatus));
    return WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : PROBE_USAGE;
}

int in_initial_userns(void) {
    FILE *f = fopen("/proc/self/uid_map", "r");
    if (f == NULL) return 1; /* cannot tell: assume the worst */
    unsigned long inside = 1, outside = 1, count = 0;
    int fields = fscanf(f, "%lu %lu %lu", &inside, &outside, &count);
    int more = fscanf(f, "%lu", &inside);
    fclose(f);
    return fields == 3 && more != 1 && inside == 0 && outside == 0 && count == 4294967295UL;
}

int status_field(const char *name, char *out, size_t len) {
    FILE *f = fopen("/proc/self/status", "r");
    if (f == NULL) return -1;
    char buf[512];
    size_t name_len = strlen(name);
    int found = -1;
    while (fgets(buf, sizeof buf, f) != NULL) {
        if (strncmp(buf, name, name_len) == 0 && buf[name_len] == ':') {
            const char *value = buf + name_len + 1;
            while (*value == ' ' || *value == '\t') value++;
            snprintf(out, len, "%s", value);
            out[strcspn(out, "\n")] = '\0';
            found = 0;
            break;
        }
    }
    fclose(f);
    return found;
}

int parse_int(const char *text, long *out) {
    char *end = NULL;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0') return -1;
    *out = value;
    return 0;
}
