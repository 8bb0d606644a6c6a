/* Terminal injection: TIOCSTI pushes input into the caller's tty, TIOCLINUX pastes a selection. */
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* Tries the ioctl on fds 0..2 and on /dev/tty; the first success escapes. */
static int on_ttys(const char *verb, unsigned long request, void *arg) {
    struct attempts a;
    attempts_init(&a);
    char what[32];
    for (int fd = 0; fd <= 2; fd++) {
        if (ioctl(fd, request, arg) == 0) return escaped(verb, "fd=%d", fd);
        snprintf(what, sizeof what, "fd %d", fd);
        attempts_fail(&a, what, errno);
    }
    int tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (tty < 0) {
        attempts_fail(&a, "/dev/tty", errno);
    } else {
        int rc = ioctl(tty, request, arg);
        int err = errno;
        close(tty);
        if (rc == 0) return escaped(verb, "fd=/dev/tty");
        attempts_fail(&a, "/dev/tty ioctl", err);
    }
    return attempts_verdict(verb, &a);
}

int v_tiocsti(int argc, char **argv) {
    (void)argc;
    char c = ' '; /* a space: a success shows the hole without running anything */
    return on_ttys(argv[0], TIOCSTI, &c);
}

int v_tioclinux(int argc, char **argv) {
    (void)argc;
    char subcode = 3; /* TIOCL_PASTESEL: the console selection-paste injection */
    return on_ttys(argv[0], TIOCLINUX, &subcode);
}
