/* Kernel memory and per-user quotas that a cgroup's memory counter or an rlimit does not see:
 * loopback TCP buffers, inotify instances and watches, AIO contexts, and the per-user-namespace
 * limits.
 * Each attempt is capped so that, run by mistake without a sandbox, it stops on its own. */
#include "probe.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum {
    MIB = 1024 * 1024,
    TCP_CONNECTIONS_DEFAULT = 96, /* 2 fds each: fits under a 256 open-files limit */
    INOTIFY_CAP = 4096,
    WATCH_CAP_DEFAULT = 250000,
    HOLD_SECONDS_CAP = 120,
};

/* When HOLD is given, keeps everything open until HOLD is gone (or HOLD_SECONDS_CAP passes), so
 * the host can be checked meanwhile. A HOLD that exists already was made by the host (in a
 * directory bound read-only into the sandbox: the host sees the probe sleeping here); otherwise
 * the probe creates it once the quota is taken. */
void hold_until_removed(const char *hold, long amount) {
    if (hold == NULL) return;
    struct timespec tick = {0, 50 * 1000 * 1000};
    if (access(hold, F_OK) == 0) {
        for (int i = 0; i < HOLD_SECONDS_CAP * 20 && access(hold, F_OK) == 0; i++) nanosleep(&tick, NULL);
        return;
    }
    int fd = open(hold, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        fprintf(stderr, "sentinel-probe: cannot create %s: %s\n", hold, errno_name(errno));
        return;
    }
    char text[32];
    int length = snprintf(text, sizeof text, "%ld\n", amount);
    if (length > 0 && write(fd, text, (size_t)length) < 0) {
        /* the file's existence is the signal; its content is informative */
    }
    close(fd);
    for (int i = 0; i < HOLD_SECONDS_CAP * 20 && access(hold, F_OK) == 0; i++) nanosleep(&tick, NULL);
}

/* Buffer as much as the kernel allows on one connection: bigger buffers, then write until the
 * socket stays unwritable (the peer never reads). Returns the bytes queued; *err on a hard error. */
static long long fill_connection(int fd, long long room, int *err) {
    static char chunk[64 * 1024];
    long long queued = 0;
    int stalls = 0;
    while (queued < room) {
        size_t want = sizeof chunk;
        if ((long long)want > room - queued) want = (size_t)(room - queued);
        ssize_t n = send(fd, chunk, want, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n > 0) {
            queued += n;
            stalls = 0;
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            /* Loopback delivers in the sender's context: a socket still unwritable after a
               pause is full. Under socket-memory pressure poll may say writable while send
               still fails, so a few stalls in a row also mean full. */
            struct pollfd wait = {.fd = fd, .events = POLLOUT};
            if (++stalls < 20 && poll(&wait, 1, 50) > 0 && (wait.revents & POLLOUT)) {
                struct timespec pause = {0, 5 * 1000 * 1000};
                nanosleep(&pause, NULL);
                continue;
            }
            break;
        }
        *err = n < 0 ? errno : EIO;
        break;
    }
    return queued;
}

/* tcp-queue MAX_MB [CONNECTIONS]: loopback connections whose reader never reads; reports the
 * bytes queued in kernel buffers. ESCAPED when MAX_MB was queued. */
int v_tcp_queue(int argc, char **argv) {
    long cap_mb = 0, connections = TCP_CONNECTIONS_DEFAULT;
    if (parse_int(argv[1], &cap_mb) != 0 || cap_mb <= 0) return usage(argv[0], "MAX_MB must be a positive number");
    if (argc > 2 && (parse_int(argv[2], &connections) != 0 || connections <= 0 || connections > 4096))
        return usage(argv[0], "CONNECTIONS must be 1 to 4096");
    long long cap = (long long)cap_mb * MIB;
    int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listener < 0) return denied(argv[0], errno);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t length = sizeof address;
    if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 64) != 0 ||
        getsockname(listener, (struct sockaddr *)&address, &length) != 0)
        return denied(argv[0], errno);
    int *fds = calloc((size_t)connections * 2, sizeof *fds);
    if (fds == NULL) return denied(argv[0], ENOMEM);
    long long queued = 0;
    int opened = 0, err = 0;
    while (opened < connections && queued < cap && err == 0) {
        int client = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (client < 0) {
            err = errno;
            break;
        }
        int big = 64 * MIB; /* clamped by the kernel to net.core.{w,r}mem_max */
        (void)setsockopt(client, SOL_SOCKET, SO_SNDBUF, &big, sizeof big);
        if (connect(client, (struct sockaddr *)&address, sizeof address) != 0) {
            err = errno;
            close(client);
            break;
        }
        int server = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
        if (server < 0) {
            err = errno;
            close(client);
            break;
        }
        (void)setsockopt(server, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
        fds[2 * opened] = client;
        fds[2 * opened + 1] = server;
        opened++;
        queued += fill_connection(client, cap - queued, &err);
    }
    for (int i = 0; i < 2 * opened; i++) close(fds[i]);
    close(listener);
    free(fds);
    fprintf(stderr, "sentinel-probe tcp-queue: %lld bytes on %d connections, stopped by %s\n", queued, opened,
            err ? errno_name(err) : queued >= cap ? "the cap" : "full buffers");
    if (queued >= cap) return escaped(argv[0], "queued=%lld connections=%d", queued, opened);
    return info(argv[0], "queued=%lld connections=%d stop=%s", queued, opened, err ? errno_name(err) : "full");
}

/* inotify-exhaust [HOLD]: inotify instances until the kernel refuses. */
int v_inotify_exhaust(int argc, char **argv) {
    static int fds[INOTIFY_CAP];
    int count = 0, err = 0;
    while (count < INOTIFY_CAP) {
        int fd = inotify_init1(IN_CLOEXEC);
        if (fd < 0) {
            err = errno;
            break;
        }
        fds[count++] = fd;
    }
    fprintf(stderr, "sentinel-probe inotify-exhaust: %d instances before %s\n", count,
            err ? errno_name(err) : "the cap");
    hold_until_removed(argc > 1 ? argv[1] : NULL, count);
    for (int i = 0; i < count; i++) close(fds[i]);
    if (err == 0) return escaped(argv[0], "instances=%d", count);
    return denied(argv[0], err);
}

static struct {
    int fd;
    long count, cap;
    int last_wd, err;
} watching;

static int add_watch(const char *path, const struct stat *st, int type, struct FTW *where) {
    (void)st;
    (void)type;
    (void)where;
    int wd = inotify_add_watch(watching.fd, path, IN_ATTRIB | IN_DONT_FOLLOW);
    if (wd < 0) {
        if (errno == ENOSPC || errno == ENOMEM) {
            watching.err = errno;
            return 1;
        }
        return 0; /* unreadable or vanished: skip it */
    }
    /* Hard links share an inode and so a watch: count only new descriptors. */
    if (wd > watching.last_wd) {
        watching.last_wd = wd;
        watching.count++;
    }
    return watching.count >= watching.cap ? 1 : 0;
}

/* inotify-watches DIR [MAX] [HOLD]: one watch per inode under DIR until the kernel refuses. */
int v_inotify_watches(int argc, char **argv) {
    watching.cap = WATCH_CAP_DEFAULT;
    if (argc > 2 && (parse_int(argv[2], &watching.cap) != 0 || watching.cap <= 0))
        return usage(argv[0], "MAX must be a positive number");
    watching.fd = inotify_init1(IN_CLOEXEC);
    if (watching.fd < 0) return denied(argv[0], errno);
    (void)nftw(argv[1], add_watch, 32, FTW_PHYS | FTW_MOUNT);
    fprintf(stderr, "sentinel-probe inotify-watches: %ld watches before %s\n", watching.count,
            watching.err ? errno_name(watching.err) : "the end of the tree or the cap");
    hold_until_removed(argc > 3 ? argv[3] : NULL, watching.count);
    close(watching.fd);
    if (watching.err != 0) return denied(argv[0], watching.err);
    return escaped(argv[0], "watches=%ld", watching.count);
}

/* user-limits: every /proc/sys/user/max_* value this user namespace sees. */
int v_user_limits(int argc, char **argv) {
    (void)argc;
    DIR *directory = opendir("/proc/sys/user");
    if (directory == NULL) return denied(argv[0], errno);
    char out[1024] = "";
    size_t used = 0;
    struct dirent *entry;
    while ((entry = readdir(directory)) != NULL) {
        if (strncmp(entry->d_name, "max_", 4) != 0) continue;
        char path[300], value[64] = "?";
        snprintf(path, sizeof path, "/proc/sys/user/%s", entry->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            ssize_t n = read(fd, value, sizeof value - 1);
            value[n > 0 ? n : 0] = '\0';
            value[strcspn(value, "\n")] = '\0';
            close(fd);
        }
        int wrote = snprintf(out + used, sizeof out - used, "%s%s=%s", used ? " " : "", entry->d_name, value);
        if (wrote < 0 || (size_t)wrote >= sizeof out - used) break;
        used += (size_t)wrote;
    }
    closedir(directory);
    return info(argv[0], "%s", out);
}

/* The value of a /proc/sys file holding one number; -1 when unreadable. */
static long proc_sys_number(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char text[32];
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0) return -1;
    text[n] = '\0';
    return strtol(text, NULL, 10);
}

enum { AIO_CONTEXTS_CAP = 64 };

/* aio-quota [HOLD]: AIO contexts (io_setup) until the kernel refuses. fs.aio-max-nr counts the
 * events of every context on the host in one pool, so whatever the payload takes, host root
 * cannot have. Holds them while HOLD exists. ESCAPED when any context was created. */
int v_aio_quota(int argc, char **argv) {
    long want = proc_sys_number("/proc/sys/fs/aio-max-nr") - proc_sys_number("/proc/sys/fs/aio-nr");
    if (want <= 0) want = 65536;
    unsigned long contexts[AIO_CONTEXTS_CAP];
    int count = 0, err = 0;
    long taken = 0;
    while (count < AIO_CONTEXTS_CAP && want > 0) {
        contexts[count] = 0;
        if (syscall(SYS_io_setup, (unsigned)want, &contexts[count]) == 0) {
            taken += want;
            count++;
        } else if (errno == EAGAIN) {
            want /= 2; /* the pool has less left: take what remains */
        } else {
            err = errno;
            break;
        }
    }
    fprintf(stderr, "sentinel-probe aio-quota: %ld events in %d contexts (host aio-nr now %ld of %ld)\n", taken, count,
            proc_sys_number("/proc/sys/fs/aio-nr"), proc_sys_number("/proc/sys/fs/aio-max-nr"));
    hold_until_removed(argc > 1 ? argv[1] : NULL, taken);
    for (int i = 0; i < count; i++) syscall(SYS_io_destroy, contexts[i]);
    if (count > 0) return escaped(argv[0], "events=%ld contexts=%d", taken, count);
    return denied(argv[0], err ? err : EAGAIN);
}

/* aio-context: one AIO context of one event, released at once; harmless, so the host can run
 * it to see whether its own io_setup still works. */
int v_aio_context(int argc, char **argv) {
    (void)argc;
    unsigned long context = 0;
    if (syscall(SYS_io_setup, 1u, &context) != 0) return denied(argv[0], errno);
    syscall(SYS_io_destroy, context);
    return info(argv[0], "created=1");
}
