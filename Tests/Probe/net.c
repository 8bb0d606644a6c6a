/* Network attempts: privileged socket families, reaching the host over loopback, DNS. */
#include "probe.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_ether.h>
#include <linux/netlink.h>
#include <linux/vm_sockets.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static int try_socket(const char *verb, int domain, int type, int protocol) {
    int fd = socket(domain, type | SOCK_CLOEXEC, protocol);
    if (fd < 0) return denied(verb, errno);
    close(fd);
    return escaped(verb, "socket=%d/%d/%d", domain, type, protocol);
}

int v_raw_socket(int argc, char **argv) {
    (void)argc;
    return try_socket(argv[0], AF_INET, SOCK_RAW, IPPROTO_ICMP);
}

int v_packet_socket(int argc, char **argv) {
    (void)argc;
    return try_socket(argv[0], AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
}

int v_netlink_socket(int argc, char **argv) {
    (void)argc;
    return try_socket(argv[0], AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
}

int v_vsock_socket(int argc, char **argv) {
    (void)argc;
    return try_socket(argv[0], AF_VSOCK, SOCK_STREAM, 0);
}

/* Numeric host and port to an address; EAI_* text on failure. */
static int resolve_numeric(const char *host, const char *port, int type, struct addrinfo **out) {
    struct addrinfo hints;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = type;
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
    return getaddrinfo(host, port, &hints, out);
}

/* Waits for fd to become ready; 0 on ready, else errno (ETIMEDOUT on timeout). */
static int wait_ready(int fd, short events, int timeout_ms) {
    struct pollfd pfd = {fd, events, 0};
    int n;
    while ((n = poll(&pfd, 1, timeout_ms)) < 0 && errno == EINTR) {
    }
    if (n < 0) return errno;
    return n == 0 ? ETIMEDOUT : 0;
}

int v_connect_tcp(int argc, char **argv) {
    (void)argc;
    struct addrinfo *ai = NULL;
    if (resolve_numeric(argv[1], argv[2], SOCK_STREAM, &ai) != 0 || ai == NULL)
        return usage(argv[0], "HOST must be a numeric address and PORT a number");
    int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
        int err = errno;
        freeaddrinfo(ai);
        return denied(argv[0], err);
    }
    int err = 0;
    if (connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
        err = errno;
        if (err == EINPROGRESS) {
            err = wait_ready(fd, POLLOUT, 2000);
            socklen_t len = sizeof err;
            if (err == 0 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) err = errno;
        }
    }
    freeaddrinfo(ai);
    close(fd);
    if (err != 0) return denied(argv[0], err);
    return escaped(argv[0], "connected=%s:%s", argv[1], argv[2]);
}

int v_udp_send(int argc, char **argv) {
    (void)argc;
    struct addrinfo *ai = NULL;
    if (resolve_numeric(argv[1], argv[2], SOCK_DGRAM, &ai) != 0 || ai == NULL)
        return usage(argv[0], "HOST must be a numeric address and PORT a number");
    int fd = socket(ai->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    int err = fd < 0 ? errno : 0;
    /* A connected UDP socket reports the ICMP port-unreachable of a closed port on recv. */
    if (err == 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) err = errno;
    freeaddrinfo(ai);
    static const char payload[] = "sentinel-probe";
    ssize_t sent = -1;
    if (err == 0 && (sent = send(fd, payload, sizeof payload - 1, 0)) < 0) err = errno;
    if (err == 0) {
        char reply[64];
        if (wait_ready(fd, POLLIN, 500) == 0 && recv(fd, reply, sizeof reply, MSG_DONTWAIT) < 0)
            err = errno;
    }
    if (fd >= 0) close(fd);
    if (err != 0) return denied(argv[0], err);
    return escaped(argv[0], "sent=%zd", sent);
}

static const char *eai_name(int code) {
    switch (code) {
    case EAI_AGAIN: return "EAI_AGAIN";
    case EAI_FAIL: return "EAI_FAIL";
    case EAI_NONAME: return "EAI_NONAME";
    case EAI_NODATA: return "EAI_NODATA";
    case EAI_SERVICE: return "EAI_SERVICE";
    case EAI_FAMILY: return "EAI_FAMILY";
    case EAI_MEMORY: return "EAI_MEMORY";
    case EAI_ADDRFAMILY: return "EAI_ADDRFAMILY";
    case EAI_SYSTEM: return "EAI_SYSTEM";
    default: return "EAI_OTHER";
    }
}

int v_dns(int argc, char **argv) {
    (void)argc;
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    struct addrinfo hints;
    memset(&hints, 0, sizeof hints);
    hints.ai_socktype = SOCK_STREAM;
    struct addrinfo *ai = NULL;
    int rc = getaddrinfo(argv[1], "443", &hints, &ai);
    int err = errno;
    clock_gettime(CLOCK_MONOTONIC, &end);
    long ms = (end.tv_sec - start.tv_sec) * 1000 + (end.tv_nsec - start.tv_nsec) / 1000000;
    fprintf(stderr, "sentinel-probe dns: %s after %ld ms\n", rc == 0 ? "resolved" : eai_name(rc), ms);
    if (rc != 0) {
        if (rc == EAI_SYSTEM) return denied(argv[0], err);
        return denied_text(argv[0], eai_name(rc));
    }
    char address[INET6_ADDRSTRLEN] = "?";
    if (ai != NULL && getnameinfo(ai->ai_addr, ai->ai_addrlen, address, sizeof address, NULL, 0,
                                  NI_NUMERICHOST) != 0)
        snprintf(address, sizeof address, "?");
    freeaddrinfo(ai);
    return escaped(argv[0], "resolved=%s ms=%ld", address, ms);
}

static int connect_unix(const char *verb, const char *name, int abstract) {
    struct sockaddr_un addr;
    memset(&addr, 0, sizeof addr);
    addr.sun_family = AF_UNIX;
    size_t len = strlen(name);
    size_t offset = abstract ? 1 : 0; /* abstract names start with a NUL byte */
    if (len + offset >= sizeof addr.sun_path) return usage(verb, "socket name too long");
    memcpy(addr.sun_path + offset, name, len);
    socklen_t addr_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + offset + len);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return denied(verb, errno);
    int rc = connect(fd, (struct sockaddr *)&addr, addr_len);
    int err = errno;
    close(fd);
    if (rc != 0) return denied(verb, err);
    return escaped(verb, "connected=%s%s", abstract ? "@" : "", name);
}

int v_connect_unix(int argc, char **argv) {
    (void)argc;
    return connect_unix(argv[0], argv[1], 0);
}

int v_connect_abstract(int argc, char **argv) {
    (void)argc;
    return connect_unix(argv[0], argv[1], 1);
}

int v_ifaces(int argc, char **argv) {
    (void)argc;
    /* /proc/net/dev rather than getifaddrs: the latter needs netlink, which may be denied. */
    FILE *f = fopen("/proc/net/dev", "r");
    if (f == NULL) return denied(argv[0], errno);
    char buf[512], names[512] = "";
    size_t used = 0;
    int count = 0;
    while (fgets(buf, sizeof buf, f) != NULL) {
        char *colon = strchr(buf, ':');
        if (colon == NULL) continue;
        *colon = '\0';
        char *name = buf;
        while (*name == ' ') name++;
        count++;
        int wrote = snprintf(names + used, sizeof names - used, "%s%s", used ? "," : "", name);
        if (wrote > 0 && (size_t)wrote < sizeof names - used) used += (size_t)wrote;
    }
    fclose(f);
    return info(argv[0], "count=%d names=%s", count, used ? names : "none");
}

struct family {
    const char *name;
    int domain, type, protocol;
};

/* Families a sandboxed tool has no use for, several with a history of kernel bugs. */
static const struct family families[] = {
    {"alg", AF_ALG, SOCK_SEQPACKET, 0},     {"key", AF_KEY, SOCK_RAW, 2 /* PF_KEY_V2 */},
    {"packet", AF_PACKET, SOCK_DGRAM, 0},   {"netlink", AF_NETLINK, SOCK_DGRAM, 0},
    {"vsock", AF_VSOCK, SOCK_STREAM, 0},    {"tipc", AF_TIPC, SOCK_RDM, 0},
    {"rds", AF_RDS, SOCK_SEQPACKET, 0},     {"can", AF_CAN, SOCK_RAW, 1 /* CAN_RAW */},
    {"bluetooth", AF_BLUETOOTH, SOCK_RAW, 0}, {"xdp", AF_XDP, SOCK_RAW, 0},
    {"llc", AF_LLC, SOCK_DGRAM, 0},         {"x25", AF_X25, SOCK_SEQPACKET, 0},
    {"inet6-raw", AF_INET6, SOCK_RAW, IPPROTO_ICMPV6},
    /* The kernel quietly turns (AF_INET, SOCK_PACKET) into AF_PACKET: a filter on the family
     * argument alone misses it. */
    {"inet-packet", AF_INET, SOCK_PACKET, 0x0300 /* htons(ETH_P_ALL) */},
    /* Protocols on the families a payload keeps that only a missing capability or nothing at
     * all used to stop: Multipath TCP (262), UDP-Lite (136), SCTP (132, autoloads a module). */
    {"mptcp", AF_INET, SOCK_STREAM, 262},  {"mptcp6", AF_INET6, SOCK_STREAM, 262},
    {"udplite", AF_INET, SOCK_DGRAM, 136}, {"udplite6", AF_INET6, SOCK_DGRAM, 136},
    {"sctp", AF_INET, SOCK_SEQPACKET, 132},
};

int v_socket_family(int argc, char **argv) {
    (void)argc;
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++) {
        const struct family *f = &families[i];
        if (strcmp(argv[1], f->name) != 0) continue;
        int fd = socket(f->domain, f->type | SOCK_CLOEXEC, f->protocol);
        if (fd < 0) return denied(argv[0], errno);
        close(fd);
        return escaped(argv[0], "family=%s", f->name);
    }
    return usage(argv[0], "FAMILY is one of alg key packet netlink vsock tipc rds can bluetooth xdp llc x25 inet6-raw inet-packet mptcp mptcp6 udplite udplite6 sctp");
}
