/* Socket buffers a payload can pin outside its memory limit. The kernel lets each TCP socket
 * go past its cgroup's socket-memory limit by a forced packet, so that a connection always
 * makes progress: many processes times many loopback connections multiply that packet.
 * A safety stop on the kernel's own count of TCP memory ends the attempt, so a run without
 * a limit (or with a broken one) stops on its own. */
#include "probe.h"

#include <arpa/inet.h>
#include <net/if.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum {
    PIN_PROCESSES_CAP = 1024,
    PIN_CONNECTIONS_CAP = 8192,
    PIN_WAIT_SECONDS = 600,
    PIN_HOLD_SECONDS = 120,
};

/* What one process did: written by it, read by the parent once `done` is set. */
struct pin_slot {
    int connections;
    int err;
    long long queued;
    int done;
};

struct pin_shared {
    int stop; /* the safety stop was reached: everyone stops opening connections */
    struct pin_slot slots[PIN_PROCESSES_CAP];
};

/* The kernel's count of TCP socket memory (/proc/net/sockstat "TCP: ... mem N", pages, summed
 * over every network namespace of the host) in bytes; -1 when it cannot be read. */
static long long tcp_memory(void) {
    int fd = open("/proc/net/sockstat", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char text[1024];
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0) return -1;
    text[n] = '\0';
    const char *line = strstr(text, "\nTCP:");
    const char *mem = line ? strstr(line, " mem ") : NULL;
    const char *end = line ? strchr(line + 1, '\n') : NULL;
    if (mem == NULL || (end != NULL && mem > end)) return -1;
    return atoll(mem + 5) * sysconf(_SC_PAGESIZE);
}

/* MemAvailable from /proc/meminfo, bytes; -1 when unreadable. Host-wide and noisy: reported,
 * never judged on. */
static long long memory_available(void) {
    FILE *file = fopen("/proc/meminfo", "re");
    if (file == NULL) return -1;
    char line[256];
    long long kib = -1;
    while (fgets(line, sizeof line, file) != NULL) {
        if (sscanf(line, "MemAvailable: %lld kB", &kib) == 1) break;
    }
    fclose(file);
    return kib < 0 ? -1 : kib * 1024;
}

/* Queues what the kernel takes on fd without blocking: loopback delivers in the sender's
 * context, so once send says EAGAIN (after a yield, for the peer's ACK) the socket is full. */
static long long fill(int fd) {
    static char chunk[64 * 1024];
    long long queued = 0;
    int stalls = 0;
    while (stalls < 3) {
        ssize_t n = send(fd, chunk, sizeof chunk, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n > 0) {
            queued += n;
            stalls = 0;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            stalls++;
            sched_yield();
        } else {
            break;
        }
    }
    return queued;
}

/* One loopback connection to listener: pair[0] the client, pair[1] the accepted end. */
static int connect_pair(int listener, const struct sockaddr_in *address, int pair[2]) {
    int client = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (client < 0) return -1;
    if (connect(client, (const struct sockaddr *)address, sizeof *address) != 0) {
        int saved = errno;
        close(client);
        errno = saved;
        return -1;
    }
    int server = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
    if (server < 0) {
        int saved = errno;
        close(client);
        errno = saved;
        return -1;
    }
    pair[0] = client;
    pair[1] = server;
    return 0;
}

/* One process: its own listener, then connections filled both ways until CONNECTIONS, an
 * error (EMFILE at the open-files limit) or the safety stop; then it holds them until killed. */
static void pin_process(struct pin_shared *shared, int index, long connections, long long stop_at) {
    struct pin_slot *slot = &shared->slots[index];
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t length = sizeof address;
    int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listener < 0 || bind(listener, (struct sockaddr *)&address, sizeof address) != 0 ||
        listen(listener, 16) != 0 || getsockname(listener, (struct sockaddr *)&address, &length) != 0) {
        slot->err = errno;
    }
    while (slot->err == 0 && slot->connections < connections && !__atomic_load_n(&shared->stop, __ATOMIC_SEQ_CST)) {
        int pair[2];
        if (connect_pair(listener, &address, pair) != 0) {
            slot->err = errno;
            break;
        }
        slot->queued += fill(pair[0]) + fill(pair[1]);
        slot->connections++;
        if (tcp_memory() >= stop_at) __atomic_store_n(&shared->stop, 1, __ATOMIC_SEQ_CST);
    }
    __atomic_store_n(&slot->done, 1, __ATOMIC_SEQ_CST);
    for (;;) pause();
}

/* Waits until every process reported or died (an OOM kill ends one early). It sleeps in poll:
 * the host tells holding (nanosleep, in hold) from this waiting by the syscall. */
static void wait_for_processes(struct pin_shared *shared, pid_t *pids, int count) {
    for (int round = 0; round < PIN_WAIT_SECONDS * 50; round++) {
        int pending = 0;
        for (int i = 0; i < count; i++) {
            if (pids[i] <= 0 || __atomic_load_n(&shared->slots[i].done, __ATOMIC_SEQ_CST)) continue;
            int status;
            if (waitpid(pids[i], &status, WNOHANG) == pids[i]) {
                shared->slots[i].err = WIFSIGNALED(status) ? -WTERMSIG(status) : EIO;
                pids[i] = 0;
                continue;
            }
            pending++;
        }
        if (pending == 0) return;
        (void)poll(NULL, 0, 20);
    }
}

/* Holds until HOLD is removed (it is created here when the host did not make it). */
static void hold(const char *path) {
    if (path == NULL) return;
    if (access(path, F_OK) != 0) {
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd >= 0) close(fd);
    }
    struct timespec tick = {0, 50 * 1000 * 1000};
    for (int i = 0; i < PIN_HOLD_SECONDS * 20 && access(path, F_OK) == 0; i++) nanosleep(&tick, NULL);
}

/* tcp-pin PROCESSES CONNECTIONS CAP_MB [HOLD]: PROCESSES processes each open up to CONNECTIONS
 * loopback connections and fill both directions, nobody reading; reports how much the kernel's
 * TCP memory count grew (pinned=) and the bytes queued. ESCAPED when the growth reached CAP_MB,
 * where everything stops. */
int v_tcp_pin(int argc, char **argv) {
    long processes = 0, connections = 0, cap_mb = 0;
    if (parse_int(argv[1], &processes) != 0 || processes <= 0 || processes > PIN_PROCESSES_CAP)
        return usage(argv[0], "PROCESSES must be 1 to 1024");
    if (parse_int(argv[2], &connections) != 0 || connections <= 0 || connections > PIN_CONNECTIONS_CAP)
        return usage(argv[0], "CONNECTIONS must be 1 to 8192");
    if (parse_int(argv[3], &cap_mb) != 0 || cap_mb <= 0) return usage(argv[0], "CAP_MB must be a positive number");
    long long baseline = tcp_memory(), available = memory_available();
    if (baseline < 0) return denied(argv[0], errno ? errno : EIO);
    long long cap = (long long)cap_mb << 20;
    struct pin_shared *shared = mmap(NULL, sizeof *shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    pid_t *pids = calloc((size_t)processes, sizeof *pids);
    if (shared == MAP_FAILED || pids == NULL) return denied(argv[0], ENOMEM);
    int started = 0, fork_err = 0;
    fflush(stdout);
    fflush(stderr);
    for (; started < processes && !__atomic_load_n(&shared->stop, __ATOMIC_SEQ_CST); started++) {
        pid_t pid = fork();
        if (pid == 0) pin_process(shared, started, connections, baseline + cap);
        if (pid < 0) {
            fork_err = errno;
            break;
        }
        pids[started] = pid;
    }
    wait_for_processes(shared, pids, started);
    long long pinned = tcp_memory() - baseline, queued = 0;
    long long drop = available >= 0 ? available - memory_available() : -1;
    int opened = 0, failed = 0, first_err = 0;
    for (int i = 0; i < started; i++) {
        opened += shared->slots[i].connections;
        queued += shared->slots[i].queued;
        if (shared->slots[i].err != 0 && first_err == 0) first_err = shared->slots[i].err;
        if (shared->slots[i].err < 0) failed++;
    }
    hold(argc > 4 ? argv[4] : NULL);
    for (int i = 0; i < started; i++) {
        if (pids[i] > 0) kill(pids[i], SIGKILL);
    }
    for (int i = 0; i < started; i++) {
        while (pids[i] > 0 && waitpid(pids[i], NULL, 0) < 0 && errno == EINTR) {
        }
    }
    int reached = __atomic_load_n(&shared->stop, __ATOMIC_SEQ_CST);
    fprintf(stderr,
            "sentinel-probe tcp-pin: %d processes (fork: %s), %d connections (first stop: %s), %d killed;"
            " kernel TCP memory +%lld bytes, %lld queued, MemAvailable -%lld bytes%s\n",
            started, fork_err ? errno_name(fork_err) : "all", opened,
            first_err > 0 ? errno_name(first_err) : first_err < 0 ? signal_name(-first_err) : "none", failed,
            pinned, queued, drop, reached ? "; the safety stop was reached" : "");
    munmap(shared, sizeof *shared);
    free(pids);
    if (reached) return escaped(argv[0], "pinned=%lld queued=%lld connections=%d processes=%d", pinned, queued, opened, started);
    return info(argv[0], "pinned=%lld queued=%lld connections=%d processes=%d available-drop=%lld", pinned, queued,
                opened, started, drop);
}

/* One listener per LISTENERS: bound to loopback, the largest receive buffer the kernel allows
 * (its connections inherit it; *rcvbuf is what it got), the longest backlog. */
static int backlog_listener(struct sockaddr_in *address, int *rcvbuf) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int big = 64 << 20; /* clamped by the kernel to twice net.core.rmem_max */
    socklen_t length = sizeof *address, size = sizeof *rcvbuf;
    *address = (struct sockaddr_in){.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof big) != 0 ||
        getsockopt(fd, SOL_SOCKET, SO_RCVBUF, rcvbuf, &size) != 0 ||
        bind(fd, (struct sockaddr *)address, sizeof *address) != 0 || listen(fd, 65535) != 0 ||
        getsockname(fd, (struct sockaddr *)address, &length) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

/* Connects to address, sends what the peer's window takes, and aborts (RST): the connection
 * the listener holds keeps the data, and nothing of it stays with us. 1 when a connection was
 * queued, 0 when the listener's queue is full (the SYN goes unanswered), -1 on an error. */
static int queue_and_abort(const struct sockaddr_in *address, long long *sent) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int result = 1;
    if (connect(fd, (const struct sockaddr *)address, sizeof *address) != 0 && errno != EINPROGRESS) {
        result = -1;
    } else {
        struct pollfd wait = {.fd = fd, .events = POLLOUT};
        int error = 0;
        socklen_t length = sizeof error;
        if (poll(&wait, 1, 100) != 1 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0 || error != 0) {
            result = 0;
        } else {
            *sent += fill(fd);
        }
    }
    int saved = errno;
    struct linger abort_now = {.l_onoff = 1, .l_linger = 0};
    (void)setsockopt(fd, SOL_SOCKET, SO_LINGER, &abort_now, sizeof abort_now);
    close(fd);
    errno = saved;
    return result;
}

/* tcp-backlog LISTENERS CONNECTIONS CAP_MB [HOLD]: LISTENERS listeners, each sent CONNECTIONS
 * connections that are never accepted; every client sends what it can and aborts. The kernel
 * charges a connection to a memory cgroup only when it is accepted, so the data waiting in the
 * listeners' queues belongs to no cgroup: only the file descriptor of the listener is the
 * payload's. Reports the growth of the kernel's TCP memory count (pinned=); ESCAPED when it
 * reached CAP_MB, where the attempt stops. */
int v_tcp_backlog(int argc, char **argv) {
    long listeners = 0, connections = 0, cap_mb = 0;
    if (parse_int(argv[1], &listeners) != 0 || listeners <= 0 || listeners > PIN_CONNECTIONS_CAP)
        return usage(argv[0], "LISTENERS must be 1 to 8192");
    if (parse_int(argv[2], &connections) != 0 || connections <= 0 || connections > 65536)
        return usage(argv[0], "CONNECTIONS must be 1 to 65536");
    if (parse_int(argv[3], &cap_mb) != 0 || cap_mb <= 0) return usage(argv[0], "CAP_MB must be a positive number");
    long long baseline = tcp_memory(), available = memory_available();
    if (baseline < 0) return denied(argv[0], errno ? errno : EIO);
    long long stop_at = baseline + ((long long)cap_mb << 20), sent = 0;
    int *fds = calloc((size_t)listeners, sizeof *fds);
    if (fds == NULL) return denied(argv[0], ENOMEM);
    int opened = 0, err = 0, reached = 0, rcvbuf = 0;
    long queued = 0, most = 0;
    while (opened < listeners && !reached && err == 0) {
        struct sockaddr_in address;
        int fd = backlog_listener(&address, &rcvbuf);
        if (fd < 0) {
            err = errno;
            break;
        }
        fds[opened++] = fd;
        long here = 0;
        while (here < connections) {
            int outcome = queue_and_abort(&address, &sent);
            if (outcome < 0) err = errno;
            if (outcome <= 0) break;
            here++;
            if (tcp_memory() >= stop_at) {
                reached = 1;
                break;
            }
        }
        queued += here;
        if (here > most) most = here;
    }
    long long pinned = tcp_memory() - baseline;
    long long drop = available >= 0 ? available - memory_available() : -1;
    hold(argc > 4 ? argv[4] : NULL);
    for (int i = 0; i < opened; i++) close(fds[i]);
    free(fds);
    fprintf(stderr,
            "sentinel-probe tcp-backlog: %d listeners, %ld connections queued (at most %ld on one), stopped by %s;"
            " kernel TCP memory +%lld bytes, %lld sent, MemAvailable -%lld bytes\n",
            opened, queued, most, reached ? "the safety stop" : err ? errno_name(err) : "the counts", pinned, sent,
            drop);
    if (reached) return escaped(argv[0], "pinned=%lld queued=%ld listeners=%d rcvbuf=%d", pinned, queued, opened, rcvbuf);
    return info(argv[0], "pinned=%lld queued=%ld listeners=%d most=%ld rcvbuf=%d sent=%lld available-drop=%lld",
                pinned, queued, opened, most, rcvbuf, sent, drop);
}

/* The first line of a /proc/sys file into out, its newline dropped ("?" when unreadable). */
static void proc_sys_text(const char *path, char *out, size_t size) {
    snprintf(out, size, "?");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    ssize_t n = read(fd, out, size - 1);
    close(fd);
    out[n > 0 ? n : 0] = '\0';
    out[strcspn(out, "\n")] = '\0';
    for (char *c = out; *c; c++) {
        if (*c == '\t' || *c == ' ') *c = ',';
    }
}

/* net-limits: the network namespace's settings that bound socket memory: somaxconn, tcp_wmem
 * and tcp_rmem (comma-separated), and the loopback's MTU. */
int v_net_limits(int argc, char **argv) {
    (void)argc;
    char somaxconn[32], wmem[64], rmem[64];
    proc_sys_text("/proc/sys/net/core/somaxconn", somaxconn, sizeof somaxconn);
    proc_sys_text("/proc/sys/net/ipv4/tcp_wmem", wmem, sizeof wmem);
    proc_sys_text("/proc/sys/net/ipv4/tcp_rmem", rmem, sizeof rmem);
    int mtu = -1, fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    struct ifreq request;
    memset(&request, 0, sizeof request);
    memcpy(request.ifr_name, "lo", 3);
    if (fd >= 0 && ioctl(fd, SIOCGIFMTU, &request) == 0) mtu = request.ifr_mtu;
    if (fd >= 0) close(fd);
    return info(argv[0], "somaxconn=%s tcp_wmem=%s tcp_rmem=%s lo_mtu=%d", somaxconn, wmem, rmem, mtu);
}
