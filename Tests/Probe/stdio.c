/* The caller's stdio: a payload holding the caller's own file descriptions can rewrite a
 * redirected log (pwrite, ftruncate), move the read position of a script the caller's shell
 * is reading (lseek), or leave O_NONBLOCK on the caller's pipe. The launcher must hand it
 * only pipes (or a pty) of its own. */
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static int pwrite_one(int fd) {
    return pwrite(fd, "#", 1, 0) == 1 ? 0 : -1;
}

static int truncate_one(int fd) {
    return ftruncate(fd, 0);
}

/* Tries op on fds 1 and 2; a success on a regular file (a host file the caller redirected
 * into) escapes. A success on anything else (/dev/null) changes nothing of the caller's. */
static int on_outputs(const char *verb, int (*op)(int fd)) {
    struct attempts a;
    attempts_init(&a);
    char what[32];
    for (int fd = 1; fd <= 2; fd++) {
        snprintf(what, sizeof what, "fd %d", fd);
        struct stat info;
        if (fstat(fd, &info) != 0) {
            attempts_fail(&a, what, errno);
            continue;
        }
        if (op(fd) != 0) {
            attempts_fail(&a, what, errno);
        } else if (S_ISREG(info.st_mode)) {
            return escaped(verb, "fd=%d regular-file", fd);
        } else {
            attempts_fail(&a, what, ENODEV);
        }
    }
    return attempts_verdict(verb, &a);
}

int v_pwrite_output(int argc, char **argv) {
    (void)argc;
    return on_outputs(argv[0], pwrite_one);
}

int v_truncate_output(int argc, char **argv) {
    (void)argc;
    return on_outputs(argv[0], truncate_one);
}

/* Seeks stdin to its end: a caller's shell reading its script from the same file
 * description would then skip every line after the sandboxed command. */
int v_lseek_stdin(int argc, char **argv) {
    (void)argc;
    struct stat info;
    if (fstat(0, &info) != 0) return denied(argv[0], errno);
    off_t offset = lseek(0, 0, SEEK_END);
    if (offset < 0) return denied(argv[0], errno);
    if (S_ISREG(info.st_mode)) return escaped(argv[0], "offset=%lld", (long long)offset);
    return denied_text(argv[0], "not-a-file");
}

/* Sets O_NONBLOCK on fds 0..2; whether that reached the caller only the caller can tell
 * (the test reads its own descriptor's flags afterwards), so this reports what it did. */
int v_nonblock_stdio(int argc, char **argv) {
    (void)argc;
    int done[3];
    for (int fd = 0; fd <= 2; fd++) {
        int flags = fcntl(fd, F_GETFL);
        done[fd] = flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0;
    }
    return info(argv[0], "fd0=%d fd1=%d fd2=%d", done[0], done[1], done[2]);
}
