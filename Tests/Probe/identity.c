/* What the payload's host identity grants: per-uid kernel quotas it shares with whoever has
 * the same host uid, and what owning a workspace's files lets it do to the host processes
 * using them (Unix sockets, FIFOs, leases). */
#include "probe.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

enum { PIPE_CAP = 4096 };

/* pipe-max-size: the most an unprivileged F_SETPIPE_SZ may ask for. */
static int pipe_max_size(void) {
    int fd = open("/proc/sys/fs/pipe-max-size", O_RDONLY | O_CLOEXEC);
    char text[32] = "";
    if (fd >= 0) {
        ssize_t n = read(fd, text, sizeof text - 1);
        text[n > 0 ? n : 0] = '\0';
        close(fd);
    }
    long value = 0;
    text[strcspn(text, "\n")] = '\0';
    return parse_int(text, &value) == 0 && value > 0 && value <= (1L << 30) ? (int)value : 1 << 20;
}

/* Up to `cap` pipes grown to pipe-max-size: pipe pages count per host uid against
 * fs.pipe-user-pages-soft, past which F_SETPIPE_SZ fails with EPERM. Only the read ends are
 * kept (the pipe stays accounted). Returns how many grew; *err says what stopped it. */
static int take_pipe_pages(long cap, int *fds, int *err) {
    int size = pipe_max_size(), count = 0;
    *err = 0;
    while (count < cap) {
        int ends[2];
        if (pipe2(ends, O_CLOEXEC) != 0) {
            *err = errno;
            break;
        }
        close(ends[1]);
        if (fcntl(ends[0], F_SETPIPE_SZ, size) < 0) {
            *err = errno;
            close(ends[0]);
            break;
        }
        fds[count++] = ends[0];
    }
    return count;
}

/* pipe-pages MAX [HOLD]: grows pipes until the per-uid quota refuses (or MAX); holds them
 * until HOLD is removed. DENIED EPERM when not even the first one could grow. */
int v_pipe_pages(int argc, char **argv) {
    long cap = 0;
    if (parse_int(argv[1], &cap) != 0 || cap <= 0 || cap > PIPE_CAP) return usage(argv[0], "MAX must be 1 to 4096");
    static int fds[PIPE_CAP];
    int err = 0;
    int count = take_pipe_pages(cap, fds, &err);
    fprintf(stderr, "sentinel-probe pipe-pages: %d pipes before %s\n", count, err ? errno_name(err) : "the cap");
    hold_until_removed(argc > 2 ? argv[2] : NULL, count);
    for (int i = 0; i < count; i++) close(fds[i]);
    if (count == 0 && err != 0) return denied(argv[0], err);
    return info(argv[0], "pipes=%d stop=%s", count, err ? errno_name(err) : "cap");
}

/* occupy PORT PIPES HOLD: listens on 127.0.0.1:PORT (0: no listener), takes up to PIPES pipes'
 * pages, and holds both until HOLD is removed, so the host and other sandboxes can look. */
int v_occupy(int argc, char **argv) {
    (void)argc;
    long port = 0, cap = 0;
    if (parse_int(argv[1], &port) != 0 || port < 0 || port > 65535) return usage(argv[0], "PORT must be 0 to 65535");
    if (parse_int(argv[2], &cap) != 0 || cap < 0 || cap > PIPE_CAP) return usage(argv[0], "PIPES must be 0 to 4096");
    int listener = -1;
    if (port > 0) {
        listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                                      .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
        if (listener < 0 || bind(listener, (struct sockaddr *)&address, sizeof address) != 0 ||
            listen(listener, 16) != 0)
            return denied(argv[0], errno);
    }
    static int fds[PIPE_CAP];
    int err = 0;
    int count = cap > 0 ? take_pipe_pages(cap, fds, &err) : 0;
    hold_until_removed(argv[3], count);
    for (int i = 0; i < count; i++) close(fds[i]);
    if (listener >= 0) close(listener);
    return info(argv[0], "port=%ld pipes=%d stop=%s", port, count, err ? errno_name(err) : "cap");
}

/* fifo-write PATH: opens a FIFO for writing without blocking (ENXIO when no one reads it) and
 * writes one line. ESCAPED when the line went into the FIFO. */
int v_fifo_write(int argc, char **argv) {
    (void)argc;
    int fd = open(argv[1], O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return denied(argv[0], errno);
    static const char line[] = "sentinel-probe was here\n";
    ssize_t wrote = write(fd, line, sizeof line - 1);
    int err = errno;
    close(fd);
    if (wrote < 0) return denied(argv[0], err);
    return escaped(argv[0], "wrote=%zd", wrote);
}

/* lease PATH [HOLD]: a read lease (F_SETLEASE), held until HOLD is removed. A lease makes
 * every opener for writing wait (lease-break-time, 45 s by default) for the holder, which
 * ignores the SIGIO that asks it to let go. Whether the lease reaches the host's file is for
 * the host to see; the probe reports only that it holds one. */
int v_lease(int argc, char **argv) {
    int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
    if (fd < 0) return denied(argv[0], errno);
    signal(SIGIO, SIG_IGN);
    if (fcntl(fd, F_SETLEASE, F_RDLCK) != 0) {
        int err = errno;
        close(fd);
        return denied(argv[0], err);
    }
    hold_until_removed(argc > 2 ? argv[2] : NULL, 1);
    close(fd);
    return info(argv[0], "held=1");
}
